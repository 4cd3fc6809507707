"""Bad input gets a ValueError / KeyError (TypeError for a wrong type) whose message
names the problem."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import sparse

import metrics

C = metrics.Contingency
GOOD = C.from_labels([0, 0, 1], [0, 1, 1])


# --------------------------------------------------------------------------- labels
@pytest.mark.parametrize("true,pred", [([0, 1, 2], [0, 1]), ([0], [0, 0]), (np.arange(5), np.arange(4))])
def test_mismatched_lengths(true, pred):
    with pytest.raises(ValueError, match=r"same length.*\d+ and \d+"):
        C.from_labels(true, pred)


@pytest.mark.parametrize("true,pred", [([], []), (np.array([]), np.array([])), (pd.Series([], dtype=int), [])])
def test_empty_labels(true, pred):
    with pytest.raises(ValueError, match="empty"):
        C.from_labels(true, pred)


@pytest.mark.parametrize("true", [np.zeros((3, 2)), [[0, 1], [1, 0], [0, 0]], [0, [1, 2], 3]])
def test_labels_not_one_dimensional(true):
    with pytest.raises(ValueError, match="1-D"):
        C.from_labels(true, [0, 1, 2])


@pytest.mark.parametrize("true", ["abc", 5, None])
def test_labels_not_a_sequence(true):
    with pytest.raises(ValueError, match="1-D"):
        C.from_labels(true, [0, 1, 2])


def test_labels_pred_named_in_message():
    with pytest.raises(ValueError, match="labels_pred"):
        C.from_labels([0, 1, 2], np.zeros((3, 1)))


@pytest.mark.parametrize("true", [[0.0, math.nan, 1.0], np.array([1.0, np.nan, 2.0]), [1, None, 2],
                                  ["a", None, "b"], pd.Series(["a", None, "b"])])
def test_missing_labels(true):
    with pytest.raises(ValueError, match=r"missing label.*position 1"):
        C.from_labels(true, [0, 1, 2])


def test_missing_labels_in_pred():
    with pytest.raises(ValueError, match=r"labels_pred.*missing"):
        C.from_labels([0, 1, 2], [0, math.nan, 1])


# --------------------------------------------------------------------------- containers that would
# iterate to something other than one label per item (issue 9): refused, saying what to pass.
def test_one_column_dataframes_are_refused_not_scored_as_perfect():
    """Two one-column DataFrames used to iterate their column names: a one-item table
    on which every measure was perfect."""
    gold, pred = pd.DataFrame({"gold": [0, 0, 1, 1]}), pd.DataFrame({"pred": [0, 1, 0, 1]})
    with pytest.raises(ValueError, match=r"labels_true is a DataFrame.*pass one column, e\.g\. df\['gold'\]"):
        C.from_labels(gold, pred)
    with pytest.raises(ValueError, match=r"labels_pred is a DataFrame.*df\['pred'\]"):
        C.from_labels(gold["gold"], pred)
    # The column itself is what was meant, and works.
    assert metrics.evaluate(C.from_labels(gold["gold"], pred["pred"]), ["rand"])["rand"] < 1


def test_dataframe_with_several_columns_names_them():
    df = pd.DataFrame({"gold": [0, 1], "pred": [1, 0], "x": [0, 0]})
    with pytest.raises(ValueError, match=r"columns 'gold', 'pred', 'x'.*df\['gold'\]"):
        C.from_labels(df, [0, 1])


@pytest.mark.parametrize("mapping", [{0: "a", 1: "b", 2: "a"}, {"x": 0, "y": 1, "z": 1}])
def test_mappings_are_refused(mapping):
    with pytest.raises(ValueError, match=r"labels_true is a dict.*keys.*list\(d\.values\(\)\)"):
        C.from_labels(mapping, [0, 1, 1])
    with pytest.raises(ValueError, match="labels_pred is a dict"):
        C.from_labels([0, 1, 1], mapping)


@pytest.mark.parametrize("labels", [{0, 1, 2}, frozenset({"a", "b", "c"})])
def test_sets_are_refused(labels):
    with pytest.raises(ValueError, match=r"set.*no order.*one label per item"):
        C.from_labels(labels, [0, 1, 2])
    with pytest.raises(ValueError, match=r"labels_pred is a (frozen)?set"):
        C.from_labels([0, 1, 2], labels)


@pytest.mark.parametrize("labels,hint", [
    (np.zeros((3, 1), dtype=int), r"shape \(3, 1\).*ravel\(\)"),
    (np.zeros((1, 3), dtype=int), r"shape \(1, 3\).*ravel\(\)"),
    (np.matrix([[0], [1], [1]]), r"shape \(3, 1\).*np\.asarray\(m\)\.ravel\(\)"),
    (np.zeros((3, 2), dtype=int), r"shape \(3, 2\).*arr\[:, 0\]"),
    (np.zeros((3, 1, 1)), r"shape \(3, 1, 1\)"),
    (np.array(3), r"shape \(\).*single label"),
    ([[0], [1], [1]], r"item 0 is a list.*row\[0\]"),
    ([(0, 1), [1], (1, 0)], r"item 1 is a list"),
    ([0, {1}, 1], r"item 1 is a set"),
    ([0, {"a": 1}, 1], r"item 1 is a dict"),
    ([np.array([0]), np.array([1]), np.array([1])], r"item 0 is a ndarray"),
    (pd.Series([[0], [1], [1]]), r"unhashable.*position 0.*tuples"),
])
def test_two_dimensional_input_is_refused_with_what_to_pass(labels, hint):
    with pytest.raises(ValueError, match=r"labels_true must be 1-D|unhashable"):
        C.from_labels(labels, [0, 1, 1])
    with pytest.raises(ValueError, match=hint):
        C.from_labels(labels, [0, 1, 1])


@pytest.mark.parametrize("which", ["labels_true", "labels_pred"])
def test_two_dimensional_input_names_its_argument(which):
    """scikit-learn's check_clusterings: 'labels_true must be 1D', 'labels_pred must be 1D'."""
    good, bad = [0, 1, 0], [[1, 1], [0, 0], [1, 0]]
    args = (bad, good) if which == "labels_true" else (good, bad)
    with pytest.raises(ValueError, match=f"{which} must be 1-D"):
        C.from_labels(*args)
    with pytest.raises(ValueError, match=f"{which} must be 1-D"):
        C.from_labels(*(np.asarray(a) for a in args))


