"""Properties of every registered measure, as hypothesis tests on random tables.

* bounds: the *unclipped* value (``Measure.func``) lies in the registry's bounds up to
  rounding — ``Measure.__call__`` clips, so testing only the clipped value could not
  fail — and no value is NaN;
* invariance to the order (and names) of classes and clusters;
* symmetry (value of t equals value of t.T) exactly for the measures flagged
  ``symmetric``; every measure not flagged is asymmetric on some table;
* n-invariance (λ·t) exactly for the measures flagged ``n_invariant``; every measure
  not flagged is shown to change;
* Wu et al. (2009) Table 12's claims P1–P5 for the seven normalized measures
  (assets/paper_values/wu2009_table12.json).

A test that checks every measure collects all failing keys for the drawn table, so one
failure report names every measure that breaks the property on that table.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import metrics
from tests import ROOT

M = metrics.MEASURES
TOL = 1e-9
ASSETS = ROOT / "assets" / "paper_values"
TABLE12 = json.loads((ASSETS / "wu2009_table12.json").read_text(encoding="utf-8"))


@st.composite
def dense_int(draw, max_side=6, max_cell=12, min_total=1):
    shape = (draw(st.integers(1, max_side)), draw(st.integers(1, max_side)))
    arr = draw(arrays(np.int64, shape, elements=st.integers(0, max_cell)))
    assume(arr.sum() >= min_total)
    return arr


@st.composite
def dense_float(draw, max_side=5):
    """Ambiguous-data tables: fractional masses, including cells below 1 (Utt et al.)."""
    shape = (draw(st.integers(1, max_side)), draw(st.integers(1, max_side)))
    arr = draw(arrays(np.float64, shape,
                      elements=st.sampled_from([0.0, 0.0, 0.25, 1 / 3, 0.5, 5 / 6, 1.0, 1.5, 2.75, 7.0])))
    assume(arr.sum() > 0)
    return arr


def table(arr) -> metrics.Contingency:
    return metrics.Contingency.from_table(arr)


def same(a: float, b: float, tol: float = TOL) -> bool:
    if math.isinf(a) or math.isinf(b):
        return a == b
    return math.isclose(a, b, rel_tol=tol, abs_tol=tol)


def applicable(t: metrics.Contingency) -> list:
    """The measures defined for ``t`` (Measure.domain: AMI needs integer counts, the
    pair-counting measures cells of at least 1)."""
    return [m for m in M.values() if m.applies_to(t)]


def values(t, keys=None) -> dict:
    return {m.key: m(t) for m in applicable(t) if keys is None or m.key in keys}


# --------------------------------------------------------------------------- bounds
def _bound_problems(t) -> dict:
    problems = {}
    for m in applicable(t):
        lo, hi = m.bounds
        try:
            raw = float(m.func(t, log_base=math.e, beta=1.0))
            clipped = m(t)
        except Exception as exc:  # collected: one report names every failing measure
            problems[m.key] = f"{type(exc).__name__}: {exc}"
            continue
        if math.isnan(raw) or math.isnan(clipped):
            problems[m.key] = "NaN"
        elif not (lo - TOL <= raw <= hi + TOL):
            problems[m.key] = f"{raw!r} outside {m.range_text}"
        elif not (lo <= clipped <= hi):
            problems[m.key] = f"clipped {clipped!r} outside {m.range_text}"
        elif math.isinf(raw) and not (m.key == "minkowski" and metrics.pair_counts(t)[:2] == (0, 0)):
            # MS alone may be +∞, and only when the gold classes join no pair (m1 = 0).
            problems[m.key] = f"infinite value {raw!r}"
    return problems


@given(dense_int())
def test_bounds_integer_tables(arr):
    assert _bound_problems(table(arr)) == {}


@given(dense_float())
def test_bounds_fractional_tables(arr):
    """Every measure defined for ambiguous data (Measure.applies_to) gives a finite
    value in bounds."""
    assert _bound_problems(table(arr)) == {}


def test_minkowski_is_infinite_only_against_singleton_classes():
    """MS normalizes by the pairs the gold classes join: with all-singleton classes
    and a clustering that joins items it is +∞ (documented in metrics/measures/pairs.py)."""
    assert M["minkowski"](table([[1, 1], [0, 1]])) < math.inf
    assert M["minkowski"](table([[1, 0], [1, 0], [0, 1]])) == math.inf


# --------------------------------------------------------------------------- permutations
@given(dense_int(), st.randoms(use_true_random=False))
def test_invariant_to_order_of_rows_and_columns(arr, rnd):
    rows, cols = list(range(arr.shape[0])), list(range(arr.shape[1]))
    rnd.shuffle(rows)
    rnd.shuffle(cols)
    base, permuted = values(table(arr)), values(table(arr[np.ix_(rows, cols)]))
    assert {k for k in base if not same(base[k], permuted[k])} == set()


@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 5)), min_size=1, max_size=40),
       st.permutations(range(5)), st.permutations(range(6)))
def test_invariant_to_renaming_labels(pairs, class_perm, cluster_perm):
    """Renaming classes and clusters (any bijection, to strings or to sparse negative
    integers) changes nothing."""
    true, pred = zip(*pairs)
    base = values(metrics.Contingency.from_labels(list(true), list(pred)))
    renamed = values(metrics.Contingency.from_labels([f"class {class_perm[x]}" for x in true],
                                                     [-1000 * cluster_perm[x] - 7 for x in pred]))
    assert {k for k in base if not same(base[k], renamed[k])} == set()


def test_tuple_labels_are_hashable_labels():
    """Issue 2: from_labels takes 'any hashable labels'; a tuple is a hashable label
    (e.g. a (corpus, tag) key), not a nested sequence."""
    t = metrics.Contingency.from_labels([("a", 1), ("a", 1), ("b", 2)], [0, 0, 1])
    assert t.shape == (2, 2) and M["v_measure"](t) == 1.0


# --------------------------------------------------------------------------- symmetry
SYMMETRIC = [k for k, m in M.items() if m.symmetric]
ASYMMETRIC = [k for k, m in M.items() if not m.symmetric]


@given(dense_int())
def test_symmetric_measures(arr):
    """O(t.T) = O(t) for every measure flagged symmetric (V at its default β = 1),
    both through ``Contingency.T`` and through a table rebuilt from the transpose."""
    t = table(arr)
    base, swapped, rebuilt = values(t, SYMMETRIC), values(t.T, SYMMETRIC), values(table(arr.T), SYMMETRIC)
    assert {k for k in base if not (same(base[k], swapped[k]) and same(base[k], rebuilt[k]))} == set()


# Small tables on which asymmetric (or n-dependent) measures show it.
MIXED_3X3 = [[5, 1, 0], [0, 2, 3], [1, 0, 4]]
WITNESSES = [
    [[1, 1]],
    [[1, 0], [0, 1]],
    [[5, 1, 0], [0, 2, 3], [1, 0, 4]],
    [[4, 0], [3, 0], [0, 6]],
    [[2, 1], [0, 3]],
    [[3, 8, 12], [4, 3, 12], [12, 12, 0]],
    [[10, 10, 10, 0, 0], [0, 0, 0, 0, 2], [0, 0, 0, 0, 6], [0, 0, 0, 10, 0], [0, 0, 0, 0, 2]],
    [[1, 1, 1, 1]],
    [[6, 1, 1], [1, 5, 0]],
]


@pytest.mark.parametrize("key", SYMMETRIC)
def test_symmetric_flag_on_witness_tables(key):
    m = M[key]
    assert [w for w in WITNESSES if not same(m(table(w)), m(table(w).T))] == []


@pytest.mark.parametrize("key", ASYMMETRIC)
def test_asymmetric_measures_are_asymmetric(key):
    """A measure not flagged symmetric really is asymmetric on some table (the flag
    is not just conservative)."""
    m = M[key]
    assert any(not same(m(table(w)), m(table(w).T)) for w in WITNESSES)


def test_v_measure_is_symmetric_only_for_beta_one():
    t = table(MIXED_3X3)
    v = M["v_measure"]
    assert same(v(t), v(t.T))
    assert not same(v(t, beta=2.0), v(t.T, beta=2.0))
    assert same(v(t, beta=2.0), v(t.T, beta=0.5))  # V_β(t.T) = V_{1/β}(t): h and c swap roles


# --------------------------------------------------------------------------- n-invariance
N_INVARIANT = [k for k, m in M.items() if m.n_invariant]
N_DEPENDENT = [k for k, m in M.items() if not m.n_invariant]


@given(dense_int(), st.integers(2, 7))
def test_n_invariant_measures(arr, lam):
    """O(λ·t) = O(t) for every measure flagged n_invariant (Wu's Property 2)."""
    base, scaled = values(table(arr), N_INVARIANT), values(table(lam * arr), N_INVARIANT)
    assert {k for k in base if not same(base[k], scaled[k])} == set()


@pytest.mark.parametrize("key", N_INVARIANT)
def test_n_invariant_flag_on_witness_tables(key):
    """The same property, measure by measure on fixed tables, so that every wrongly
    flagged measure is named in its own failure."""
    m = M[key]
    changed = [w for w in WITNESSES for lam in (2, 3) if not same(m(table(w)), m(table(lam * np.asarray(w))))]
    assert changed == []


@pytest.mark.parametrize("key", N_DEPENDENT)
def test_n_dependent_measures_change_with_n(key):
    m = M[key]
    assert any(not same(m(table(w)), m(table(3 * np.asarray(w)))) for w in WITNESSES)


# --------------------------------------------------------------------------- Wu Table 12
T12 = TABLE12["measure_keys"]  # Wu's symbol -> registry key
# The measures each normalized one normalizes (the JSON lists the four marked 'Yes*' in P3).
T12_UNNORMALIZED = {**TABLE12["unnormalized_keys"],
                    "R_n": "rand", "FM_n": "fowlkes_mallows", "Γ_n": "hubert_gamma"}
# PROPS[property][symbol], property in "P1".."P5" (symmetry, n-invariance, convex
# additivity, left- and right-domain-completeness).
PROPS = {p: {sym: row[p] for sym, row in TABLE12["table"].items()} for p in ("P1", "P2", "P3", "P4", "P5")}


def _is_best(m, value) -> bool:
    best = m.bounds[1] if m.higher_is_better else m.bounds[0]
    return same(value, best)


def _is_worst_wu(m, value) -> bool:
    """Wu's 'poorest value': 0 for positive measures, 1 for negative ones (P4)."""
    return same(value, 0.0 if m.higher_is_better else 1.0)


def test_table12_registry_flags_agree():
    """The registry's symmetric / n_invariant flags say what Table 12's P1 / P2 say
    (ε_n: Yes** — see test_table12_p1_symmetry)."""
    for sym, key in T12.items():
        assert M[key].symmetric == (PROPS["P1"][sym] != "No"), sym
        assert M[key].n_invariant == (PROPS["P2"][sym] == "Yes"), sym


@given(dense_int())
def test_table12_p1_symmetry(arr):
    """P1: symmetric measures give O(t.T) = O(t). ε_n is 'Yes**' (only for K = K') in
    Wu's table, but Table 5 row 8 normalizes by 1 − 1/max(K, K') and the best one-to-one
    matching is itself symmetric, so with that formula ε_n is symmetric for every
    table, K ≠ K' included — which is what is asserted here."""
    t = table(arr)
    for sym, key in T12.items():
        if PROPS["P1"][sym] != "No":
            assert same(M[key](t), M[key](t.T)), sym


def test_table12_p1_f_n_is_asymmetric():
    assert PROPS["P1"]["F_n"] == "No"
    assert any(not same(M["f_n"](table(w)), M["f_n"](table(w).T)) for w in WITNESSES)


@given(dense_int(), st.integers(2, 7))
def test_table12_p2_n_invariance(arr, lam):
    for sym, key in T12.items():
        if PROPS["P2"][sym] == "Yes":
            assert same(M[key](table(arr)), M[key](table(lam * arr))), sym


@pytest.mark.parametrize("sym", [s for s, v in PROPS["P2"].items() if v == "No"])
def test_table12_p2_not_n_invariant_but_asymptotically(sym):
    """R_n, FM_n, Γ_n change with λ, but 'tend to be n-invariant as n increases':
    the change from λ·t to 2λ·t shrinks as λ grows."""
    m = M[T12[sym]]
    w = np.asarray(MIXED_3X3)
    assert not same(m(table(w)), m(table(2 * w)))
    gaps = [abs(m(table(lam * w)) - m(table(2 * lam * w))) for lam in (1, 10, 100)]
    assert gaps[0] > gaps[1] > gaps[2]


def _refinement(blocks):
    """Block table: class l (a row) split into the clusters of sizes ``blocks[l]``."""
    n_cols = sum(len(b) for b in blocks)
    arr = np.zeros((len(blocks), n_cols), dtype=np.int64)
    col = 0
    for i, b in enumerate(blocks):
        arr[i, col:col + len(b)] = b
        col += len(b)
    return arr


@st.composite
def refinements(draw):
    """Classes P_l, each split into 1–4 clusters (a refinement P' of P)."""
    blocks = draw(st.lists(st.lists(st.integers(1, 9), min_size=1, max_size=4), min_size=1, max_size=4))
    return blocks, _refinement(blocks)


def _convex_additive(key, blocks, arr, transpose=False) -> bool:
    """O(M(P, P')) = Σ_l n_l/n · O(M(I_{P_l}, P'_l)) (Wu Property 3, after Meilă)."""
    m = M[key]
    whole = table(arr.T if transpose else arr)
    n = arr.sum()
    parts = 0.0
    for b in blocks:
        part = np.asarray([b])
        parts += sum(b) / n * m(table(part.T if transpose else part))
    return same(m(whole), parts)


@given(refinements(), st.booleans())
def test_table12_p3_unnormalized_measures_are_convex_additive(case, transpose):
    """P3 'Yes*': F, VI, VD and ε are convex additive (in either orientation: the
    refinement as clusters or as classes)."""
    blocks, arr = case
    for sym, key in T12_UNNORMALIZED.items():
        if PROPS["P3"][sym] == "Yes*":
            assert _convex_additive(key, blocks, arr, transpose), key


REFINEMENT_WITNESSES = [[[2, 2], [3]], [[1, 2, 3], [4], [2, 2]], [[5, 1], [1, 1, 1]], [[3, 3], [2, 4]]]


@pytest.mark.parametrize("key", list(T12.values()) + [T12_UNNORMALIZED[s] for s, v in
                                                     PROPS["P3"].items() if v == "No"])
def test_table12_p3_normalized_measures_are_not_convex_additive(key):
    """'none of the normalized measures holds this property'; neither do R, FM, Γ."""
    assert any(not _convex_additive(key, b, _refinement(b)) for b in REFINEMENT_WITNESSES)


INDEPENDENT = [np.outer(u, v) for u, v in [([1, 2], [1, 1]), ([1, 2, 3], [2, 1]), ([3, 1], [1, 2, 4]),
                                              ([2, 2, 1], [1, 3, 1, 2]), ([5, 1], [4, 1])]]


@given(st.lists(st.integers(1, 6), min_size=2, max_size=5), st.lists(st.integers(1, 6), min_size=2, max_size=5))
def test_table12_p4_left_domain_complete(u, v):
    """P4: on statistically independent tables (n_ij = a_i b_j / n) VI_n and VD_n take
    their poorest value 1."""
    t = table(np.outer(u, v))
    for sym, key in T12.items():
        if PROPS["P4"][sym] == "Yes":
            assert _is_worst_wu(M[key], M[key](t)), sym


@pytest.mark.parametrize("sym", [s for s, v in PROPS["P4"].items() if v == "No"])
def test_table12_p4_other_measures_are_not_left_domain_complete(sym):
    m = M[T12[sym]]
    assert any(not _is_worst_wu(m, m(table(w))) for w in INDEPENDENT)


@given(st.lists(st.integers(1, 9), min_size=1, max_size=6), st.randoms(use_true_random=False))
def test_table12_p5_right_domain_complete(sizes, rnd):
    """P5: a perfectly matched table (a permuted diagonal) gets every normalized
    measure's best value."""
    k = len(sizes)
    perm = list(range(k))
    rnd.shuffle(perm)
    arr = np.zeros((k, k), dtype=np.int64)
    arr[range(k), perm] = sizes
    t = table(arr)
    for sym, key in T12.items():
        assert PROPS["P5"][sym] == "Yes"
        assert _is_best(M[key], M[key](t)), sym
