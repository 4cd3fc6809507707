"""The exhaustive searches behind :func:`metrics.properties.gosgens_properties`: every pair of
partitions of a few items, every triple for the triangle inequality, every perfect split and merge,
every quadruple of pair counts — each verdict kept with its evidence (:class:`Verdict`).

Orientation: A = the gold classes (rows), B = the clustering (columns). A measure's value v is read as
an agreement g = v (higher is better) or g = −v (lower is better).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from functools import cache

import numpy as np
import pandas as pd

from ..core.batch import evaluate_batch
from ..core.registry import MEASURES

#: Exhaustive searches: every pair of partitions of n ≤ N_TABLES items (up to relabelling), the
#: triangle inequality over every triple of partitions of N_TRIANGLE items, exact perm expectations
#: for every non-trivial pair of margins with n ≤ N_BASELINE (:mod:`.gosgens_baseline`). Larger
#: settings (6 and 8) gave the same verdicts, in three times the time.
N_TABLES = 7
N_TRIANGLE = 5
N_BASELINE = 7
TOL = 1e-10


@dataclass(frozen=True)
class Verdict:
    """One measure's verdict on one property, with its evidence.

    ``holds``: True, False, or None (not applicable). ``kind``: ``"proof"`` (a reference or a
    written argument), ``"counterexample"`` (found by search and kept in ``example``: tables,
    labelings, margins or pair counts, with the values they give), ``"no_counterexample"`` (the
    search named in ``detail`` found none — not a proof) or ``"not_applicable"``."""

    holds: bool | None
    kind: str
    detail: str
    example: dict | None = field(default=None, repr=False, compare=False)

    @property
    def state(self) -> str:
        """The verdict in words: "yes (proved)", "yes? (no counterexample)", "no (counterexample)", "n/a"."""
        if self.holds is None:
            return "n/a"
        if self.kind == "proof":
            return "yes (proved)"
        if self.kind == "no_counterexample":
            return "yes? (no counterexample)"
        return "no (counterexample)"


# ============================================================================ enumeration


@cache
def set_partitions(n: int) -> np.ndarray:
    """All set partitions of n items as restricted growth strings, (Bell(n), n)."""
    out: list[list[int]] = []

    def rec(prefix: list[int], top: int) -> None:
        if len(prefix) == n:
            out.append(prefix.copy())
            return
        for v in range(top + 2):
            prefix.append(v)
            rec(prefix, max(top, v))
            prefix.pop()

    if n == 0:
        return np.zeros((1, 0), dtype=np.int64)
    rec([0], 0)
    return np.array(out, dtype=np.int64)


def integer_partitions(n: int, parts: int | None = None):
    """Integer partitions of n (non-increasing tuples), optionally with a given number of parts."""
    def rec(rest, largest, acc):
        if rest == 0:
            yield tuple(acc)
            return
        for v in range(min(rest, largest), 0, -1):
            yield from rec(rest - v, v, acc + [v])
    for p in rec(n, n, []):
        if parts is None or len(p) == parts:
            yield p


def _tables_of(x: np.ndarray, ys: np.ndarray, side: int) -> np.ndarray:
    """Tables of labeling x against each labeling of ys, (len(ys), side, side)."""
    count = ys.shape[0]
    code = np.arange(count)[:, None] * side * side + x[None, :] * side + ys
    return np.bincount(code.ravel(), minlength=count * side * side).reshape(count, side, side)


def canonical(t: np.ndarray) -> np.ndarray:
    """A table isomorphic to t (rows and columns reordered, empty ones dropped), the same for most
    isomorphic tables: enough to share evaluations (every measure ignores the order)."""
    t = t[t.sum(axis=1) > 0][:, t.sum(axis=0) > 0]
    for _ in range(4):
        t = t[np.lexsort(t.T[::-1])[::-1]]
        t = t[:, np.lexsort(t[::-1])[::-1]]
    return t


@cache
def all_tables(n: int) -> tuple[np.ndarray, ...]:
    """Every table of two partitions of n items, up to relabelling (and mostly up to isomorphism):
    the classes run over the integer partitions of n, the clusters over all set partitions."""
    ys = set_partitions(n)
    seen: dict[tuple, np.ndarray] = {}
    for sizes in integer_partitions(n):
        x = np.repeat(np.arange(len(sizes)), sizes)
        for t in _tables_of(x, ys, n):
            c = canonical(t)
            seen.setdefault((c.shape, c.tobytes()), c)
    return tuple(seen.values())


def pad(tables, side: int | None = None) -> np.ndarray:
    side = side or max(max(t.shape) for t in tables)
    out = np.zeros((len(tables), side, side))
    for i, t in enumerate(tables):
        out[i, : t.shape[0], : t.shape[1]] = t
    return out


def _frame(t) -> pd.DataFrame:
    t = np.asarray(t)
    t = t[t.sum(axis=1) > 0][:, t.sum(axis=0) > 0].astype(int)
    return pd.DataFrame(t, index=[f"C{i + 1}" for i in range(t.shape[0])],
                        columns=[f"K{j + 1}" for j in range(t.shape[1])])


def _values(tables: np.ndarray, keys: list[str]) -> pd.DataFrame:
    return evaluate_batch(tables, keys)


def _oriented(key: str, v):
    return np.asarray(v, dtype=np.float64) * (1.0 if MEASURES[key].higher_is_better else -1.0)


def _close(a, b):
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        same_inf = np.isinf(a) & np.isinf(b) & (np.sign(a) == np.sign(b))
        # both finite: an infinite value is close to nothing but the same infinity
        # (|∞ − x| ≤ TOL·(1 + ∞) would hold for every x)
        near = np.isfinite(a) & np.isfinite(b) & (np.abs(a - b) <= TOL * (1.0 + np.maximum(np.abs(a), np.abs(b))))
        return same_inf | near


# ============================================================================ the exhaustive set


@cache
def _exhaustive(keys: tuple[str, ...], n_max: int = N_TABLES):
    """Every table of n = 1..n_max items: the tables, their n, and every measure's value."""
    tables = [t for n in range(1, n_max + 1) for t in all_tables(n)]
    batch = pad(tables, n_max)
    values = _values(batch, list(keys))
    n_of = batch.sum(axis=(1, 2)).astype(int)
    rows_ok = (batch > 0).sum(axis=2)
    cols_ok = (batch > 0).sum(axis=1)
    k_rows = (batch.sum(axis=2) > 0).sum(axis=1)
    k_cols = (batch.sum(axis=1) > 0).sum(axis=1)
    identical = ((rows_ok <= 1).all(axis=1) & (cols_ok <= 1).all(axis=1))
    opposite = (n_of >= 2) & (((k_rows == 1) & (k_cols == n_of)) | ((k_cols == 1) & (k_rows == n_of)))
    transposed = _values(batch.transpose(0, 2, 1), list(keys))
    return tables, batch, n_of, identical, opposite, values, transposed