@pytest.mark.parametrize("labels", ["abc", b"abc", np.str_("abc"), np.int64(3), 3.5])
def test_a_single_value_is_not_a_labeling(labels):
    with pytest.raises(ValueError, match="1-D sequence of labels"):
        C.from_labels(labels, [0, 1, 2])


# --------------------------------------------------------------------------- non-finite labels
INFINITE = [
    ([0.0, math.inf, 1.0], 1), ([1.0, 2.0, -math.inf], 2), (np.array([np.inf, 0.0, 1.0]), 0),
    (np.array([1.0, -np.inf, np.inf]), 1), (pd.Series([0.0, 1.0, np.inf]), 2),
    (np.array([1, math.inf, "a"], dtype=object), 1), ([1, -math.inf, 2], 1),
    (np.array([0, 1, np.inf], dtype=np.float32), 2), (np.array([1 + 0j, complex(math.inf, 0), 2j]), 1),
]


@pytest.mark.parametrize("labels,position", INFINITE)
def test_infinite_labels_are_refused_like_nan(labels, position):
    with pytest.raises(ValueError, match=rf"labels_true contains infinity.*first at position {position}"):
        C.from_labels(labels, [0, 1, 2])
    with pytest.raises(ValueError, match=rf"labels_pred contains infinity.*first at position {position}"):
        C.from_labels([0, 1, 2], labels)


