"""Many solutions at once (metrics.solutions): scores against per-pair ``evaluate``, orderings
against scipy's Kendall τ-b and brute-force loops, the solution-vs-solution matrix, bad input."""

from __future__ import annotations

import dataclasses
import itertools
import math
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

import metrics
from metrics import solutions as sol_mod
from metrics.measures import expected

M = metrics.MEASURES
ALL = list(M)
RTOL, ATOL = sol_mod.TIE_RTOL, sol_mod.TIE_ATOL


def oriented(key, values):
    """Larger is better, whatever the measure's direction."""
    v = np.asarray(values, dtype=float)
    return v if M[key].higher_is_better else -v


def tied(x, y) -> bool:
    return math.isclose(x, y, rel_tol=RTOL, abs_tol=ATOL)


def sample_solutions(seed=0, n=120):
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, 4, n)
    return gold, {
        "perfect": gold.copy(),
        "relabelled": (gold + 1) % 4 * 3,  # the same partition under other names
        "noisy": np.where(rng.random(n) < 0.3, rng.integers(0, 4, n), gold),
        "merged": gold // 2,
        "split": gold * 2 + rng.integers(0, 2, n),
        "one cluster": np.zeros(n, dtype=int),
        "singletons": np.arange(n),
        "random": rng.integers(0, 6, n),
    }


# ---------------------------------------------------------------------- compare_solutions
@pytest.mark.parametrize("log_base,beta", [(math.e, 1.0), (2.0, 0.5), (10.0, 3.0)])
def test_every_cell_equals_evaluate_of_its_table(log_base, beta):
    gold, sols = sample_solutions()
    frame = metrics.compare_solutions(gold, sols, log_base=log_base, beta=beta)
    assert list(frame.index) == list(sols) and list(frame.columns) == ALL
    assert frame.index.name == "solution" and frame.columns.name == "measure"
    for name, labels in sols.items():
        expected_values = metrics.evaluate(metrics.Contingency.from_labels(gold, labels),
                                           log_base=log_base, beta=beta)
        assert set(expected_values) == set(ALL)
        for key, value in expected_values.items():
            # Integer gold is passed through as its own codes: the very same table, every digit.
            assert frame.loc[name, key] == value, (name, key)
    assert frame.attrs["why_not"] == {}


def test_text_gold_and_text_solutions_factorized_once_give_the_same_values():
    gold, sols = sample_solutions(seed=3)
    gold_text = np.array([f"class {g}" for g in gold], dtype=object)
    text_sols = {name: [f"c{x}" for x in labels] for name, labels in sols.items()}
    frame = metrics.compare_solutions(gold_text, text_sols)
    for name, labels in text_sols.items():
        want = metrics.evaluate(metrics.Contingency.from_labels(gold_text, labels))
        for key, value in want.items():
            assert frame.loc[name, key] == pytest.approx(value, rel=1e-12, abs=1e-15), (name, key)
    # The names of the labels do not matter, only the partitions.
    ints = metrics.compare_solutions(gold, sols)
    np.testing.assert_allclose(frame.to_numpy(), ints.to_numpy(), rtol=1e-12, atol=1e-15)


label_lists = st.lists(st.integers(0, 5), min_size=2, max_size=40)


@given(st.data())
def test_random_solutions_match_evaluate(data):
    gold = data.draw(label_lists)
    n = len(gold)
    k = data.draw(st.integers(1, 5))
    sols = {f"s{i}": data.draw(st.lists(st.sampled_from(["a", "b", 7, 2.5, ("t", 1)]), min_size=n, max_size=n))
            for i in range(k)}
    keys = data.draw(st.lists(st.sampled_from(ALL), min_size=1, max_size=6, unique=True))
    frame = metrics.compare_solutions(gold, sols, keys)
    assert list(frame.columns) == keys
    for name, labels in sols.items():
        want = metrics.evaluate(metrics.Contingency.from_labels(gold, labels), keys)
        got = frame.loc[name].to_dict()
        assert got == pytest.approx(want, rel=1e-12, abs=1e-15)


