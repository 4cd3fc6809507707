"""Constant and asymptotic constant baselines for :func:`metrics.properties.gosgens_properties`:
exact expectations under the permutation model by enumerating every table of every non-trivial
pair of margins of a few items, and the limits along four margin regimes as n grows.
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np

from ..core.contingency import Contingency
from ..core.registry import MEASURES
from .gosgens_search import N_BASELINE, Verdict, _values, integer_partitions, pad


def _tables_with_margins(a: tuple[int, ...], b: tuple[int, ...]):
    """Every table with row sums a and column sums b, with its probability under perm:
    Π a_i! Π b_j! / (n! Π n_ij!)."""
    rows: list[list[int]] = []

    def fill(i, cols_left):
        if i == len(a) - 1:
            yield rows + [list(cols_left)]
            return
        yield from comps(i, 0, a[i], cols_left, [])

    def comps(i, j, left, cols_left, row):
        if j == len(b) - 1:
            if left <= cols_left[j]:
                r = row + [left]
                rows.append(r)
                yield from fill(i + 1, [c - x for c, x in zip(cols_left, r)])
                rows.pop()
            return
        for x in range(min(left, cols_left[j]) + 1):
            yield from comps(i, j + 1, left - x, cols_left, row + [x])

    n = sum(a)
    log_const = sum(math.lgamma(x + 1) for x in a) + sum(math.lgamma(x + 1) for x in b) - math.lgamma(n + 1)
    for t in fill(0, b):
        t = np.array(t, dtype=np.int64)
        yield t, math.exp(log_const - sum(math.lgamma(x + 1) for x in t.ravel()))


@cache
def _baseline_tables(n_max: int):
    margins, tables, probs, owner = [], [], [], []
    for n in range(3, n_max + 1):
        for ka in range(2, n):
            for a in integer_partitions(n, ka):
                for kb in range(2, n):
                    for b in integer_partitions(n, kb):
                        margins.append((a, b))
                        for t, p in _tables_with_margins(a, b):
                            tables.append(t)
                            probs.append(p)
                            owner.append(len(margins) - 1)
    return margins, pad(tables, n_max), np.array(probs), np.array(owner)


CONSTANT_BASELINE_PROOFS = {
    # affine in m = Σ C(n_ij, 2) once m1, m2, M are fixed (perm fixes them), E[m] = m1 m2 / M
    "ari": "affine in m given the margins; E[m] = m1·m2/M gives E[ARI] = 0 (Hubert & Arabie 1985)",
    "r_n": "= ARI",
    "hubert_gamma": "affine in m given the margins; the numerator M·m − m1·m2 has expectation 0",
    "gamma_n": "= Γ",
    "pair_correlation": "= Γ (Gösgens et al. 2021: CC has a constant baseline, 0)",
    "fm_n": "affine in m given the margins; E = 0 by construction (Wu et al. 2009 Table 5)",
    "afm": "= FM_n: E = 0 by construction (Hubert & Arabie 1985 eq. 4)",
    "j_prime_n": "= 1 − ARI: E = 1",
    "ms_prime_n": "= 1 − ARI: E = 1",
    "sokal_sneath": "each of its four ratios is affine in m given the margins; at E[m] = m1 m2/M they are "
                    "m2/M, m1/M, (M − m1)/M, (M − m2)/M, which sum to 2: E = ½ (Gösgens et al. 2021)",
    "ami": "(I − E[I])/(f(H(C), H(K)) − E[I]) with a normaliser fixed by the margins: E = 0 (Vinh et al. 2010)",
    "ami_min": "as AMI: E = 0", "ami_geometric": "as AMI: E = 0", "ami_max": "as AMI: E = 0",
}


def constant_baseline_checks(keys: tuple[str, ...], n_max: int = N_BASELINE) -> dict[str, Verdict]:
    margins, tables, probs, owner = _baseline_tables(n_max)
    uniq, inverse = np.unique(tables.reshape(len(tables), -1), axis=0, return_inverse=True)
    values = _values(uniq.reshape(-1, n_max, n_max), list(keys))
    out = {}
    for key in keys:
        v = values[key].to_numpy()[inverse.ravel()]
        expectation = np.bincount(owner, weights=v * probs, minlength=len(margins))
        lo, hi = int(np.argmin(expectation)), int(np.argmax(expectation))
        spread = expectation[hi] - expectation[lo]
        if np.isfinite(spread) and spread <= 1e-9 * (1 + abs(expectation[hi])):
            if key in CONSTANT_BASELINE_PROOFS:
                out[key] = Verdict(True, "proof", CONSTANT_BASELINE_PROOFS[key] +
                                   f" (exact check: E = {expectation[0]:.12g} for all {len(margins)} margin pairs, "
                                   f"n ≤ {n_max})", {"c": float(expectation[0])})
            else:
                out[key] = Verdict(True, "no_counterexample",
                                   f"E = {expectation[0]:.12g} for all {len(margins)} non-trivial margin pairs of "
                                   f"n ≤ {n_max} items (exact)", {"c": float(expectation[0])})
            continue
        out[key] = Verdict(False, "counterexample",
                           f"E[v] = {expectation[lo]:.6g} for classes {margins[lo][0]} and clusters of sizes "
                           f"{margins[lo][1]}, but {expectation[hi]:.6g} for {margins[hi][0]} and {margins[hi][1]} "
                           "(exact, by enumerating every table with those margins)",
                           {"margins": [margins[lo], margins[hi]],
                            "expected": [float(expectation[lo]), float(expectation[hi])]})
    return out


# ============================================================================ asymptotic constant baseline

#: Margin regimes as n grows: two with blocks of linear size (the table tends to independence,
#: n_ij ≈ a_i b_j / n) and two with many small blocks (the table does not).
REGIMES = {
    "halves × halves": ((0.5, 0.5), (0.5, 0.5)),
    "(0.8, 0.2) × thirds": ((0.8, 0.2), (1 / 3, 1 / 3, 1 / 3)),
}
SMALL_BLOCK_N = 400


def _independence_value(key: str, alpha, beta, scale: float) -> float | None:
    t = Contingency.from_table(scale * np.outer(alpha, beta))
    m = MEASURES[key]
    if not m.applies_to(t):
        return None
    return m(t)


def asymptotic_checks(keys: tuple[str, ...], baseline: dict[str, Verdict], samples: int = 150,
                      seed: int = 0) -> dict[str, Verdict]:
    """Limits along four margin regimes (two tending to independence, two with small blocks) for the
    measures without a proved constant baseline; different limits give a counterexample. The
    small-block expectations are exact where :mod:`metrics.chance` has a closed form, else a seeded
    Monte Carlo mean of ``samples`` draws with its standard error."""
    from ..chance import profile
    from ..chance.sweep import _table_with_margins

    # small-block regimes at n = SMALL_BLOCK_N: √n blocks of √n, and blocks of 2, on both sides
    n = SMALL_BLOCK_N
    root = round(math.sqrt(n))
    small = {f"{root} blocks of {root} × the same": (np.full(root, root), np.full(root, root)),
             "blocks of 2 × blocks of 2": (np.full(n // 2, 2), np.full(n // 2, 2))}
    profiles = {}
    todo = [k for k in keys if not baseline[k].holds]
    for name, (a, b) in small.items():
        t = _table_with_margins(a, b)
        usable = [k for k in todo if MEASURES[k].applies_to(t)]
        if usable:  # every measure asked for may have a proved constant baseline: nothing to draw
            profiles[name] = profile(t, usable, "perm", samples=samples, seed=seed, budget=None)
    out = {}
    for key in keys:
        if baseline[key].holds and baseline[key].kind == "proof":
            out[key] = Verdict(True, "proof", "a constant baseline (proved) is also an asymptotic one", None)
            continue
        points = {}
        for name, (alpha, beta) in REGIMES.items():
            v6 = _independence_value(key, alpha, beta, 1e6)
            v7 = _independence_value(key, alpha, beta, 1e7)
            if v6 is None or v7 is None:
                continue
            if not math.isfinite(v7) or abs(v7) > 5 * abs(v6) + 1:
                out[key] = Verdict(False, "counterexample",
                                   f"no finite limit: at independence with margins {name}, the value is "
                                   f"{v6:.6g} at n = 10^6 and {v7:.6g} at n = 10^7",
                                   {"regime": name, "values": [v6, v7]})
                break
            settled = abs(v7 - v6) <= 1e-3 * (1 + abs(v7))
            label = f"{name} (n → ∞, independence{'' if settled else '; still moving at 10^7'})"
            points[label] = (v7, 0.0 if settled else 3 * abs(v7 - v6))
        if key in out:
            continue
        for name, prof in profiles.items():
            if key in prof.index:
                row = prof.loc[key]
                points[f"{name} (n = {n}, E under perm{'' if row['exact'] else ', Monte Carlo'})"] = (
                    float(row["expected"]), float(row["stderr"]) if not row["exact"] else 0.0)
        names = list(points)
        vals = np.array([points[k][0] for k in names])
        errs = np.array([points[k][1] for k in names])
        lo, hi = int(np.argmin(vals)), int(np.argmax(vals))
        gap = vals[hi] - vals[lo]
        if not np.isfinite(gap):
            gap = np.inf
        if gap > 0.05 + 4 * (errs[hi] + errs[lo]):
            out[key] = Verdict(False, "counterexample",
                               f"limits differ across margin regimes: {vals[lo]:.4g} under {names[lo]} but "
                               f"{vals[hi]:.4g} under {names[hi]}", {"points": points})
        else:
            out[key] = Verdict(True, "no_counterexample",
                               f"the same value (within {gap:.2g}) under {len(names)} margin regimes",
                               {"points": points})
    return out
