"""Noise items (DBSCAN's −1) in Contingency.from_labels: the three readings as a preprocessing of the
labels (hypothesis against counting the arrays by hand), the count, share and coverage reported,
the default unchanged, and bad input."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import metrics
from metrics.core.labels import NOISE_READINGS

C = metrics.Contingency

labelings = st.integers(1, 40).flatmap(lambda n: st.tuples(
    st.lists(st.integers(0, 4), min_size=n, max_size=n),
    st.lists(st.integers(-1, 5), min_size=n, max_size=n)))


def same_table(a: metrics.Contingency, b: metrics.Contingency) -> None:
    np.testing.assert_array_equal(a.to_dense(), b.to_dense())
    assert list(a.row_labels) == list(b.row_labels) and list(a.col_labels) == list(b.col_labels)


@settings(max_examples=80, deadline=None)
@given(labelings)
def test_cluster_reading_is_todays_table(pair):
    gold, pred = pair
    today = C.from_labels(gold, pred)
    read = C.from_labels(gold, pred, noise=-1, noise_as="cluster")
    same_table(read, today)
    assert read.noise_count == pred.count(-1) and read.noise_share == pred.count(-1) / len(pred)
    assert read.coverage == 1.0
    assert today.noise_count is None and today.noise_share is None and today.coverage == 1.0


@settings(max_examples=80, deadline=None)
@given(labelings)
def test_exclude_counts_the_other_items(pair):
    gold, pred = pair
    kept = [i for i, p in enumerate(pred) if p != -1]
    if not kept:
        with pytest.raises(ValueError, match="every item of labels_pred is noise"):
            C.from_labels(gold, pred, noise=-1, noise_as="exclude")
        return
    read = C.from_labels(gold, pred, noise=-1, noise_as="exclude")
    same_table(read, C.from_labels([gold[i] for i in kept], [pred[i] for i in kept]))
    assert read.n == len(kept) and read.coverage == len(kept) / len(pred)
    assert read.noise_count == len(pred) - len(kept)


@settings(max_examples=80, deadline=None)
@given(labelings)
def test_singletons_add_one_cluster_per_noise_item(pair):
    gold, pred = pair
    noise_items = [i for i, p in enumerate(pred) if p == -1]
    read = C.from_labels(gold, pred, noise=-1, noise_as="singletons")
    others = sorted({p for p in pred if p != -1})
    assert list(read.col_labels) == others + [(-1, i) for i in noise_items]
    dense = read.to_dense()
    singles = dense[:, len(others):]
    np.testing.assert_array_equal(singles.sum(axis=0), 1)
    for col, i in enumerate(noise_items):   # each singleton sits in its item's gold class
        assert read.row_labels[np.flatnonzero(singles[:, col])[0]] == gold[i]
    if len(noise_items) < len(pred):   # the other clusters: exactly the table of the other items
        rest = C.from_labels([g for g, p in zip(gold, pred) if p != -1], [p for p in pred if p != -1])
        np.testing.assert_array_equal(dense[np.isin(read.row_labels, rest.row_labels), :len(others)],
                                      rest.to_dense())
    assert read.n == len(pred) and read.coverage == 1.0 and read.noise_count == len(noise_items)


def test_the_three_readings_score_differently():
    gold = [0, 0, 0, 0, 1, 1, 1, 1]
    pred = [0, 0, -1, -1, 1, 1, -1, -1]
    ari = {r: metrics.MEASURES["ari"](C.from_labels(gold, pred, noise=-1, noise_as=r)) for r in NOISE_READINGS}
    assert ari["exclude"] == 1.0   # the clustered items are perfect
    assert ari["singletons"] == pytest.approx(metrics.adjusted_rand_score(gold, [0, 0, 2, 3, 1, 1, 4, 5]))
    assert ari["cluster"] == pytest.approx(metrics.adjusted_rand_score(gold, pred))
    assert len(set(ari.values())) == 3


def test_text_labels_and_absent_noise():
    t = C.from_labels(["a", "b", "a"], ["x", "noise", "x"], noise="noise", noise_as="singletons")
    assert list(t.col_labels) == ["x", ("noise", 1)] and t.noise_count == 1
    absent = C.from_labels([0, 1, 1], [0, 1, 1], noise=-1, noise_as="exclude")
    assert absent.noise_count == 0 and absent.noise_share == 0.0 and absent.coverage == 1.0
    same_table(absent, C.from_labels([0, 1, 1], [0, 1, 1]))
    # Noise in the gold labels is a class like any other: only the clustering's noise is read.
    gold_noise = C.from_labels([-1, -1, 0], [0, 0, 1], noise=-1, noise_as="exclude")
    assert gold_noise.n == 3 and gold_noise.noise_count == 0


@pytest.mark.parametrize("kwargs, message", [
    ({"noise": -1, "noise_as": "drop"}, "noise_as must be one of cluster, singletons, exclude"),
    ({"noise_as": "exclude"}, "needs noise="),
    ({"noise": [-1]}, "one label"),
    ({"noise": float("nan")}, "refused as a label"),
    ({"noise": True}, "one label"),
])
def test_bad_noise_arguments_are_refused_in_words(kwargs, message):
    with pytest.raises(ValueError, match=message):
        C.from_labels([0, 1], [0, -1], **kwargs)


def test_mismatched_lengths_are_refused_with_noise_too():
    with pytest.raises(ValueError, match="same length"):
        C.from_labels([0, 1, 2], [0, -1], noise=-1, noise_as="singletons")


def columns_as_multiset(t: metrics.Contingency) -> list:
    return sorted(map(tuple, t.to_dense().T.tolist()))


@settings(max_examples=80, deadline=None)
@given(labelings, st.sampled_from(NOISE_READINGS))
def test_a_counted_table_reads_noise_as_its_labels_do(pair, reading):
    """table_with_noise (for tables the reader counts) gives from_labels' table, its singleton
    columns in another order (a table does not know the items' positions)."""
    from metrics.core.labels import table_with_noise

    gold, pred = pair
    if reading == "exclude" and all(p == -1 for p in pred):
        with pytest.raises(ValueError, match="every item is noise"):
            table_with_noise(C.from_labels(gold, pred), -1, reading)
        return
    by_labels = C.from_labels(gold, pred, noise=-1, noise_as=reading)
    by_table = table_with_noise(C.from_labels(gold, pred), -1, reading)
    assert list(by_table.row_labels) == list(by_labels.row_labels)
    assert columns_as_multiset(by_table) == columns_as_multiset(by_labels)
    assert (by_table.noise_count, by_table.noise_share, by_table.coverage) == (
        by_labels.noise_count, by_labels.noise_share, by_labels.coverage)
    assert metrics.MEASURES["ari"](by_table) == pytest.approx(metrics.MEASURES["ari"](by_labels), abs=1e-12)


def test_a_fractional_noise_cluster_cannot_be_split():
    from metrics.core.labels import table_with_noise

    t = C.from_table([[1.5, 0.5], [1.0, 2.0]], col_labels=[0, -1])
    assert table_with_noise(t, -1, "cluster").noise_count == 2.5
    with pytest.raises(ValueError, match="fractional"):
        table_with_noise(t, -1, "singletons")


def test_the_noise_label_is_found_as_text_or_number():
    from metrics.core.labels import find_noise_label

    assert find_noise_label(["-1", "1", "2"], -1) == "-1"
    assert find_noise_label(np.array([-1, 0, 3]), "-1") == -1
    assert find_noise_label([0.0, -1.0], "-1") == -1.0
    assert find_noise_label(["a", "noise"], "noise") == "noise"
    assert find_noise_label([0, 1, 2], "-1") is None
    assert find_noise_label([True, (-1, 3)], "-1") is None   # a boolean is no -1; a singleton's label neither
    assert find_noise_label([0, 5], "0") == 0