def test_dataframe_columns_and_mapping_are_the_same_input():
    gold, sols = sample_solutions(seed=5)
    df = pd.DataFrame(sols)
    a = metrics.compare_solutions(pd.Series(gold, name="gold"), df, ["ari", "vi", "purity"])
    b = metrics.compare_solutions(gold, sols, ["ari", "vi", "purity"])
    pd.testing.assert_frame_equal(a, b)
    # Labels are positional: a Series index does not realign them.
    shuffled = {k: pd.Series(v, index=np.arange(len(v))[::-1]) for k, v in sols.items()}
    pd.testing.assert_frame_equal(metrics.compare_solutions(gold, shuffled, ["ari", "vi", "purity"]), b)


def test_iterators_single_key_and_pandas_dtypes():
    gold, sols = sample_solutions(seed=6)
    frame = metrics.compare_solutions(iter(gold.tolist()), {k: iter(v.tolist()) for k, v in sols.items()}, "ari")
    assert list(frame.columns) == ["ari"]
    want = metrics.compare_solutions(gold, sols, "ari")
    pd.testing.assert_frame_equal(frame, want)
    text = pd.Series([f"g{x}" for x in gold], dtype="string")
    cat = {k: pd.Series(v).astype("category") for k, v in sols.items()}
    got = metrics.compare_solutions(text, cat, "ari")
    np.testing.assert_allclose(got.to_numpy(), want.to_numpy(), rtol=1e-12)


def test_gold_from_other_array_libraries():
    pa = pytest.importorskip("pyarrow")
    gold, sols = sample_solutions(seed=9)
    want = metrics.compare_solutions(gold, sols, ["ari", "vi"])
    got = metrics.compare_solutions(pa.array([f"g{x}" for x in gold]), sols, ["ari", "vi"])
    np.testing.assert_allclose(got.to_numpy(), want.to_numpy(), rtol=1e-12)
    got = metrics.compare_solutions(pa.array(gold), pd.DataFrame(sols), ["ari", "vi"])
    pd.testing.assert_frame_equal(got, want)


def test_measure_beyond_its_budget_is_nan_with_the_reason(monkeypatch):
    gold, sols = sample_solutions(seed=7)
    monkeypatch.setattr(expected, "EMI_TERM_BUDGET", 50)
    over = [name for name, labels in sols.items()
            if M["ami"].why_not(metrics.Contingency.from_labels(gold, labels))]
    assert over and len(over) < len(sols), "the budget should split the solutions"
    frame = metrics.compare_solutions(gold, sols, ["ari", "ami"])
    for name, labels in sols.items():
        t = metrics.Contingency.from_labels(gold, labels)
        if name in over:
            assert math.isnan(frame.loc[name, "ami"])
            assert frame.attrs["why_not"]["ami"][name] == M["ami"].why_not(t)
            with pytest.raises(ValueError, match="not computed"):
                metrics.evaluate(t, ["ami"])
        else:
            assert frame.loc[name, "ami"] == metrics.evaluate(t, ["ami"])["ami"]
        assert not math.isnan(frame.loc[name, "ari"])
    assert set(frame.attrs["why_not"]) == {"ami"} and set(frame.attrs["why_not"]["ami"]) == set(over)
    # NaN is skipped by the orderings, not ranked.
    assert rank_nan_free(metrics.rank_solutions(frame), frame)


def rank_nan_free(ranks, frame) -> bool:
    return bool((ranks.isna() == frame.isna()).all().all())


# ---------------------------------------------------------------------- rank_solutions
@st.composite
def score_frames(draw, max_solutions=9, nan=True):
    """solutions × measures frames with many exact ties (values from a small set) and NaNs."""
    keys = draw(st.lists(st.sampled_from(ALL), min_size=1, max_size=6, unique=True))
    rows = draw(st.integers(0, max_solutions))
    pool = [0.0, 0.25, 1 / 3, 0.5, 1.0, 2.0, -0.5] + ([math.nan] if nan else [])
    values = draw(st.lists(st.lists(st.sampled_from(pool), min_size=len(keys), max_size=len(keys)),
                           min_size=rows, max_size=rows))
    return pd.DataFrame(np.array(values, dtype=float).reshape(rows, len(keys)),
                        index=[f"s{i}" for i in range(rows)], columns=keys)