def test_infinite_labels_count_every_occurrence():
    with pytest.raises(ValueError, match=r"3 infinite label\(s\).*first at position 1"):
        C.from_labels([0.0, np.inf, -np.inf, 1.0, np.inf], [0, 1, 2, 3, 4])


@pytest.mark.parametrize("pair", [([0, 1], [np.inf, np.inf]), ([0, 1], [np.nan, np.nan]),
                                  ([0, 1], [np.nan, np.inf]), ([np.inf, 0], [0, 1])])
def test_non_finite_inputs_of_scikit_learn_test_suite(pair):
    """scikit-learn's test_inf_nan_input for the supervised metrics: ValueError that
    says what the input contains."""
    with pytest.raises(ValueError, match=r"contains (NaN|infinity)"):
        C.from_labels(*pair)


def test_missing_values_of_every_kind():
    for missing in (None, math.nan, np.nan, pd.NA, pd.NaT, np.float32("nan")):
        with pytest.raises(ValueError, match=r"contains NaN or None: 1 missing label\(s\), first at position 2"):
            C.from_labels(np.array(["a", "b", missing], dtype=object), [0, 1, 2])
    with pytest.raises(ValueError, match="missing label"):
        C.from_labels(pd.array([1, 2, None], dtype="Int64"), [0, 1, 2])


def test_masked_labels_are_missing_not_counted():
    """A masked item has no label: refused like NaN (it was counted under the value behind the
    mask: n = 3 for two labelled items), on either side, with the first masked position."""
    with pytest.raises(ValueError, match=r"labels_true has 1 masked label\(s\), first at position 1; drop or fill"):
        C.from_labels(np.ma.masked_array([1, 2, 3], mask=[0, 1, 0]), [1, 2, 3])
    with pytest.raises(ValueError, match=r"labels_pred has 2 masked label\(s\), first at position 0"):
        C.from_labels(["a", "b", "c"], np.ma.masked_array(["x", "y", "z"], mask=[1, 0, 1]))
    # Nothing masked: the labels behind the (empty) mask, as a plain array would give.
    t = C.from_labels(np.ma.masked_array([1, 2, 3], mask=[0, 0, 0]), np.ma.masked_array([1, 1, 2]))
    assert t.n == 3 and t.to_frame().equals(C.from_labels([1, 2, 3], [1, 1, 2]).to_frame())
    # Masked items dropped the way the message says: the table of the other items.
    gold, pred = np.ma.masked_array([1, 2, 3], mask=[0, 1, 0]), np.array([1, 2, 3])
    keep = ~np.ma.getmaskarray(gold)
    assert C.from_labels(gold.compressed(), pred[keep]).n == 2


def test_masked_table_cells_are_refused():
    table = np.ma.masked_array([[5, 1], [0, 7]], mask=[[0, 0], [1, 0]])
    with pytest.raises(ValueError, match=r"table has 1 masked cell\(s\), first at row 1, column 0: fill them"):
        C.from_table(table)
    assert C.from_table(table.filled(0)).n == 13
    assert C.from_table(np.ma.masked_array([[5, 1], [0, 7]])).n == 13


# --------------------------------------------------------------------------- what keeps working
REFERENCE = C.from_labels([0, 0, 1, 2, 2, 2], [1, 1, 0, 0, 2, 2])
SAME_LABELS = [0, 0, 1, 2, 2, 2]


def _same_measures(t):
    a, b = metrics.evaluate(t), metrics.evaluate(REFERENCE)
    assert a.keys() == b.keys()
    for key in a:
        assert a[key] == pytest.approx(b[key], rel=1e-12, abs=1e-12), key


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
                                   np.uint64, np.float16, np.float32, np.float64, object, str])
def test_numpy_arrays_of_every_dtype(dtype):
    """scikit-learn's test_format_invariance, extended to every integer width."""
    t = C.from_labels(np.array(SAME_LABELS).astype(dtype), np.array([1, 1, 0, 0, 2, 2]).astype(dtype))
    assert t.n == 6 and t.is_integer
    _same_measures(t)


