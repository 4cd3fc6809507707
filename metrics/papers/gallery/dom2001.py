"""Dom (2001), An information-theoretic external cluster-validity measure: the printed numbers recomputed.
"""

from __future__ import annotations

from ...core.formatting import format_number
from .. import generators
from .common import _claim, _link, _row, _value


def _dom_rows() -> list[dict]:
    paper = "dom2001"
    sizes = [6, 3, 3]
    tables = {"perfect": generators.perfect(sizes), "single cluster": generators.single_cluster(sizes),
              "singletons": generators.singletons(sizes), "no knowledge": generators.no_knowledge(sizes, [4, 4, 4])}
    q0 = {name: _value("q0", t) for name, t in tables.items()}
    best = min(q0, key=q0.__getitem__)
    note = "On 12 items in classes of 6, 3 and 3 (the app's extreme-case presets), in nats."
    link = _link("table_lab", "The perfect clustering in the Table lab", preset="extreme_perfect")
    rows = [
        _claim(paper, "§3: extreme cases of Q0", "Q0 is smallest for the perfect clustering (clusters and classes "
               "in one-to-one correspondence), where H(C|K) = 0 and only the model cost remains",
               "minimum at the perfect clustering",
               "; ".join(f"{k}: {format_number(v)}" for k, v in q0.items())
               + "; H(C|K) of the perfect clustering = "
               + format_number(_value('conditional_entropy', tables['perfect'])),
               best == "perfect" and abs(_value("conditional_entropy", tables["perfect"])) <= 1e-12,
               explanation="Another extreme case has a smaller Q0.", note=note, link=link),
        _row(paper, "§3: the normalized form", "Q2 of the perfect clustering (its best possible value)", "1",
             value=_value("q2", tables["perfect"]), note=note, link=link,
             explanation="Q2 of the perfect clustering is not 1."),
        _row(paper, "§5: the parametric family", "Measures on Dom's family of class/cluster distributions",
             "figures", status="not recomputable",
             explanation="Dom's own figures are not in the (stop-word stripped) text; his family, as Rosenberg & "
                         "Hirschberg extend it, is re-run in their Figure 3 and Table 2 above.",
             link=_link("generator_lab", "Explore Dom's generator",
                        fallback=_link("table_lab", "Figure 3's table in the Table lab", preset="rh_figure3"))),
    ]
    return rows