@given(score_frames())
def test_ranks_are_scipy_min_ranks_of_the_oriented_values(frame):
    ranks = metrics.rank_solutions(frame)
    assert list(ranks.index) == list(frame.index) and list(ranks.columns) == list(frame.columns)
    for key in frame.columns:
        col = frame[key].to_numpy()
        ok = ~np.isnan(col)
        want = np.full(col.shape, np.nan)
        if ok.any():
            want[ok] = stats.rankdata(-oriented(key, col[ok]), method="min")
        np.testing.assert_array_equal(ranks[key].to_numpy(), want)


def test_rounding_residue_is_a_tie_and_a_relabelled_solution_ties_everywhere():
    frame = pd.DataFrame({"purity": [0.1 + 0.2, 0.3, 0.2]}, index=["a", "b", "c"])
    assert 0.1 + 0.2 != 0.3
    assert metrics.rank_solutions(frame)["purity"].tolist() == [1.0, 1.0, 3.0]
    # Far from zero the tolerance is relative: a residue of 6e-11 on 3e5 is a tie, 3e-3 is not.
    big = pd.DataFrame({"mirkin": [1e6 * (0.1 + 0.2), 3e5, 3e5 * (1 + 1e-8)]}, index=["a", "b", "c"])
    assert big["mirkin"].iloc[0] - big["mirkin"].iloc[1] > 1e-11
    assert metrics.rank_solutions(big)["mirkin"].tolist() == [1.0, 1.0, 3.0]
    assert metrics.rank_agreement(big.assign(vi=[1.0, 2.0, 3.0])).loc["mirkin", "vi"] == pytest.approx(2 / math.sqrt(6))
    infinite = pd.DataFrame({"mutual_info": [math.inf, 1e300, math.inf, 0.0]}, index=list("abcd"))
    assert metrics.rank_solutions(infinite)["mutual_info"].tolist() == [1.0, 3.0, 1.0, 4.0]
    gold, sols = sample_solutions(seed=8)
    scores = metrics.compare_solutions(gold, sols)
    ranks = metrics.rank_solutions(scores)
    pd.testing.assert_series_equal(ranks.loc["perfect"], ranks.loc["relabelled"], check_names=False)
    changes = metrics.changes_of_mind(scores)
    pair = {"perfect", "relabelled"}
    assert not any({a, b} == pair for a, b in zip(changes["solution_1"], changes["solution_2"]))


# ---------------------------------------------------------------------- rank_agreement
def scipy_tau(frame, a, b) -> float:
    x, y = frame[a].to_numpy(), frame[b].to_numpy()
    ok = ~(np.isnan(x) | np.isnan(y))
    if ok.sum() < 2:
        return math.nan
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scipy warns on constant input, then returns NaN
        return stats.kendalltau(oriented(a, x[ok]), oriented(b, y[ok]), variant="b").statistic


@given(score_frames())
def test_tau_is_scipys_tau_b_on_oriented_values(frame):
    tau = metrics.rank_agreement(frame)
    keys = list(frame.columns)
    assert list(tau.index) == keys and list(tau.columns) == keys
    for a, b in itertools.product(keys, repeat=2):
        want = scipy_tau(frame, a, b)
        got = tau.loc[a, b]
        if math.isnan(want):
            assert math.isnan(got), (a, b)
            assert (a, b) in tau.attrs["why_undefined"]
        else:
            assert got == pytest.approx(want, rel=1e-12, abs=1e-12), (a, b)
            assert (a, b) not in tau.attrs["why_undefined"]


@given(score_frames(max_solutions=12))
def test_tau_symmetric_with_unit_diagonal(frame):
    tau = metrics.rank_agreement(frame)
    t = tau.to_numpy()
    np.testing.assert_array_equal(t, t.T)
    assert np.all(np.isnan(t) | ((t >= -1) & (t <= 1)))
    for key in frame.columns:
        col = frame[key].dropna()
        separates = col.nunique() >= 2
        if separates:
            assert tau.loc[key, key] == 1.0
        else:
            assert math.isnan(tau.loc[key, key])
            reason = tau.attrs["why_undefined"][(key, key)]
            assert key in reason


def test_undefined_reasons_name_the_cause():
    frame = pd.DataFrame({"ari": [0.5, 0.5, 0.5], "vi": [1.0, 2.0, 3.0], "purity": [0.9, math.nan, math.nan]},
                         index=list("abc"))
    tau = metrics.rank_agreement(frame)
    assert tau.loc["vi", "vi"] == 1.0
    assert math.isnan(tau.loc["ari", "vi"]) and "ari gives every solution the same value" in \
        tau.attrs["why_undefined"][("ari", "vi")]
    assert "ari gives every solution" in tau.attrs["why_undefined"][("vi", "ari")]
    assert "fewer than two solutions" in tau.attrs["why_undefined"][("purity", "vi")]


