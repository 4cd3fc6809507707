"""MkDocs hook of the documentation site: the measures reference, generated from the registry.

``docs/measures.md`` holds the marker :data:`MARKER`; at build time :func:`on_page_markdown` puts
:func:`measures_reference` in its place, so the reference lists exactly what ``metrics.MEASURES``
holds (keys, names, formulas, ranges, families, references, the peers that compute the same
measure) and can never disagree with the library, the CLI's ``partition-lab measures`` or the
app's formula panels, which read the same registry.
"""

from __future__ import annotations

import math

MARKER = "<!-- measures-reference -->"

# Where a measure is defined, in the reference's words (the registry's ``domain``).
_DOMAIN_WORDS = {
    "any": "every table, fractional (fuzzy) ones included",
    "integer": "integer tables only (a hypergeometric model)",
    "counts": "tables whose non-zero cells are all ≥ 1 (it counts item pairs)",
}


def _range(measure) -> str:
    lo, hi = measure.bounds

    def end(x: float) -> str:
        return "∞" if x == math.inf else "−∞" if x == -math.inf else f"{x:g}"

    left = "(" if math.isinf(lo) else "["
    right = ")" if math.isinf(hi) else "]"
    return f"{left}{end(lo)}, {end(hi)}{right}"


def _cell(text: str) -> str:
    """Text made safe for one cell of a Markdown table."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def _peers(measure) -> list[str]:
    """Other libraries' functions that compute this measure, as the registry names them."""
    out = []
    if measure.sklearn:
        name, _, method = measure.sklearn.partition(":")
        call = f"{name}(…, average_method='{method}')" if method else f"{name}"
        out.append(f"scikit-learn `sklearn.metrics.{call}`")
    # Fields a later registry may add (e.g. ``peers``: {library: function}) are shown when present.
    for library, function in (getattr(measure, "peers", None) or {}).items():
        out.append(f"{library} `{function}`")
    return out


def _properties(measure) -> list[str]:
    out = ["symmetric (swapping classes and clusters keeps the value)" if measure.symmetric
           else "not symmetric"]
    out.append("n-invariant (multiplying every cell by λ keeps the value)" if measure.n_invariant
               else "not n-invariant")
    if measure.uses_log_base:
        out.append("in units of `log_base` (nats by default)")
    if measure.uses_beta:
        out.append("weighted by `beta`")
    return out


def measures_reference(measures=None, families=None) -> str:
    """The reference of every registered measure, as Markdown: one summary table per family, then
    one section per measure. ``measures`` and ``families`` default to the registry's."""
    if measures is None or families is None:
        import metrics

        measures = metrics.MEASURES if measures is None else measures
        families = metrics.FAMILIES if families is None else families
    intro = (f"{len(measures)} measures in {len(families)} families, in the registry's order "
             "(the order of every table and chart).")
    lines = [intro, ""]
    for family, title in families.items():
        members = [m for m in measures.values() if m.family == family]
        if not members:
            continue
        lines += [f"## {title}", "", "| key | name | symbol | range | better |", "|---|---|---|---|---|"]
        lines += [f"| [`{m.key}`](#{m.key}) | {_cell(m.name)} | {_cell(m.symbol)} | {_range(m)} | "
                  f"{m.direction} |" for m in members]
        lines.append("")
        for m in members:
            lines += [f"### `{m.key}` — {m.name} {{ #{m.key} }}", "", m.description, "",
                      "```text", m.formula, "```", "",
                      f"- **Symbol:** {m.symbol}",
                      f"- **Range:** {_range(m)}, {m.direction} is better",
                      f"- **Defined for:** {_DOMAIN_WORDS.get(m.domain, m.domain)}"
                      + ("; left out where its computation would be too costly" if m.limit else ""),
                      f"- **Properties:** {'; '.join(_properties(m))}",
                      f"- **Reference:** {m.reference}"]
            peers = _peers(m)
            lines.append(f"- **Peers:** {'; '.join(peers)}" if peers else "- **Peers:** none known")
            for field in ("degenerate", "example"):  # optional metadata, shown when the registry has it
                value = getattr(m, field, None)
                if value:
                    lines.append(f"- **{field.capitalize()}:** {value}")
            lines.append("")
    return "\n".join(lines)


def on_page_markdown(markdown: str, page, config, files) -> str:
    """MkDocs event: the measures page gets the generated reference in place of :data:`MARKER`."""
    if page.file.src_uri == "measures.md":
        if MARKER not in markdown:
            raise ValueError(f"docs/measures.md lost its marker {MARKER!r}")
        return markdown.replace(MARKER, measures_reference())
    return markdown
