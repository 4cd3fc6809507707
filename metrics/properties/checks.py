"""Wu et al.'s mathematical properties ([Wu09] §5.2, Table 12: symmetry, n-invariance, convex
additivity, left- and right-domain completeness) and, for distances, the metric axioms, each
checked on random tables with its evidence.

[Wu09] Wu, Xiong & Chen (2009), Adapting the right measures for K-means clustering. KDD, §5.2.
[Mei07] Meilă (2007), Comparing clusterings — an information based distance. J. Multivariate Anal. 98.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from ..core.batch import evaluate_batch
from ..core.limits import DEFAULT_BUDGET, check_budget
from ..core.registry import MEASURES, resolve

# Seconds of one core per unit of work, fitted to benchmarks/bench_cost_model.py's timings of the
# paper's grid (31,360 settings) and of check_many, with 2 and with every measure.


_TRIAL = 1e-4                 # each trial of the checks (its random tables and labelings)
_TRIAL_MEASURE = 1.5e-5       # … for each measure
_CHECKS = 0.1                 # the checks' fixed part


def checks_seconds(measures: int, trials: int) -> float:
    """Estimated seconds of one core of :func:`check_many` for ``measures`` measures (a count)
    and ``trials`` trials."""
    return _CHECKS + trials * (_TRIAL + _TRIAL_MEASURE * measures)


def _check_trials(trials, keys, budget) -> int:
    if isinstance(trials, bool) or not isinstance(trials, (int, np.integer)) or trials < 1:
        raise ValueError(f"trials must be a whole number of at least 1, got {trials!r}")
    check_budget(f"property checks of {len(keys)} measure(s) with {int(trials):,} trials",
                 checks_seconds(len(keys), int(trials)), budget, "fewer trials")
    return int(trials)


_TOL = 1e-9


def _close(a: ArrayLike, b: ArrayLike) -> np.ndarray:
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        same_inf = np.isinf(a) & np.isinf(b) & (np.sign(a) == np.sign(b))
        # Both finite: an infinite value is close to nothing but the same infinity (|∞ − x| ≤ tol·(1 + ∞)
        # would hold for every finite x).
        near = np.isfinite(a) & np.isfinite(b) & (np.abs(a - b) <= _TOL * (1.0 + np.maximum(np.abs(a), np.abs(b))))
        return same_inf | near


def _values(tables, keys: tuple[str, ...]) -> pd.DataFrame:
    """Measures of small tables: a (B, R, C) array or a list (padded into one batch)."""
    return evaluate_batch(tables, list(keys))


def _random_tables(rng: np.random.Generator, count: int, max_side: int = 5, max_cell: int = 9) -> np.ndarray:
    """``count`` random integer tables of 1–``max_side`` rows and columns (about 30 % zero
    cells, at least 2 items each), as one zero-padded (count, max_side, max_side) array."""
    shape = rng.integers(1, max_side + 1, size=(count, 2))
    inside = ((np.arange(max_side)[None, :, None] < shape[:, 0, None, None])
              & (np.arange(max_side)[None, None, :] < shape[:, 1, None, None]))
    size = (count, max_side, max_side)
    t = rng.integers(0, max_cell + 1, size=size) * (rng.random(size) < 0.7)
    t = t * inside
    small = t.sum(axis=(1, 2)) < 2
    t[small, 0, 0] += 2                     # every table holds at least two items
    return t.astype(np.int64)


def _trim(t: np.ndarray) -> np.ndarray:
    """A padded table without its empty rows and columns."""
    return t[t.sum(axis=1) > 0][:, t.sum(axis=0) > 0]


def _frame(t: np.ndarray) -> pd.DataFrame:
    t = _trim(np.asarray(t))
    return pd.DataFrame(t, index=[f"C{i + 1}" for i in range(t.shape[0])],
                        columns=[f"K{j + 1}" for j in range(t.shape[1])])


def _symmetry(keys, rng, trials):
    tables = _random_tables(rng, trials)
    a = _values(tables, keys)
    b = _values(tables.transpose(0, 2, 1), keys)
    out = {}
    for k in keys:
        ok = _close(a[k].to_numpy(), b[k].to_numpy())
        ev = None
        if not ok.all():
            i = int(np.argmax(np.abs(np.nan_to_num(a[k].to_numpy() - b[k].to_numpy(), nan=np.inf))))
            ev = {"table": _frame(tables[i]), "value": float(a[k][i]), "value_transposed": float(b[k][i])}
        out[k] = {"holds": bool(ok.all()), "registry": MEASURES[k].symmetric, "checked": len(tables), "evidence": ev}
    return out


def _n_invariance(keys, rng, trials):
    tables = _random_tables(rng, trials)
    factors = rng.choice([2, 3, 10], size=len(tables))
    a = _values(tables, keys)
    b = _values(tables * factors[:, None, None], keys)
    out = {}
    for k in keys:
        ok = _close(a[k].to_numpy(), b[k].to_numpy())
        ev = None
        if not ok.all():
            i = int(np.flatnonzero(~ok)[0])
            ev = {"table": _frame(tables[i]), "factor": int(factors[i]), "value": float(a[k][i]),
                  "value_scaled": float(b[k][i])}
        out[k] = {"holds": bool(ok.all()), "registry": MEASURES[k].n_invariant, "checked": len(tables),
                  "evidence": ev}
    return out


def _refinements(rng, trials):
    """Coarse partitions P (blocks) with refinements P': (table M(P, P'), block tables)."""
    cases = []
    for _ in range(trials):
        blocks = int(rng.integers(1, 5))
        parts = [rng.integers(1, 8, size=int(rng.integers(1, 5))) for _ in range(blocks)]
        width = sum(p.size for p in parts)
        table = np.zeros((blocks, width), dtype=np.int64)
        col = 0
        for block, p in enumerate(parts):
            table[block, col:col + p.size] = p
            col += p.size
        if table.sum() >= 2:
            cases.append((table, [p[None, :] for p in parts]))
    return cases


def _convex_additivity(keys, rng, trials):
    """[Wu09] Property 3 (Meilă's convex additivity): for a refinement P' of P,
    O(M(P, P')) = Σ_l (n_l/n) O(M(I_{P_l}, P'_l)). Checked with the coarse partition
    as the classes (rows) and, transposed, as the clusters."""
    cases = _refinements(rng, trials)
    out = {}
    results = {}
    for orient, tr in (("classes_coarse", False), ("clusters_coarse", True)):
        whole = [c[0].T if tr else c[0] for c in cases]
        blocks = [b.T if tr else b for c in cases for b in c[1]]
        owner = np.repeat(np.arange(len(cases)), [len(c[1]) for c in cases])
        weight = np.array([b.sum() for c in cases for b in c[1]], dtype=np.float64)
        weight /= np.array([c[0].sum() for c in cases], dtype=np.float64)[owner]
        vw = _values(whole, keys)
        vb = _values(blocks, keys)
        results[orient] = (whole, vw, vb, owner, weight)
    for k in keys:
        orientations: dict[str, bool] = {}
        entry: dict[str, Any] = {"holds": True, "checked": len(cases), "orientations": orientations,
                                 "evidence": None}
        for orient, (whole, vw, vb, owner, weight) in results.items():
            combined = np.bincount(owner, weights=vb[k].to_numpy() * weight, minlength=len(whole))
            with np.errstate(invalid="ignore"):
                ok = _close(vw[k].to_numpy(), combined)
            orientations[orient] = bool(ok.all())
            if not ok.all() and entry["evidence"] is None:
                i = int(np.flatnonzero(~ok)[0])
                entry["evidence"] = {"orientation": orient, "table": _frame(whole[i]), "value": float(vw[k][i]),
                                     "weighted_sum_of_blocks": float(combined[i])}
        entry["holds"] = all(orientations.values())
        out[k] = entry
    return out


def _domain(keys, rng, trials, kind: str):
    """Left (independent rows and columns) or right (perfect match) domain completeness:
    the poorest (0 for higher-is-better, 1 for lower) or best (1, resp. 0) value."""
    tables = []
    for _ in range(trials):
        if kind == "left":
            u = rng.integers(1, 6, size=int(rng.integers(2, 6)))
            v = rng.integers(1, 6, size=int(rng.integers(2, 6)))
            tables.append(np.outer(u, v))              # n_ij = a_i b_j / n exactly
        else:
            k = int(rng.integers(2, 7))
            t = np.diag(rng.integers(1, 10, size=k))
            tables.append(t[:, rng.permutation(k)])
    vals = _values(tables, keys)
    out = {}
    for k in keys:
        higher = MEASURES[k].direction == "higher"
        target = (0.0 if higher else 1.0) if kind == "left" else (1.0 if higher else 0.0)
        v = vals[k].to_numpy()
        ok = _close(v, np.full_like(v, target))
        ev = None
        if not ok.all():
            i = int(np.argmax(np.abs(np.nan_to_num(v - target, nan=np.inf))))
            ev = {"table": _frame(tables[i]), "value": float(v[i]), "target": target}
        out[k] = {"holds": bool(ok.all()), "target": target, "checked": len(tables),
                  "range": (float(np.nanmin(v)), float(np.nanmax(v))), "evidence": ev}
    return out


def _table_of(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    t = np.zeros((int(x.max()) + 1, int(y.max()) + 1), dtype=np.int64)
    np.add.at(t, (x, y), 1)
    return t[t.sum(axis=1) > 0][:, t.sum(axis=0) > 0]


def _metric_axioms(keys, rng, trials):
    """Identity, symmetry and the triangle inequality on random triples of labelings."""
    keys = tuple(k for k in keys if MEASURES[k].direction == "lower")
    out: dict[str, dict[str, Any]] = {}
    if not keys:
        return out
    # Triples of labelings of 3–10 items with 1–4 labels, built as padded 4×4 tables.
    max_items, max_labels = 10, 4
    n_items = rng.integers(3, max_items + 1, size=trials)
    n_labels = rng.integers(1, max_labels + 1, size=(trials, 3))
    labels = (rng.random((trials, 3, max_items)) * n_labels[:, :, None]).astype(np.int64)
    present = np.arange(max_items)[None, :] < n_items[:, None]
    triples = [[labels[t, i, :n_items[t]] for i in range(3)] for t in range(trials)]
    pairs = list(itertools.permutations(range(3), 2)) + [(0, 0), (1, 1), (2, 2)]
    cells = max_labels * max_labels
    tables = np.zeros((trials, len(pairs), cells))
    for p, (i, j) in enumerate(pairs):
        code = np.arange(trials)[:, None] * cells + labels[:, i] * max_labels + labels[:, j]
        tables[:, p] = np.bincount(code[present], minlength=trials * cells).reshape(trials, cells)
    vals = _values(tables.reshape(trials * len(pairs), max_labels, max_labels), keys)
    for k in keys:
        v = vals[k].to_numpy().reshape(len(triples), len(pairs))
        d = {p: v[:, idx] for idx, p in enumerate(pairs)}
        identity = np.all([_close(d[(i, i)], 0.0) for i in range(3)], axis=0)
        symmetric = np.all([_close(d[(i, j)], d[(j, i)]) for i, j in pairs if i < j], axis=0)
        tri_ok = np.ones(len(triples), bool)
        worst = None
        for x, y, z in itertools.permutations(range(3)):
            lhs, rhs = d[(x, z)], d[(x, y)] + d[(y, z)]
            with np.errstate(invalid="ignore"):
                ok = lhs <= rhs + _TOL * (1.0 + np.abs(rhs))
            if worst is None and not ok.all():
                i = int(np.flatnonzero(~ok)[0])
                lab = {"X": triples[i][x].tolist(), "Y": triples[i][y].tolist(), "Z": triples[i][z].tolist()}
                worst = {"labelings": lab, "d(X,Y)": float(d[(x, y)][i]), "d(Y,Z)": float(d[(y, z)][i]),
                         "d(X,Z)": float(d[(x, z)][i]),
                         "tables": {"(X,Y)": _frame(_table_of(triples[i][x], triples[i][y])),
                                    "(Y,Z)": _frame(_table_of(triples[i][y], triples[i][z])),
                                    "(X,Z)": _frame(_table_of(triples[i][x], triples[i][z]))}}
            tri_ok &= ok
        entry: dict[str, Any] = {}
        ev = None
        if not identity.all():
            i = int(np.flatnonzero(~identity)[0])
            x = next(a for a in range(3) if not _close(d[(a, a)][i], 0.0))
            ev = {"labelings": {"X": triples[i][x].tolist()}, "d(X,X)": float(d[(x, x)][i]),
                  "table": _frame(_table_of(triples[i][x], triples[i][x]))}
        entry["identity"] = {"holds": bool(identity.all()), "evidence": ev}
        ev = None
        if not symmetric.all():
            i = int(np.flatnonzero(~symmetric)[0])
            x, y = next((a, b) for a, b in pairs if a < b and not _close(d[(a, b)][i], d[(b, a)][i]))
            ev = {"labelings": {"X": triples[i][x].tolist(), "Y": triples[i][y].tolist()},
                  "d(X,Y)": float(d[(x, y)][i]), "d(Y,X)": float(d[(y, x)][i]),
                  "table": _frame(_table_of(triples[i][x], triples[i][y]))}
        entry["symmetry"] = {"holds": bool(symmetric.all()), "evidence": ev}
        entry["triangle"] = {"holds": bool(tri_ok.all()), "evidence": worst}
        entry["holds"] = all(e["holds"] for e in entry.values())
        entry["checked"] = len(triples)
        out[k] = entry
    return out


def _checks(keys: tuple[str, ...], seed: int, trials: int) -> dict[str, dict]:
    rng = np.random.default_rng(seed)
    parts = {
        "symmetry": _symmetry(keys, rng, trials),
        "n_invariance": _n_invariance(keys, rng, trials),
        "convex_additivity": _convex_additivity(keys, rng, trials),
        "left_domain_complete": _domain(keys, rng, trials, "left"),
        "right_domain_complete": _domain(keys, rng, trials, "right"),
    }
    metric = _metric_axioms(keys, rng, 4 * trials)
    return {k: {"measure": k, **{name: part[k] for name, part in parts.items()}, "metric": metric.get(k)}
            for k in keys}


def check_properties(measure_key: str, *, seed: int = 0, trials: int = 200, budget=DEFAULT_BUDGET) -> dict:
    """Wu et al.'s Table 12 properties and the metric axioms, checked numerically.

    Each entry holds ``holds`` (bool), ``checked`` (cases tried) and ``evidence``
    (None, or a counterexample: its table as a DataFrame and the values that
    disagree). All cases are seeded (``seed``), so the result is reproducible.

    * ``symmetry`` — O(Mᵀ) = O(M) on random integer tables of up to 5 × 5, square
      or not ([Wu09] Property 1); ``registry`` repeats the registry's flag.
    * ``n_invariance`` — O(λM) = O(M) for λ ∈ {2, 3, 10} (Property 2).
    * ``convex_additivity`` — for a random partition P and a refinement P',
      O(M(P, P')) = Σ_l (n_l/n) O(M(I_{P_l}, P'_l)) (Property 3, Meilă 2007), with P
      as the classes and, transposed, as the clusters (``orientations``); it
      holds when both do.
    * ``left_domain_complete`` — on tables with exactly independent rows and
      columns (integer outer products u vᵀ) the value is 0 for a higher-is-better
      measure and 1 for a lower-is-better one (Property 4); ``range`` gives the
      values seen.
    * ``right_domain_complete`` — on perfectly matched tables (permuted diagonals)
      the value is 1, resp. 0 (Property 5).
    * ``metric`` — for distances (registry direction ``"lower"``) only, else None:
      identity d(X, X) = 0, symmetry and the triangle inequality
      d(X, Z) ≤ d(X, Y) + d(Y, Z), over every ordering of random triples of
      labelings of 3–10 items with 1–4 labels (small sets make violations likely).

    Against Wu et al.'s Table 12 (the comparison is in the tests; the table is
    ``assets/paper_values/wu2009_table12.json``) every cell agrees but one:

    * ε_n is symmetric for every table, not only for K = K' (Table 12's Yes**): ε
      (the best one-to-one matching) does not care which side is which, and its
      normaliser 1 − 1/max(K, K') is symmetric too. (Wu's Lemma 7 assumes K' ≤ K,
      which may be where the restriction came from.)
    * Agreeing: F_n is not symmetric; R_n, FM_n and Γ_n are not n-invariant (pair
      counts C(λx, 2) do not scale with λ), the other four are; the unnormalized F,
      VI, VD and ε are convex additive and none of the normalized ones is; only VI_n
      and VD_n are exactly left-domain complete (R_n, FM_n and Γ_n are negative on
      small independent tables — down to about −0.4 — and tend to 0 only as n
      grows; F_n and ε_n vary with the margins); all seven are right-domain complete.
    * Beyond Table 12: homogeneity, completeness, V, MI and the NMIs are also
      left-domain complete (0 on independent tables); VI, Mirkin, van Dongen,
      classification error and VI/log n (at fixed n) satisfy the metric axioms,
      while VI_n (= 1 − NMI_arithmetic, not a metric: Vinh, Epps & Bailey 2010),
      ε_n, VD_n and J'_n violate the triangle inequality; Rand, Jaccard,
      Fowlkes–Mallows, Minkowski, Q0 and Q2 are not n-invariant.
    """
    if measure_key not in MEASURES:
        raise KeyError(f"unknown measure key {measure_key!r}; known keys: {', '.join(MEASURES)}")
    return _checks((measure_key,), int(seed), _check_trials(trials, (measure_key,), budget))[measure_key]


def check_many(measures=None, *, seed: int = 0, trials: int = 200, budget=DEFAULT_BUDGET) -> dict[str, dict]:
    """:func:`check_properties` of many measures (None: every one) at once, as
    ``{key: entry}``. The seeded cases do not depend on which measures are checked, so
    each entry equals ``check_properties(key, seed=seed, trials=trials)``; drawing them
    once and evaluating every measure on them in one batch costs far less than checking
    the measures one by one. More trials than fit ``budget`` seconds of one core (default 30;
    None: no limit; :func:`checks_seconds`) are refused with a ``limits.CostError``."""
    keys = tuple(m.key for m in resolve(measures))
    return _checks(keys, int(seed), _check_trials(trials, keys, budget))


def properties_frame(checks: dict[str, dict]) -> pd.DataFrame:
    """:func:`check_many`'s result as a tidy table (see :func:`properties_table`)."""
    rows = []
    for k, c in checks.items():
        for prop in ("symmetry", "n_invariance", "convex_additivity", "left_domain_complete",
                     "right_domain_complete"):
            rows.append({"measure": k, "property": prop, "holds": c[prop]["holds"]})
        m = c["metric"]
        for prop in ("identity", "symmetry", "triangle"):
            rows.append({"measure": k, "property": f"metric_{prop}", "holds": None if m is None else m[prop]["holds"]})
    return pd.DataFrame(rows, columns=["measure", "property", "holds"])


def properties_table(measures=None, *, seed: int = 0, trials: int = 200, budget=DEFAULT_BUDGET) -> pd.DataFrame:
    """:func:`check_properties` for many measures at once, as a tidy table:
    ``measure``, ``property`` and ``holds`` (None where a property does not apply:
    the metric axioms of higher-is-better measures)."""
    return properties_frame(check_many(measures, seed=seed, trials=trials, budget=budget))