def test_orientation_a_lower_is_better_measure_reverses_its_values():
    frame = pd.DataFrame({"ari": [0.9, 0.5, 0.1], "vi": [0.1, 0.5, 0.9], "mirkin": [9.0, 5.0, 1.0]},
                         index=list("abc"))
    tau = metrics.rank_agreement(frame)
    assert tau.loc["ari", "vi"] == 1.0  # same preferences, opposite values
    assert tau.loc["ari", "mirkin"] == -1.0  # same values, opposite preferences
    assert metrics.rank_solutions(frame)["vi"].tolist() == [1.0, 2.0, 3.0]


solution_sets = st.integers(2, 30).flatmap(lambda n: st.tuples(
    st.lists(st.integers(0, 3), min_size=n, max_size=n),
    st.lists(st.lists(st.integers(0, 4), min_size=n, max_size=n), min_size=2, max_size=7)))


@given(solution_sets)
def test_a_measure_and_its_mirror_agree_once_oriented(case):
    """rand = 1 − mirkin / n²: opposite values, identical orderings once oriented."""
    gold, labelings = case
    frame = metrics.compare_solutions(gold, {f"s{i}": s for i, s in enumerate(labelings)},
                                      ["rand", "mirkin", "nmi_arithmetic", "vi_n"])
    tau = metrics.rank_agreement(frame)
    if frame["rand"].nunique() > 1:
        assert tau.loc["rand", "mirkin"] == 1.0
        assert metrics.changes_of_mind(frame, ["rand", "mirkin"]).empty
    else:
        assert math.isnan(tau.loc["rand", "mirkin"])
    pd.testing.assert_series_equal(metrics.rank_solutions(frame)["rand"],
                                   metrics.rank_solutions(frame)["mirkin"], check_names=False)


# ---------------------------------------------------------------------- changes_of_mind
def brute_force_changes(frame, keys):
    rows = []
    names = list(frame.index)
    for a, b in itertools.combinations(keys, 2):
        for i, j in itertools.combinations(range(len(names)), 2):
            va_i, va_j, vb_i, vb_j = (frame[a].iloc[i], frame[a].iloc[j], frame[b].iloc[i], frame[b].iloc[j])
            if any(math.isnan(v) for v in (va_i, va_j, vb_i, vb_j)) or tied(va_i, va_j) or tied(vb_i, vb_j):
                continue
            a_prefers_i = (va_i > va_j) == M[a].higher_is_better
            b_prefers_i = (vb_i > vb_j) == M[b].higher_is_better
            if a_prefers_i != b_prefers_i:
                first, second = (i, j) if a_prefers_i else (j, i)
                rows.append((a, b, names[first], names[second], frame[a].iloc[first], frame[a].iloc[second],
                             frame[b].iloc[first], frame[b].iloc[second]))
    return rows


def as_rows(df):
    return [tuple(r) for r in df.astype({c: object for c in sol_mod.CHANGE_COLUMNS[:4]}).itertuples(index=False)]


@given(score_frames())
def test_changes_of_mind_equal_a_brute_force_loop(frame):
    keys = list(frame.columns)
    got = metrics.changes_of_mind(frame)
    assert list(got.columns) == sol_mod.CHANGE_COLUMNS
    assert as_rows(got) == brute_force_changes(frame, keys)  # the frame's own values, copied
    # Each row: measure_a prefers solution_1, measure_b prefers solution_2.
    for r in got.itertuples(index=False):
        assert oriented(r.measure_a, r.value_a_1) > oriented(r.measure_a, r.value_a_2)
        assert oriented(r.measure_b, r.value_b_2) > oriented(r.measure_b, r.value_b_1)
    if len(keys) >= 2:
        a, b = keys[0], keys[1]
        swapped = metrics.changes_of_mind(frame, [b, a])
        assert as_rows(swapped) == brute_force_changes(frame, [b, a])
        assert len(swapped) == len(metrics.changes_of_mind(frame, (a, b)))
        # They are the discordant pairs of τ-b: n_c − n_d over the jointly defined solutions.
        x, y = frame[a].to_numpy(), frame[b].to_numpy()
        ok = ~(np.isnan(x) | np.isnan(y))
        tau = metrics.rank_agreement(frame).loc[a, b]
        if not math.isnan(tau):
            xs, ys = oriented(a, x[ok]), oriented(b, y[ok])
            concordant = sum(1 for i, j in itertools.combinations(range(ok.sum()), 2)
                             if (xs[i] - xs[j]) * (ys[i] - ys[j]) > 0)
            untied_a = sum(1 for i, j in itertools.combinations(range(ok.sum()), 2) if xs[i] != xs[j])
            untied_b = sum(1 for i, j in itertools.combinations(range(ok.sum()), 2) if ys[i] != ys[j])
            assert tau == pytest.approx((concordant - len(swapped)) / math.sqrt(untied_a * untied_b), abs=1e-12)