@pytest.mark.parametrize("convert", [
    list, tuple, pd.Series, pd.Index, lambda x: pd.Series(x, dtype="category"), lambda x: pd.array(x, dtype="Int64"),
    iter, lambda x: (v for v in x), lambda x: pd.Series([f"c{v}" for v in x]), lambda x: [(v, "t") for v in x],
    lambda x: [bool(v % 2) if v < 2 else "two" for v in x], lambda x: [float(v) for v in x],
])
def test_sequences_and_pandas_containers(convert):
    _same_measures(C.from_labels(convert(SAME_LABELS), convert([1, 1, 0, 0, 2, 2])))


def test_series_with_an_unusual_index_is_read_by_position():
    gold = pd.Series(SAME_LABELS, index=[10, 3, 7, 1, 2, 0])
    _same_measures(C.from_labels(gold, np.array([1, 1, 0, 0, 2, 2])))


def test_tuples_are_labels_and_range_works():
    t = C.from_labels([(0, "a"), (0, "a"), (1, "b")], range(3))
    assert t.shape == (2, 3) and list(t.row_labels) == [(0, "a"), (1, "b")]


def test_booleans_and_huge_integers():
    t = C.from_labels(np.array([True, True, False]), [2**62, 2**62, -(2**62)])
    assert t.shape == (2, 2) and t.n == 3
    u = C.from_labels(np.array([2**64 - 1, 2**63, 0], dtype=np.uint64), [0, 1, 2])
    assert set(u.row_labels) == {2**64 - 1, 2**63, 0} and u.n == 3


# --------------------------------------------------------------------------- tables
@pytest.mark.parametrize("table", [[[]], np.zeros((0, 3)), np.zeros((2, 0)), pd.DataFrame()])
def test_empty_table(table):
    with pytest.raises(ValueError, match="empty"):
        C.from_table(table)


def test_empty_list_table():
    """``from_table([])``: the problem is that nothing was given, so say so."""
    with pytest.raises(ValueError, match="empty"):
        C.from_table([])


@pytest.mark.parametrize("table", [[1, 2, 3], np.zeros((2, 2, 2)), 7])
def test_table_not_two_dimensional(table):
    with pytest.raises(ValueError, match="2-D"):
        C.from_table(table)


@pytest.mark.parametrize("table", [[[1, -2], [3, 4]], np.array([[1.0, 2.0], [-0.5, 1.0]]),
                                   sparse.csr_matrix(np.array([[1, 0], [0, -3]]))])
def test_negative_cells(table):
    with pytest.raises(ValueError, match="negative"):
        C.from_table(table)


def test_negative_cell_position_is_named():
    with pytest.raises(ValueError, match="row 1, column 0"):
        C.from_table([[1, 2], [-3, 4]])


@pytest.mark.parametrize("table", [[[1.0, math.nan], [3.0, 4.0]], np.array([[np.nan]]),
                                   sparse.csr_matrix(np.array([[1.0, np.nan]]))])
def test_nan_cells(table):
    with pytest.raises(ValueError, match="NaN"):
        C.from_table(table)


@pytest.mark.parametrize("table", [[[1.0, math.inf]], sparse.csr_matrix(np.array([[1.0, np.inf]]))])
def test_infinite_cells(table):
    with pytest.raises(ValueError, match="infinite"):
        C.from_table(table)


@pytest.mark.parametrize("table", [[[1, 2, 3], [4, 5]], [[1], [2, 3]], ([1, 2], [3])])
def test_ragged_table(table):
    with pytest.raises(ValueError, match=r"ragged|rectangular"):
        C.from_table(table)


@pytest.mark.parametrize("table", [[["a", 1], [2, 3]], [[1, "2x"], [3, 4]], np.array([["a", "b"], ["c", "d"]]),
                                   pd.DataFrame({"k1": [1, 2], "k2": ["x", "y"]})])