def _extreme_check(key, g, tables, n_of, target_mask, prop, want_max: bool):
    """∃ c with g ≤ c (want_max) or g ≥ c, equality exactly on target_mask tables."""
    targets = g[target_mask]
    if targets.size == 0:
        return Verdict(None, "not_applicable", "no target table")
    c = targets[0]
    differ = ~_close(targets, c)
    if differ.any():
        i0 = np.flatnonzero(target_mask)[0]
        i1 = np.flatnonzero(target_mask)[np.flatnonzero(differ)[0]]
        return Verdict(False, "counterexample",
                       f"the {'identical' if want_max else 'opposite'} pairs do not share one value "
                       f"({_sign(key) * c:.6g} at n = {n_of[i0]}, {_sign(key) * g[i1]:.6g} at n = {n_of[i1]})",
                       {"tables": [_frame(tables[i0]), _frame(tables[i1])],
                        "values": [_sign(key) * float(g[i0]), _sign(key) * float(g[i1])]})
    beyond = (g > c + TOL * (1 + abs(c))) if want_max else (g < c - TOL * (1 + abs(c)))
    if beyond.any():
        i = int(np.flatnonzero(beyond)[np.argmax(np.abs(g[beyond] - c))])
        return Verdict(False, "counterexample",
                       f"a table scores {_sign(key) * g[i]:.6g}, beyond the value {_sign(key) * c:.6g} of the "
                       f"{'identical' if want_max else 'opposite'} pairs",
                       {"tables": [_frame(tables[i])], "values": [_sign(key) * float(g[i])]})
    reach = _close(g, c) & ~target_mask
    if reach.any():
        i = int(np.flatnonzero(reach)[0])
        return Verdict(False, "counterexample",
                       f"a {'non-identical' if want_max else 'non-opposite'} pair of partitions also scores "
                       f"{_sign(key) * c:.6g} ({int(reach.sum())} such tables); the weaker reading (the "
                       f"{'identical' if want_max else 'opposite'} pairs share the extreme value, without 'only "
                       "they') holds",
                       {"tables": [_frame(tables[i])], "values": [_sign(key) * float(g[i])], "weak_holds": True,
                        "c": _sign(key) * float(c)})
    return Verdict(True, "no_counterexample",
                   f"c = {_sign(key) * c:.6g}; every pair of partitions of n ≤ {int(n_of.max())} items checked "
                   f"({len(tables)} tables up to relabelling)", {"c": _sign(key) * float(c)})