def test_changes_of_mind_for_a_chosen_pair_in_frame_order():
    gold, sols = sample_solutions(seed=11)
    frame = metrics.compare_solutions(gold, sols)
    got = metrics.changes_of_mind(frame, ("purity", "inverse_purity"))
    assert as_rows(got) == brute_force_changes(frame, ["purity", "inverse_purity"])
    assert len(got) > 0  # purity loves singletons, inverse purity one cluster
    assert ("singletons", "one cluster") in set(zip(got["solution_1"], got["solution_2"]))
    everything = metrics.changes_of_mind(frame)
    assert as_rows(everything) == brute_force_changes(frame, ALL)
    assert metrics.changes_of_mind(frame.iloc[:0]).empty


# ---------------------------------------------------------------------- solution_matrix
SYMMETRIC = [k for k, m in M.items() if m.symmetric]


@pytest.mark.parametrize("key", SYMMETRIC)
def test_matrix_cells_are_the_measure_between_two_solutions(key):
    _, sols = sample_solutions(seed=12, n=60)
    sols = dict(itertools.islice(sols.items(), 6))
    mat = metrics.solution_matrix(sols, key, log_base=2.0)
    names = list(sols)
    assert list(mat.index) == names and list(mat.columns) == names
    v = mat.to_numpy()
    np.testing.assert_array_equal(v, v.T)
    for (r, a), (c, b) in itertools.product(enumerate(names), repeat=2):
        t = metrics.Contingency.from_labels(sols[a], sols[b])
        want = metrics.evaluate(t, [key], log_base=2.0)[key]
        if r <= c:
            assert v[r, c] == want, (a, b)
        else:  # the mirrored cell: the registry's symmetric flag at work
            assert v[r, c] == pytest.approx(want, rel=1e-9, abs=1e-12), (a, b)


@given(st.integers(3, 25).flatmap(
    lambda n: st.lists(st.lists(st.integers(0, 4), min_size=n, max_size=n), min_size=1, max_size=5)),
    st.sampled_from(SYMMETRIC))
def test_matrix_diagonal_is_the_best_of_its_row(labelings, key):
    sols = {f"s{i}": s for i, s in enumerate(labelings)}
    mat = metrics.solution_matrix(sols, key)
    v = oriented(key, mat.to_numpy())
    np.testing.assert_array_equal(mat.to_numpy(), mat.to_numpy().T)
    for r in range(len(sols)):
        assert np.all((v[r] <= v[r, r]) | np.isclose(v[r], v[r, r], rtol=RTOL, atol=1e-12)), (key, r)


def test_matrix_takes_the_same_collections_as_compare_solutions():
    _, sols = sample_solutions(seed=14, n=50)
    want = metrics.solution_matrix(sols, "vi", log_base=2)
    pd.testing.assert_frame_equal(metrics.solution_matrix(pd.DataFrame(sols), "vi", log_base=2), want)
    iters = {k: iter(v.tolist()) for k, v in sols.items()}
    pd.testing.assert_frame_equal(metrics.solution_matrix(iters, "vi", log_base=2), want)
    text = {k: [f"c{x}" for x in v] for k, v in sols.items()}
    np.testing.assert_allclose(metrics.solution_matrix(text, "vi", log_base=2).to_numpy(), want.to_numpy(),
                               rtol=1e-12, atol=1e-15)
    assert np.all(np.diag(want.to_numpy()) == 0.0)


