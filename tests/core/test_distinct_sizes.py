"""metrics.core.cells.distinct_sizes: the distinct sizes of a table's classes or clusters and how
often each occurs — numpy's ``unique(..., return_counts=True)``, the same arrays (values, order,
dtypes) whether the sizes are tallied or sorted."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from metrics.core import cells
from metrics.core.cells import distinct_sizes


def assert_like_unique(sizes):
    got, want = distinct_sizes(sizes), np.unique(sizes, return_counts=True)
    for x, y in zip(got, want):
        assert x.dtype == y.dtype and np.array_equal(x, y)


@given(hnp.arrays(st.sampled_from([np.int64, np.int32, np.uint64, np.uint8]), st.integers(1, 300),
                  elements=st.integers(0, 255)))
def test_small_whole_sizes_are_tallied_like_unique(sizes):
    assert_like_unique(sizes)


@given(hnp.arrays(np.int64, st.integers(0, 300), elements=st.integers(-(2**62), 2**62)))
def test_any_whole_sizes_give_what_unique_gives(sizes):
    assert_like_unique(sizes)


@given(hnp.arrays(np.float64, st.integers(0, 300), elements=st.floats(0, 1e6) | st.sampled_from([0.5, 2.0, 1e300])))
def test_fractional_sizes_give_what_unique_gives(sizes):
    assert_like_unique(sizes)


def test_many_small_sizes_are_counted_not_sorted(monkeypatch):
    """10^5 clusters of about a hundred items: a tally, no sort; one size past the limit sorts."""
    sizes = np.random.default_rng(1).poisson(100, 10**5).astype(np.int64)
    want = np.unique(sizes, return_counts=True)

    def no_sort(*args, **kwargs):
        raise AssertionError("sorted")

    monkeypatch.setattr(cells.np, "unique", no_sort)
    for x, y in zip(distinct_sizes(sizes), want):
        assert np.array_equal(x, y)
    sizes[0] = 4 * sizes.size + 1025
    with pytest.raises(AssertionError, match="sorted"):
        distinct_sizes(sizes)