def _sign(key):
    return 1.0 if MEASURES[key].higher_is_better else -1.0


def agreement_checks(keys: tuple[str, ...]) -> dict[str, dict[str, Verdict]]:
    tables, _, n_of, identical, opposite, values, transposed = _exhaustive(keys)
    out: dict[str, dict[str, Verdict]] = {}
    for key in keys:
        g = _oriented(key, values[key].to_numpy())
        res = {"max_agreement": _extreme_check(key, g, tables, n_of, identical, "max", True),
               "min_agreement": _extreme_check(key, g, tables, n_of, opposite, "min", False)}
        v, vt = values[key].to_numpy(), transposed[key].to_numpy()
        sym = _close(v, vt)
        if sym.all():
            flag = "; the registry declares it symmetric" if MEASURES[key].symmetric else \
                "; the registry does NOT declare it symmetric"
            res["symmetric"] = Verdict(True, "no_counterexample",
                                       f"v(A, B) = v(B, A) on every pair of partitions of n ≤ {int(n_of.max())} items "
                                       f"({len(tables)} tables checked){flag}", None)
        else:
            i = int(np.flatnonzero(~sym)[np.argmax(np.abs(np.nan_to_num(v - vt, nan=np.inf))[~sym])])
            res["symmetric"] = Verdict(False, "counterexample", "swapping classes and clusters changes the value",
                                       {"tables": [_frame(tables[i]), _frame(tables[i].T)],
                                        "values": [float(v[i]), float(vt[i])]})
        out[key] = res
    return out


# ============================================================================ distance


def triangle_checks(keys: tuple[str, ...], agreement: dict, n: int = N_TRIANGLE) -> dict[str, Verdict]:
    """d = c_max − g over every ordered pair of partitions of n items; min-plus closure test."""
    parts = set_partitions(n)
    p = len(parts)
    all_pairs = np.concatenate([_tables_of(x, parts, n) for x in parts])   # (p*p, n, n), row-major in (x, y)
    uniq, inverse = np.unique(all_pairs.reshape(p * p, -1), axis=0, return_inverse=True)
    values = _values(uniq.reshape(-1, n, n).astype(np.float64), list(keys))
    out = {}
    for key in keys:
        mx = agreement[key]["max_agreement"]
        if not mx.holds:
            out[key] = Verdict(False, "counterexample", "no maximal agreement, so no d(A, A) = 0 for every A: "
                               + mx.detail, mx.example)
            continue
        if not agreement[key]["symmetric"].holds:
            out[key] = Verdict(False, "counterexample", "not symmetric: " + agreement[key]["symmetric"].detail,
                               agreement[key]["symmetric"].example)
            continue
        c = _oriented(key, mx.example["c"]) if mx.example else 0.0
        g = _oriented(key, values[key].to_numpy())[inverse.ravel()].reshape(p, p)
        d = c - g
        d = np.where(np.abs(d) <= TOL, 0.0, d)
        if np.isinf(d).any():
            i, j = map(int, np.argwhere(np.isinf(d))[0])
            out[key] = Verdict(False, "counterexample", "an infinite distance between two partitions",
                               {"labelings": [parts[i].tolist(), parts[j].tolist()]})
            continue
        # via[x, z] = min_y d[x, y] + d[y, z]; a violation is d[x, z] > via[x, z]
        via = np.min(d[:, :, None] + d[None, :, :], axis=1)
        excess = d - via
        if (excess > TOL * (1 + np.abs(d))).any():
            x, z = map(int, np.unravel_index(np.argmax(excess), excess.shape))
            y = int(np.argmin(d[x, :] + d[:, z]))
            lab = {name: parts[i].tolist() for name, i in (("X", x), ("Y", y), ("Z", z))}
            out[key] = Verdict(False, "counterexample",
                               f"d(X, Z) = {d[x, z]:.6g} > d(X, Y) + d(Y, Z) = {d[x, y]:.6g} + {d[y, z]:.6g}",
                               {"labelings": lab, "tables": [
                                   _frame(_tables_of(parts[x], parts[[y]], n)[0]),
                                   _frame(_tables_of(parts[y], parts[[z]], n)[0]),
                                   _frame(_tables_of(parts[x], parts[[z]], n)[0])],
                                "d": [float(d[x, y]), float(d[y, z]), float(d[x, z])]})
            continue
        out[key] = Verdict(True, "no_counterexample",
                           f"d = c_max − g is 0 only on identical pairs, symmetric, and the triangle inequality "
                           f"holds on all {p ** 3:,} ordered triples of partitions of {n} items", None)
    return out