def test_matrix_refuses_non_symmetric_measures_and_names_the_symmetric_ones():
    _, sols = sample_solutions()
    with pytest.raises(ValueError, match="homogeneity is not symmetric") as err:
        metrics.solution_matrix(sols, "homogeneity")
    for key in SYMMETRIC:
        assert key in str(err.value)
    assert "purity," not in str(err.value)
    with pytest.raises(ValueError, match="unknown measure 'nope'"):
        metrics.solution_matrix(sols, "nope")


def test_matrix_cell_beyond_its_budget_is_nan_with_the_reason(monkeypatch):
    _, sols = sample_solutions(seed=13)
    small = {k: sols[k] for k in ("perfect", "singletons", "merged")}
    capped = dataclasses.replace(M["ari"], limit=lambda t: "too many clusters" if t.n_clusters > 10 else None)
    monkeypatch.setitem(M, "ari", capped)
    mat = metrics.solution_matrix(small, "ari")
    assert math.isnan(mat.loc["perfect", "singletons"]) and math.isnan(mat.loc["singletons", "perfect"])
    assert math.isnan(mat.loc["singletons", "singletons"])
    assert mat.attrs["why_not"]["perfect"]["singletons"] == "too many clusters"
    assert mat.attrs["why_not"]["singletons"]["perfect"] == "too many clusters"
    assert mat.loc["perfect", "merged"] == mat.loc["merged", "perfect"] > 0


# ---------------------------------------------------------------------- bad input
GOLD = [0, 0, 1, 1]


@pytest.mark.parametrize("solutions,match", [
    ({}, "no solution given"),
    (pd.DataFrame(index=range(4)), "no solution given"),
    (pd.DataFrame([[0, 1]] * 4, columns=["x", "x"]), r"duplicate solution name\(s\) \['x'\]"),
    ([[0, 1, 0, 1]], "mapping name → labels or a DataFrame"),
    (pd.Series([0, 1, 0, 1]), "mapping name → labels or a DataFrame"),
    ({"a": [0, 1, 0, 1], "b": [0, 1, 0]}, r"solution 'b' has 3 labels but gold has 4"),
    ({"a": [0, 1, 0, 1, 1]}, r"solution 'a' has 5 labels but gold has 4"),
    ({"a": "abcd"}, "solution 'a' must be a 1-D sequence of labels, got str"),
    ({"a": 7}, "solution 'a' must be a 1-D sequence of labels, got int"),
    ({"a": np.zeros((4, 2))}, r"solution 'a' must be 1-D labels, got an array of shape \(4, 2\)"),
    ({"a": pd.DataFrame({"p": [0, 1, 0, 1]})}, "solution 'a' must be one column of labels, got a DataFrame"),
    ({"a": {0, 1, 2, 3}}, "solution 'a' is a set"),
    ({"a": {0: 0, 1: 1, 2: 0, 3: 1}}, "solution 'a' is a dict"),
    # Labels of a solution are checked by Contingency.from_labels, in its words, after the name.
    ({"a": [0, 1, 0, 1], "b": [[0], [1], [0], [1]]}, r"solution 'b': .*1-D"),
    ({"a": [0, None, 1, 1]}, r"solution 'a': .*1 missing label\(s\), first at position 1"),
    ({"a": [0.0, 1.0, np.nan, np.nan]}, r"solution 'a': .*2 missing label"),
    ({"a": np.array([0.0, 1.0, np.inf, 1.0])}, r"solution 'a': .*infinite label"),
    ({"a": [0, "x", -math.inf, 1]}, r"solution 'a': .*infinite label"),
])
def test_bad_solutions(solutions, match):
    with pytest.raises(ValueError, match=match):
        metrics.compare_solutions(GOLD, solutions)


@pytest.mark.parametrize("gold,match", [
    ([0, 1, 0], r"solution 'a' has 4 labels but gold has 3"),
    ([], "gold holds no items"),
    ([0, None, 1, 1], r"gold has 1 missing label"),
    (np.array([0.0, 1.0, np.inf, 1.0]), "gold has an infinite label"),
    (pd.DataFrame({"g": GOLD, "h": GOLD}), "gold must be one column of labels, got a DataFrame with 2 column"),
    (np.zeros((2, 2)), "gold must be 1-D"),
    ("0011", "gold must be a 1-D sequence"),
    ({0, 1}, "gold is a set"),
    ([[0], [0], [1], [1]], "gold must be 1-D: it contains nested sequences"),
    ([0, [1], 0, 1], "gold must be 1-D: it contains nested sequences"),
    ([(0, [1]), 0, 1, 1], "gold has an unhashable label"),
    (np.array([0, 1, -math.inf, 1], dtype=object), "gold has an infinite label"),
])
def test_bad_gold(gold, match):
    with pytest.raises(ValueError, match=match):
        metrics.compare_solutions(gold, {"a": [0, 1, 0, 1]})


