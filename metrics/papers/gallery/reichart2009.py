"""Reichart & Rappoport (2009), The NVI clustering evaluation measure: the printed numbers recomputed.
"""

from __future__ import annotations

import math
from importlib.resources.abc import Traversable

import numpy as np

from ...core.contingency import Contingency
from ...core.formatting import format_number
from ...core.registry import evaluate
from .. import generators
from .common import _claim, _link, _load, _row, _value


def _rr_rows(directory: Traversable) -> list[dict]:
    paper = "rr2009"
    rr = _load(directory, "reichart2009_table1.json")
    rows = []
    r = Contingency.from_table(np.asarray(rr["solution_R"]))
    same = np.array_equal(r.to_dense(), generators.solution_r(10, 10, 3).to_dense())
    link = _link("compare", "Compare singletons and solution R", a="rr_singletons", b="rr_solution_r",
                 m=list(rr["measure_keys"].values()))
    rows.append(_row(paper, "Table 1 (top): solution R", "The printed 10 × 10 matrix is cyclic noise "
                     "(7 on the diagonal, three 1s to its right, wrapping round)", "matrix",
                     computed="equal to metrics.papers.generators.solution_r(10, 10, 3)" if same else "different",
                     status="agrees" if same else "differs",
                     explanation="" if same else "The generator does not build the printed matrix.", link=link))
    tables = {"singletons": generators.singletons([10] * 10), "solution_R": r}
    why = {
        ("solution_R", "V"): rr["reproduction"]["solution_R"]["V"],
        ("solution_R", "NVI"): rr["reproduction"]["solution_R"]["NVI"],
        ("solution_R", "NVIK"): rr["reproduction"]["solution_R"]["NVIK"],
    }
    for sol, label in (("singletons", "Singletons"), ("solution_R", "Solution R")):
        for sym, key in rr["measure_keys"].items():
            v = _value(key, tables[sol])
            rows.append(_row(paper, "Table 1 (bottom): scores", f"{label}: {sym}", rr["printed"][sol][sym], value=v,
                             explanation=why.get((sol, sym), ""), note="Natural logarithms (VI in nats).",
                             link=link))

    # §3–4 extreme cases, on the app's extreme presets (classes of 6, 3 and 3).
    sizes = [6, 3, 3]
    cases = {
        "single cluster": (generators.single_cluster(sizes), "extreme_single_cluster"),
        "singletons": (generators.singletons(sizes), "extreme_singletons"),
        "no knowledge": (generators.no_knowledge(sizes, [4, 4, 4]), "extreme_no_knowledge"),
        "perfect": (generators.perfect(sizes), "extreme_perfect"),
    }
    note = ("Checked on 12 items in classes of 6, 3 and 3 (the app's extreme-case presets); "
            "H(C), H(K), H(C|K), H(K|C) from the table, in nats.")
    for case, printed, symbol, fn in (
        ("single cluster", "V = 0", "V", lambda t, v: (v["v_measure"], 0.0)),
        ("single cluster", "VI = H(C)", "VI", lambda t, v: (v["vi"], t.h_c)),
        ("single cluster", "NVI = 1", "NVI", lambda t, v: (v["nvi"], 1.0)),
        ("singletons", "H(C|K) = 0 and VI = H(K|C)", "VI", lambda t, v: (v["vi"], t.h_k_given_c)),
        ("singletons", "NVI = H(K|C) / H(C)", "NVI", lambda t, v: (v["nvi"], t.h_k_given_c / t.h_c)),
        ("no knowledge", "V = 0", "V", lambda t, v: (v["v_measure"], 0.0)),
        ("no knowledge", "VI = H(C) + H(K)", "VI", lambda t, v: (v["vi"], t.h_c + t.h_k)),
        ("no knowledge", "NVI = 1 + H(K)/H(C)", "NVI", lambda t, v: (v["nvi"], 1.0 + t.h_k / t.h_c)),
        ("perfect", "NVI = 0", "NVI", lambda t, v: (v["nvi"], 0.0)),
    ):
        t, preset = cases[case]
        values = evaluate(t, ["v_measure", "vi", "nvi"])
        got, expected = fn(t, values)
        extra = f"; H(C|K) = {format_number(t.h_c_given_k)}" if case == "singletons" else ""
        holds = math.isclose(got, expected, rel_tol=1e-12, abs_tol=1e-12) and (
            case != "singletons" or abs(t.h_c_given_k) <= 1e-12)
        rows.append(_claim(paper, "§3–4: the extreme cases", f"{case.capitalize()}: {printed}", printed,
                           f"{symbol} = {format_number(got)}; the right-hand side = "
                           f"{format_number(expected)}{extra}", holds,
                           explanation="The identity does not hold on this table.", note=note,
                           link=_link("table_lab", f"The {case} case in the Table lab", preset=preset)))
    rows.append(_row(paper, "Tables 2–3 (grammar induction)", "V, VI, NVI and NVIK of the induced labelings",
                     "tables", status="not recomputable",
                     explanation="The labeled parse-tree induction output (WSJ10, NEGRA10, CTB10) is not available."))
    return rows