# ============================================================================ local monotonicity


def _splits_and_merges(t: np.ndarray):
    """(kind, new table) for every perfect split and perfect merge of t's clusters (columns)."""
    rows_of = [np.flatnonzero(t[:, j]) for j in range(t.shape[1])]
    for j, rows in enumerate(rows_of):
        if rows.size < 2:
            continue
        for mask in range(1, 2 ** (rows.size - 1)):       # each unordered bipartition once
            part = rows[[(mask >> b) & 1 == 1 for b in range(rows.size)]]
            new = np.zeros((t.shape[0], t.shape[1] + 1), dtype=t.dtype)
            new[:, : t.shape[1]] = t
            new[part, j] = 0
            new[part, -1] = t[part, j]
            yield "split", new
    for j, k in itertools.combinations(range(t.shape[1]), 2):
        if rows_of[j].size == 1 and rows_of[k].size == 1 and rows_of[j][0] == rows_of[k][0]:
            new = np.delete(t, k, axis=1)
            new[:, j] = t[:, j] + t[:, k]
            yield "merge", new


def monotonicity_checks(keys: tuple[str, ...], n_max: int = N_TABLES) -> dict[str, Verdict]:
    """Perfect splits and merges of the clusters, against non-trivial classes (1 < K < n): with one
    class or n singleton classes a pair-counting index is 0/0 everywhere (its pair indicator is
    constant), and the paper's indices are undefined there. Failures that occur only against
    trivial classes are reported in the detail."""
    befores: list[np.ndarray] = []
    afters: list[np.ndarray] = []
    kinds: list[str] = []
    trivial_moves: list[bool] = []
    for n in range(2, n_max + 1):
        for t in all_tables(n):
            k = int((t.sum(axis=1) > 0).sum())
            for kind, new in _splits_and_merges(t):
                befores.append(t)
                afters.append(new)
                kinds.append(kind)
                trivial_moves.append(k <= 1 or k >= n)
    trivial = np.array(trivial_moves)
    side = max(max(x.shape) for x in befores + afters)
    vb = _values(pad(befores, side), list(keys))
    va = _values(pad(afters, side), list(keys))
    out = {}
    for key in keys:
        gb, ga = _oriented(key, vb[key].to_numpy()), _oriented(key, va[key].to_numpy())
        with np.errstate(invalid="ignore"):
            ok = ga > gb + TOL * (1 + np.maximum(np.abs(ga), np.abs(gb)))
        bad_trivial = int((~ok & trivial).sum())
        note = (f"; against trivial classes {bad_trivial:,} of {int(trivial.sum()):,} moves do not improve it "
                "(degenerate values)") if bad_trivial else ""
        bad = np.flatnonzero(~ok & ~trivial)
        if bad.size == 0:
            out[key] = Verdict(True, "no_counterexample",
                               f"every perfect split and merge against non-trivial classes, n ≤ {n_max} items "
                               f"({int((~trivial).sum()):,} moves), strictly improves the value" + note, None)
            continue
        with np.errstate(invalid="ignore"):
            worsened = bad[gb[bad] - ga[bad] > TOL]
        i = int(worsened[0] if worsened.size else bad[0])
        out[key] = Verdict(False, "counterexample",
                           f"a perfect {kinds[i]} {'worsens' if worsened.size else 'does not change'} the value "
                           f"({float(vb[key][i]):.6g} → {float(va[key][i]):.6g}); "
                           f"{bad.size:,} of {int((~trivial).sum()):,} moves fail ({worsened.size:,} worsen it, "
                           f"{bad.size - worsened.size:,} leave it unchanged)" + note,
                           {"tables": [_frame(befores[i]), _frame(afters[i])],
                            "values": [float(vb[key][i]), float(va[key][i])], "move": kinds[i]})
    return out


