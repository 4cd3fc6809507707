"""One label order (issue 23): ``Contingency.from_labels``, the reader (``metrics.io``, every engine)
and many solutions count the same labels into the same table — classes and clusters in the same
order (sorted where the labels can be ordered, else in order of first appearance), the same cells
in the same order, the same numbers to the last digit."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import metrics
from metrics import io as mio
from metrics.core.labels import sorted_codes

RNG = np.random.default_rng(23)
BIG_GOLD = [f"g{i}" for i in RNG.integers(0, 3000, 6000)]
BIG_PRED = [f"p{i}" for i in RNG.integers(0, 3000, 6000)]

CASES = {
    "text, not in sorted order": (["b", "a", "c", "b", "a"], ["y", "x", "y", "z", "z"]),
    "floats": ([2.5, -1.0, 2.5, 0.5, -1.0], [0.25, 0.25, 3.0, -2.0, 3.0]),
    "integers that are not compact": ([-5, 10**12, 3, -5, 3], [7, -7, 7, 10**15, -7]),
    "compact integers": ([3, 1, 2, 1, 0], [0, 4, 4, 2, 2]),
    "booleans": ([True, False, True, True, False], [False, False, True, True, True]),
    "numbers and text": ([1, "a", 2.5, "b", 1], ["x", 2, "x", 1, 2]),
    "unorderable tuples": ([(1, "a"), (1, 2), (1, "a"), (0, 2), (1, 2)], ["k", "k", "j", "j", "i"]),
    "sparse: too many possible cells for a grid": (BIG_GOLD, BIG_PRED),
}


def _same_table(a: metrics.Contingency, b: metrics.Contingency) -> None:
    assert list(a.row_labels) == list(b.row_labels) and list(a.col_labels) == list(b.col_labels)
    assert [type(x) for x in a.row_labels] == [type(x) for x in b.row_labels]
    assert (a.grid is None) == (b.grid is None)
    if a.grid is not None:
        assert a.grid.dtype == b.grid.dtype and np.array_equal(a.grid, b.grid)
    for x, y in ((a.rows, b.rows), (a.cols, b.cols), (a.values, b.values)):
        assert x.dtype == y.dtype and np.array_equal(x, y)


@pytest.mark.parametrize("case", list(CASES))
def test_the_library_and_the_reader_give_the_same_table_in_the_same_order(case):
    gold, pred = CASES[case]
    lib = metrics.Contingency.from_labels(gold, pred)
    read = mio.contingency_from_columns(pd.Series(gold, dtype=object), pd.Series(pred, dtype=object))
    _same_table(lib, read)
    assert metrics.evaluate(lib) == metrics.evaluate(read)  # every sum in the same order: equal to the last bit


ORDERABLE = ["text, not in sorted order", "floats", "integers that are not compact", "compact integers", "booleans",
             "sparse: too many possible cells for a grid"]


@pytest.mark.parametrize("case", ORDERABLE)
def test_labels_come_sorted_where_they_can_be_ordered(case):
    gold, pred = CASES[case]
    t = metrics.Contingency.from_labels(gold, pred)
    assert list(t.row_labels) == sorted(set(gold)) and list(t.col_labels) == sorted(set(pred))


def test_labels_that_cannot_be_ordered_keep_their_first_appearance():
    class Label:  # hashable, not orderable
        def __init__(self, name):
            self.name = name

    b, a, c = Label("b"), Label("a"), Label("c")
    t = metrics.Contingency.from_labels([b, a, b, c], [1, 1, 2, 2])
    assert list(t.row_labels) == [b, a, c]
    read = mio.contingency_from_columns(pd.Series([b, a, b, c], dtype=object), pd.Series([1, 1, 2, 2]))
    _same_table(t, read)


def test_the_cells_of_a_sparse_table_are_in_row_major_order():
    t = metrics.Contingency.from_labels(BIG_GOLD, BIG_PRED)
    assert t.grid is None
    keys = t.rows * t.shape[1] + t.cols
    assert np.all(np.diff(keys) > 0)


def test_many_solutions_score_the_same_table_as_the_library():
    gold, pred = CASES["text, not in sorted order"]
    other = ["q", "q", "r", "r", "q"]
    frame = metrics.compare_solutions(gold, {"first": pred, "second": other})
    for name, labels in (("first", pred), ("second", other)):
        expected = metrics.evaluate(metrics.Contingency.from_labels(gold, labels))
        got = frame.loc[name].dropna().to_dict()
        assert got == {k: v for k, v in expected.items() if k in got}


def test_sorted_codes_is_the_one_order():
    codes, labels = sorted_codes(np.array(["b", "a", "b"], dtype=object))
    assert list(labels) == ["a", "b"] and codes.tolist() == [1, 0, 1]
    codes, labels = sorted_codes(pd.Series([frozenset({2}), frozenset({1}), 3], dtype=object))  # unorderable
    assert list(labels) == [frozenset({2}), frozenset({1}), 3] and codes.tolist() == [0, 1, 2]
    with pytest.raises(TypeError):
        sorted_codes(pd.Series([[1], [2]], dtype=object))  # unhashable: the caller words the refusal
