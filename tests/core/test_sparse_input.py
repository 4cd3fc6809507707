"""from_table of a scipy.sparse matrix: its entries as distinct cells (duplicates add up, as scipy's
``sum_duplicates`` adds them), without scipy's lexsort of every entry when they are in order."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import sparse

from metrics import Contingency
from metrics.core.cells import table_cells


def _scipy_cells(data, rows, cols, shape):
    coo = sparse.coo_matrix((data, (rows, cols)), shape=shape)
    coo.sum_duplicates()
    return coo.row, coo.col, coo.data


entries = st.lists(st.tuples(st.integers(0, 5), st.integers(0, 6), st.integers(0, 9)), min_size=1, max_size=40)


@settings(max_examples=150, deadline=None)
@given(entries, st.sampled_from(["int64", "uint8", "float64", "bool"]), st.booleans())
def test_entries_in_any_order_give_scipys_summed_cells(given_entries, dtype, fractional):
    rows, cols, vals = (np.array(x, dtype=np.int64) for x in zip(*given_entries))
    data = vals.astype(dtype)
    if fractional and dtype == "float64":
        data = data / 7.0  # sums that round: the order of addition must be scipy's
    r, c, v, shape, _, _ = table_cells(sparse.coo_matrix((data, (rows, cols)), shape=(6, 7)))
    sr, sc, sv = _scipy_cells(data.astype(np.float64 if data.dtype.kind == "f" else np.int64), rows, cols, (6, 7))
    assert shape == (6, 7)
    np.testing.assert_array_equal(r, sr)
    np.testing.assert_array_equal(c, sc)
    np.testing.assert_array_equal(np.asarray(v, dtype=sv.dtype), sv)  # bit for bit, floats included


def test_a_sorted_matrix_is_not_sorted_again(monkeypatch):
    """coo_matrix(coo) forgets scipy's canonical flag; cells already in row-major order are read
    as they are (the lexsort cost 185 times reading the cells of a 10^6-cell table)."""
    rng = np.random.default_rng(0)
    coo = sparse.random(300, 400, density=0.05, format="coo", random_state=rng,
                        data_rvs=lambda k: rng.integers(1, 9, k))
    coo.sum_duplicates()
    expected = Contingency.from_table(coo.toarray())

    def refuse(*_args, **_kwargs):
        raise AssertionError("sum_duplicates called on cells already distinct and in order")

    monkeypatch.setattr(sparse.coo_matrix, "sum_duplicates", refuse)
    monkeypatch.setattr(sparse.coo_matrix, "_sum_duplicates", refuse, raising=False)
    for matrix in (coo, coo.tocsr(), sparse.coo_array(coo), sparse.coo_matrix(coo)):
        t = Contingency.from_table(matrix)
        np.testing.assert_array_equal(t.to_dense(), expected.to_dense())


def test_duplicates_of_a_huge_shape_add_up():
    """Row-major keys past int64 (2^40 × 2^40): rows and columns sorted apart, same sums."""
    big = 1 << 40
    rows = np.array([5, 3, 5, 3, big - 1], dtype=np.int64)
    cols = np.array([big - 2, 7, big - 2, 8, 0], dtype=np.int64)
    r, c, v, _, _, _ = table_cells(sparse.coo_matrix((np.array([1, 2, 3, 4, 5]), (rows, cols)), shape=(big, big)))
    assert list(zip(r.tolist(), c.tolist(), v.tolist())) == [(3, 7, 2), (3, 8, 4), (5, big - 2, 4), (big - 1, 0, 5)]


@pytest.mark.parametrize("dtype", ["int8", "uint64"])
def test_duplicates_summed_past_their_dtype_do_not_wrap(dtype):
    rows, cols = np.array([1, 0, 1]), np.array([1, 0, 1])
    data = np.array([100, 1, 100], dtype=dtype)
    _, _, v, _, _, _ = table_cells(sparse.coo_matrix((data, (rows, cols)), shape=(2, 2)))
    assert v.tolist() == [1, 200]