def test_text_cells(table):
    with pytest.raises(ValueError, match="numbers"):
        C.from_table(table)


def test_wrong_number_of_labels():
    with pytest.raises(ValueError, match="labels"):
        C.from_table([[1, 2], [3, 4]], row_labels=["only one"])


# --------------------------------------------------------------------------- memberships
def test_memberships_mismatched_lengths():
    with pytest.raises(ValueError, match="same length"):
        C.from_memberships([["a"], ["b"]], [["x"]])


def test_memberships_empty():
    with pytest.raises(ValueError, match="empty"):
        C.from_memberships([], [])


def test_memberships_item_without_label():
    with pytest.raises(ValueError, match=r"gold\[1\] is empty"):
        C.from_memberships([["a"], []], [["x"], ["y"]])


def test_memberships_negative_weight():
    with pytest.raises(ValueError, match=r"clusters\[0\].*negative"):
        C.from_memberships([["a"]], [{"x": -1.0}])


def test_memberships_missing_label():
    with pytest.raises(ValueError, match="missing"):
        C.from_memberships([["a", None]], [["x"]])


def test_memberships_unknown_mode():
    with pytest.raises(ValueError, match="mode"):
        C.from_memberships([["a"]], [["x"]], mode="soft")


# --------------------------------------------------------------------------- measures
@pytest.mark.parametrize("measures", [["nope"], "nope", ["v_measure", "nope"]])
def test_unknown_measure_key(measures):
    with pytest.raises(KeyError, match="nope"):
        metrics.evaluate(GOOD, measures)


def test_unknown_registry_key():
    with pytest.raises(KeyError, match="nope"):
        metrics.MEASURES["nope"]


@pytest.mark.parametrize("log_base", [1, 0, -2, math.nan, math.inf, "2"])
def test_bad_log_base(log_base):
    with pytest.raises(ValueError, match="log_base"):
        metrics.evaluate(GOOD, ["vi"], log_base=log_base)


@pytest.mark.parametrize("beta", [0, -1.0, math.nan, math.inf])
def test_bad_beta(beta):
    with pytest.raises(ValueError, match="beta"):
        metrics.MEASURES["v_measure"](GOOD, beta=beta)


@pytest.mark.parametrize("not_a_table", [[[1, 2], [3, 4]], np.eye(2), None])
def test_measure_needs_a_contingency(not_a_table):
    with pytest.raises(TypeError, match="Contingency"):
        metrics.MEASURES["vi"](not_a_table)
    with pytest.raises(TypeError, match="Contingency"):
        metrics.evaluate(not_a_table)


def test_pair_measures_on_cells_below_one():
    """C(x, 2) of a mass below 1 is negative: the pair-counting measures are not
    defined there. Naming one is an error that says why; evaluate(t) leaves them out."""
    fuzzy = C.from_table([[5 / 6, 1 / 2], [1 / 2, 3 / 2]])
    pair_keys = [k for k, m in metrics.MEASURES.items() if m.family == "pairs"]
    for key in pair_keys:
        with pytest.raises(ValueError, match=rf"{key} is not defined.*below 1"):
            metrics.evaluate(fuzzy, [key])
    assert not set(pair_keys) & set(metrics.evaluate(fuzzy))
    # Fractional masses of at least 1 (expected counts) are counted.
    assert set(pair_keys) <= set(metrics.evaluate(C.from_table([[1.5, 2.0], [1.0, 3.25]])))


def test_integer_only_measure_on_fractional_table():
    """AMI's hypergeometric model needs counts: naming it for a fuzzy table is an error
    that says so (evaluate with measures=None leaves it out)."""
    fuzzy = C.from_table([[0.5, 1.5], [1.0, 2.25]])
    with pytest.raises(ValueError, match="integer"):
        metrics.evaluate(fuzzy, ["ami"])
    assert "ami" not in metrics.evaluate(fuzzy)
