"""``Contingency.from_memberships``: the array path for labels without weights against the
per-item loop it replaced, kept here verbatim as the reference.

The two must give the same table to the last bit — the same cells in the same order, the same
values (each cell's additions in item order), the same labels in the same order — and refuse
bad input with the same words. Weighted entries (mappings) still go item by item.
"""

from __future__ import annotations

import math
from collections.abc import Hashable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.core.cells import normalize_counts as _normalize_counts
from metrics.core.contingency import Contingency
from metrics.core.memberships import membership_weights as _weights
from metrics.papers import experiments


def reference(gold, clusters, mode="fuzzy") -> Contingency:
    """``from_memberships`` as first written: one item at a time, cells in a dict."""
    if mode not in ("fuzzy", "count"):
        raise ValueError(f"mode must be 'fuzzy' or 'count', got {mode!r}")
    gold, clusters = list(gold), list(clusters)
    if len(gold) != len(clusters):
        raise ValueError(f"gold and clusters must have the same length, got {len(gold)} and {len(clusters)}")
    if not gold:
        raise ValueError("empty input: gold and clusters hold no items")
    cells: dict[tuple[Hashable, Hashable], float] = {}
    for i, (g, k) in enumerate(zip(gold, clusters)):
        gw, kw = _weights(g, "gold", i), _weights(k, "clusters", i)
        if mode == "fuzzy":
            total = sum(gw.values())
            gw = {c: w / total for c, w in gw.items()}
        else:
            gw = dict.fromkeys(gw, 1.0)
            kw = dict.fromkeys(kw, 1.0)
        for c, wc in gw.items():
            for q, wq in kw.items():
                cells[(c, q)] = cells.get((c, q), 0.0) + wc * wq
    row_labels = list(dict.fromkeys(c for c, _ in cells))
    col_labels = list(dict.fromkeys(q for _, q in cells))
    r_index = {c: i for i, c in enumerate(row_labels)}
    c_index = {q: j for j, q in enumerate(col_labels)}
    rows = np.fromiter((r_index[c] for c, _ in cells), dtype=np.int64, count=len(cells))
    cols = np.fromiter((c_index[q] for _, q in cells), dtype=np.int64, count=len(cells))
    vals = _normalize_counts(np.fromiter(cells.values(), dtype=np.float64, count=len(cells)))
    return Contingency._from_coo(rows, cols, vals, row_labels, col_labels)


def assert_identical(got: Contingency, want: Contingency):
    assert got.rows.dtype == want.rows.dtype == np.int64
    assert got.cols.dtype == want.cols.dtype == np.int64
    assert got.values.dtype == want.values.dtype
    assert got.rows.tolist() == want.rows.tolist()
    assert got.cols.tolist() == want.cols.tolist()
    # Bit for bit (tobytes), not ==: 0.1 + 0.2 summed in another order would differ here.
    assert got.values.tobytes() == want.values.tobytes()
    assert list(got.row_labels) == list(want.row_labels)
    assert list(got.col_labels) == list(want.col_labels)
    assert [type(x) for x in got.row_labels] == [type(x) for x in want.row_labels]
    assert [type(x) for x in got.col_labels] == [type(x) for x in want.col_labels]


def both(gold, clusters, mode):
    assert_identical(Contingency.from_memberships(gold, clusters, mode=mode), reference(gold, clusters, mode))


def outcome(f, *args):
    try:
        f(*args)
    except Exception as exc:  # the exception itself is compared
        return type(exc), str(exc)
    return None


# Labels: ints, strings, and ints and strings mixed; entries: a single label, a tuple or list of
# labels (repeats within an entry included), or a set.
ints = st.integers(0, 7)
texts = st.sampled_from(["a", "b", "c", "d", "x y", "é"])
label = st.one_of(ints, texts)


def entry(labels):
    return st.one_of(labels,
                     st.lists(labels, min_size=1, max_size=5).map(tuple),
                     st.lists(labels, min_size=1, max_size=5),
                     st.frozensets(labels, min_size=1, max_size=4))


def memberships(labels):
    return st.integers(1, 40).flatmap(lambda n: st.tuples(st.lists(entry(labels), min_size=n, max_size=n),
                                                          st.lists(entry(labels), min_size=n, max_size=n)))