@pytest.mark.parametrize("kwargs,match", [
    ({"measures": ["ari", "nope"]}, r"unknown measure key\(s\) \['nope'\]"),
    ({"measures": "nope"}, r"unknown measure key\(s\) \['nope'\]"),
    ({"measures": []}, "no measure chosen"),
    ({"measures": ["ari", "vi", "ari"]}, r"\['ari'\] named more than once"),
    ({"log_base": 1}, "log_base must be a number above 1"),
    ({"beta": 0}, "beta must be a positive"),
])
def test_bad_options(kwargs, match):
    with pytest.raises(ValueError, match=match):
        metrics.compare_solutions(GOLD, {"a": [0, 1, 0, 1]}, **kwargs)


def test_bad_matrix_input():
    with pytest.raises(ValueError, match=r"solution 'b' has 3 labels but solution 'a' has 4"):
        metrics.solution_matrix({"a": [0, 1, 0, 1], "b": [0, 1, 1]}, "ari")
    with pytest.raises(ValueError, match="no solution given"):
        metrics.solution_matrix({}, "ari")
    with pytest.raises(ValueError, match="duplicate solution name"):
        metrics.solution_matrix(pd.DataFrame([[0, 1]] * 3, columns=["x", "x"]), "ari")
    with pytest.raises(ValueError, match="solution 'b' has 1 missing label"):
        metrics.solution_matrix({"a": [0, 1, 0], "b": [0, None, 1]}, "ari")
    with pytest.raises(ValueError, match="log_base"):
        metrics.solution_matrix({"a": [0, 1, 0]}, "vi", log_base=0.5)


@pytest.mark.parametrize("func", [metrics.rank_agreement, metrics.rank_solutions, metrics.changes_of_mind])
def test_bad_frames(func):
    with pytest.raises(ValueError, match="expected the DataFrame of compare_solutions"):
        func({"ari": [0.1, 0.2]})
    with pytest.raises(ValueError, match=r"column\(s\) \['score'\] are not measure keys"):
        func(pd.DataFrame({"ari": [0.1, 0.2], "score": [1, 2]}))
    with pytest.raises(ValueError, match=r"measure column\(s\) \['ari'\] appear more than once"):
        func(pd.DataFrame([[0.1, 0.2]], columns=["ari", "ari"]))
    with pytest.raises(ValueError, match="values must be numbers"):
        func(pd.DataFrame({"ari": ["high", "low"]}))
    with pytest.raises(ValueError, match=r"solution name\(s\) \['a'\] appear more than once"):
        func(pd.DataFrame({"ari": [0.1, 0.2, 0.3], "vi": [1.0, 2.0, 3.0]}, index=["a", "b", "a"]))


def test_bad_measure_choice_for_changes_of_mind():
    frame = pd.DataFrame({"ari": [0.1, 0.2], "vi": [1.0, 0.5]})
    with pytest.raises(ValueError, match="at least two measures"):
        metrics.changes_of_mind(frame, "ari")
    with pytest.raises(ValueError, match=r"\['nmi_max'\] are not columns of the frame"):
        metrics.changes_of_mind(frame, ["ari", "nmi_max"])
    with pytest.raises(ValueError, match="more than once"):
        metrics.changes_of_mind(frame, ["ari", "ari"])


def test_single_solution_has_no_ordering():
    frame = metrics.compare_solutions(GOLD, {"only": [0, 1, 0, 1]}, ["ari", "vi"])
    tau = metrics.rank_agreement(frame)
    assert tau.isna().all().all()
    assert "fewer than two solutions" in tau.attrs["why_undefined"][("ari", "vi")]
    assert metrics.rank_solutions(frame).loc["only"].tolist() == [1.0, 1.0]
    assert metrics.changes_of_mind(frame).empty
