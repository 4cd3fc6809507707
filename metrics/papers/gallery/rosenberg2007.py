"""Rosenberg & Hirschberg (2007), V-Measure: the printed numbers of Figures 2–3 and Table 2 recomputed.
"""

from __future__ import annotations

import re
from importlib.resources.abc import Traversable

import numpy as np

from ... import properties
from ...core.contingency import Contingency
from ...core.formatting import format_number
from .. import generators
from .common import _differences, _link, _load, _row, _table_link, _value, judge


def _rh_rows(directory: Traversable) -> list[dict]:
    paper = "rh2007"
    rows = []
    fig2 = _load(directory, "rosenberg2007_figure2.json")
    compare_ab = _link("compare", "Compare A and B", a="rh_figure2_A", b="rh_figure2_B",
                       m=["f_measure", "purity", "v_measure", "vi", "ari"])
    note2 = ("Figure 2 is a picture lost in the text extraction: the tables are reconstructions, found by an "
             "exhaustive search that the printed F and V make unique up to relabelling "
             "(assets/paper_values/rosenberg2007_figure2.json).")
    tables = {s: Contingency.from_table(np.asarray(c)) for s, c in fig2["reconstructions"].items()}
    for sol in ("A", "B", "C", "D"):
        link = compare_ab if sol in "AB" else _table_link(f"Solution {sol} in the Table lab",
                                                          fig2["reconstructions"][sol])
        for key, label in (("f_measure", "F-measure"), ("v_measure", "V-measure")):
            rows.append(_row(paper, "Figure 2 and §3 (the problem of matching)", f"Solution {sol}: {label}",
                             fig2["printed"][sol][key], value=_value(key, tables[sol]), note=note2, link=link))
    labels = re.findall(r"([A-D]): F=([\d.]+), V=([\d.]+)", fig2["printed_text"]["figure_labels_in_extraction"])
    if len(labels) != 4:
        raise ValueError("rosenberg2007_figure2.json: figure_labels_in_extraction must label A, B, C and D")
    for sol, f_label, v_label in labels:
        link = compare_ab if sol in "AB" else _table_link(f"Solution {sol} in the Table lab",
                                                          fig2["reconstructions"][sol])
        f = _value("f_measure", tables[sol])
        rows.append(_row(paper, "Figure 2 (the figure's own labels)", f"Label of solution {sol}: F-Measure",
                         f_label, value=f,
                         explanation="The figure labels A and B with F = 0.5 and C and D with F = 0.6, the "
                                     "other way round from the text (A, B: 'precision and recall for each class "
                                     "is 3/5', F = 0.6; C, D: 'the harmonic mean of 3/5 and 3/7', F = 0.5). "
                                     "The reconstructions follow the text — the only assignment the search can "
                                     "satisfy — so the caption's labels are swapped.",
                         note=note2, link=link))
        rows.append(_row(paper, "Figure 2 (the figure's own labels)", f"Label of solution {sol}: V-Measure",
                         v_label, value=_value("v_measure", tables[sol]), note=note2, link=link))

    fig3 = _load(directory, "rosenberg2007_figure3.json")
    p = fig3["parameters"]
    built = generators.dom(p["C"], p["K"] - p["K_noise"], p["K_noise"], p["C_noise"], p["eps1"], p["eps2"],
                           p["eps3"], n=p["n"])
    printed = np.asarray(fig3["table"])
    same = built.shape == printed.shape and np.allclose(built.to_dense(), printed)
    rows.append(_row(paper, "Figure 3 (Dom's family with noise)",
                     f"Table for n = {p['n']}, |K| = {p['K']} (|Knoise| = {p['K_noise']}), |C| = {p['C']}, "
                     f"|Cnoise| = {p['C_noise']}, ε1 = {p['eps1']}, ε2 = {p['eps2']}, ε3 = {p['eps3']}",
                     "; ".join(" ".join(str(x) for x in r) for r in printed.tolist()),
                     computed="; ".join(" ".join(f"{x:g}" for x in r) for r in built.to_dense().tolist()),
                     status="agrees" if same else "differs",
                     explanation="" if same else "metrics.papers.generators.dom does not build the printed table.",
                     note="Built by metrics.papers.generators.dom with the caption's parameters: |K| counts the noise "
                          "cluster, |C| does not count the noise class (the reading that reproduces the figure).",
                     link=_link("generator_lab", "Explore Dom's generator",
                                fallback=_link("table_lab", "Figure 3 in the Table lab", preset="rh_figure3"))))

    t2 = _load(directory, "rh2007_table2.json")
    setup = (t2.get("differences") or {}).get("setup", "")
    keys = list(t2["measure_keys"].values())
    rates = properties.rates_table(properties.dom_property_rates(keys))
    # g_tab: the Generator lab's P1–P7 tab, named by its label (the page binds its tabs to the URL).
    link = _link("generator_lab", "Explore P1–P7 in the generator lab", g_tab="Properties P1–P7 (Table 2)",
                 fallback=_link("table_lab", "Figure 3's table in the Table lab", preset="rh_figure3"))
    for sym, key in t2["measure_keys"].items():
        for prop, pr in t2["rates"][sym].items():
            printed_text = f"{pr:.1f}" if float(pr).is_integer() else f"{pr:.2f}"
            c = float(rates.loc[prop, key])
            status = judge(c, printed_text)
            why = "" if status == "agrees" else _differences(t2, sym, prop)
            rows.append(_row(paper, "Table 2 (rates of satisfaction of P1–P7)", f"{sym}: {prop}", printed_text,
                             value=c, computed=format_number(c), status=status, explanation=why,
                             note=setup or "metrics.properties.dom_property_rates over the paper's grid.",
                             link=link))

    rows.append(_row(paper, "Figures 4–5 (document and pitch-accent clustering)",
                     "V, VI and Q2 against the number of clusters (V and Q2 peak at 35 clusters; Q2 at k = 10)",
                     "curves", status="not recomputable",
                     explanation="The TDT-4 documents and the Boston Directions Corpus are not available here; "
                                 "the Real data page draws the same curves for bundled data sets.",
                     link=_link("real_data", "The same curves on bundled data", rd_m=["v_measure", "vi", "q2"])))
    return rows