@settings(max_examples=400, deadline=None)
@given(st.one_of(memberships(ints), memberships(texts), memberships(label)), st.sampled_from(["fuzzy", "count"]))
def test_array_path_matches_the_per_item_reference(data, mode):
    gold, clusters = data
    both(gold, clusters, mode)


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 60).flatmap(lambda n: st.tuples(st.lists(ints, min_size=n, max_size=n),
                                                      st.lists(texts, min_size=n, max_size=n))),
       st.sampled_from(["fuzzy", "count"]))
def test_single_labels_match(data, mode):
    both(*data, mode)


@pytest.mark.parametrize("scheme, rate", [("halving", None), ("share", 0.5), ("fixed", 3)])
def test_the_fuzzy_labs_clusterings_match(scheme, rate):
    gold = experiments.ambiguous_gold(300, scheme, rate, 40, seed=5)
    for clusters in experiments.soft_clusterings(gold, 5):
        for noisy in (clusters, experiments.with_noise(clusters, 0.4, seed=2)):
            for mode in ("fuzzy", "count"):
                both(gold, noisy, mode)
                both(noisy, gold, mode)


def test_equal_labels_of_different_types_merge_as_in_a_dict():
    # 1, 1.0 and True are one key; the first one met names the row in both paths.
    both([(1, True), 1.0, (True, 2)], [("a",), "a", ("b", "a")], "fuzzy")
    both([1.0, (1, True), np.int64(2)], ["a", "a", "b"], "count")


def test_fuzzy_mass_sums_in_item_order():
    # Thirds and sevenths summed in one cell: any other order of the additions shows in the last bit.
    gold = [(0, 1, 2), (0, 1, 2, 3, 4, 5, 6), (0, 1, 2), (0, 4, 5, 6, 1, 2, 3)] * 7
    clusters = [("k", "m")] * len(gold)
    both(gold, clusters, "fuzzy")


def test_weighted_entries_still_go_item_by_item():
    gold = [{"a": 2.0, "b": 1.0}, ("a",), "b"]
    clusters = [{"x": 0.5, "y": 0.5}, ("x", "y"), "y"]
    for mode in ("fuzzy", "count"):
        both(gold, clusters, mode)


@pytest.mark.parametrize("gold, clusters", [
    ([(1,), ()], [(1,), (2,)]),                         # an empty entry
    ([(1,), (2,)], [(1,), []]),
    ([(1,), (2,)], [(1,), frozenset()]),
    ([(1, None)], [(1,)]),                              # a missing label
    ([(1,), math.nan], [(1,), (2,)]),
    ([(1,)], [(np.float64("nan"),)]),
    ([None], [1]),
    ([(1,), (2,), ()], [(1,), (math.nan,), (2,)]),      # the first bad item is named, clusters before gold
    ([{"a": -1.0}], [(1,)]),                            # a negative weight
    ([{"a": math.inf}], [(1,)]),
    ([{"a": 0}], [(1,)]),                               # a mapping of zero weights: empty
    ([(1,), (2,)], [(1,)]),                             # lengths differ
    ([], []),                                           # nothing at all
    ([([1],)], [(1,)]),                                 # an unhashable label
])
def test_refusals_are_worded_as_before(gold, clusters):
    for mode in ("fuzzy", "count"):
        want = outcome(reference, gold, clusters, mode)
        assert want is not None
        assert outcome(Contingency.from_memberships, gold, clusters, mode) == want
    assert outcome(Contingency.from_memberships, [(1,)], [(1,)], "soft") == outcome(reference, [(1,)], [(1,)], "soft")


def test_refusal_messages_name_the_item():
    with pytest.raises(ValueError, match=r"gold\[1\] is empty: every item needs at least one label"):
        Contingency.from_memberships([(1,), ()], [(1,), (2,)])
    with pytest.raises(ValueError, match=r"clusters\[0\] has a missing label \(NaN/None\)"):
        Contingency.from_memberships([(1,)], [(math.nan,)])
    with pytest.raises(ValueError, match=r"gold\[0\] has a negative or non-finite weight"):
        Contingency.from_memberships([{"a": -1.0}], [(1,)])
    with pytest.raises(ValueError, match="gold and clusters must have the same length, got 2 and 1"):
        Contingency.from_memberships([1, 2], [1])