# ============================================================================ strong monotonicity


class _PairCounts:
    """A stand-in table carrying only pair sums (m, m1, m2, M): what a pair-counting measure reads."""

    def __init__(self, n11, n10, n01, n00):
        n11, n10, n01, n00 = (np.asarray(x, dtype=np.float64) for x in (n11, n10, n01, n00))
        self.pair_sums = (n11, n11 + n10, n11 + n01, n11 + n10 + n01 + n00)


def is_pair_counting(key: str) -> bool:
    """Reads nothing but the four pair sums: tried on a stand-in that has nothing else."""
    m = MEASURES[key]
    if m.family != "pairs":
        return False
    try:
        m.func(_PairCounts([1.0], [1.0], [1.0], [1.0]), log_base=math.e, beta=1.0)
    except AttributeError:
        return False
    return True


def strong_monotonicity_checks(keys: tuple[str, ...], top: int = 6) -> dict[str, Verdict]:
    grid = np.array(list(itertools.product(range(top + 1), repeat=4)), dtype=np.float64)
    steps = np.eye(4)
    want = np.array([1, -1, -1, 1])          # N11 up, N10 down, N01 down, N00 up: improves
    names = ("N11", "N10", "N01", "N00")
    out = {}
    for key in keys:
        if not is_pair_counting(key):
            out[key] = Verdict(None, "not_applicable", "not a function of the pair counts alone")
            continue
        m = MEASURES[key]

        def f(q, m=m, key=key):
            v = np.broadcast_to(np.asarray(m.func(_PairCounts(*q.T), log_base=math.e, beta=1.0), dtype=np.float64),
                                (len(q),))
            return _oriented(key, np.clip(v, *m.bounds))

        base = f(grid)
        interior = (grid > 0).all(axis=1)
        found: dict[str, tuple | None] = {"interior": None, "boundary": None}
        for c in range(4):
            moved = f(grid + steps[c])
            with np.errstate(invalid="ignore"):
                bad = ~((moved - base) * want[c] > TOL * (1 + np.abs(base)))
            for scope, mask in (("interior", interior), ("boundary", ~interior)):
                idx = np.flatnonzero(bad & mask)
                if idx.size and found[scope] is None:
                    q, i = grid[idx[0]], idx[0]
                    found[scope] = (c, q, q + steps[c], base[i], moved[i], int(idx.size))
        boundary_note = ""
        if found["boundary"] is not None:
            c, q, q2, b0, b1, _ = found["boundary"]
            boundary_note = (f" With a count at 0 (where some ratio is 0/0 and the measure's degenerate rule "
                             f"applies) it can fail: {tuple(int(x) for x in q)} → {tuple(int(x) for x in q2)} gives "
                             f"{_sign(key) * b0:.6g} → {_sign(key) * b1:.6g}.")
        if found["interior"] is None:
            out[key] = Verdict(True, "no_counterexample",
                               f"strictly monotone in each count on all {int(interior.sum()):,} quadruples with "
                               f"counts 1…{top}." + boundary_note, None)
            continue
        c, q, q2, b0, b1, _ = found["interior"]
        out[key] = Verdict(False, "counterexample",
                           f"{'raising' if want[c] > 0 else 'lowering'} {names[c]} should improve it, but from "
                           f"(N11, N10, N01, N00) = {tuple(int(x) for x in q)} to {tuple(int(x) for x in q2)} the "
                           f"value goes {_sign(key) * b0:.6g} → {_sign(key) * b1:.6g}",
                           {"counts": [tuple(int(x) for x in q), tuple(int(x) for x in q2)],
                            "values": [float(_sign(key) * b0), float(_sign(key) * b1)]})
    return out
