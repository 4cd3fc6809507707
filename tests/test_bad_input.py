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
    with pytest.raises(ValueError, match="labels_pred.*missing"):
        C.from_labels([0, 1, 2], [0, math.nan, 1])


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
    with pytest.raises(ValueError, match="ragged|rectangular"):
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
