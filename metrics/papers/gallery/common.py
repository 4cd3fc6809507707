"""What every paper's rows share: the papers, judging a printed number, a row, a link into the app.
"""

from __future__ import annotations

import json
import math

import numpy as np

from ...core.contingency import Contingency
from ...core.formatting import format_number
from ...core.registry import MEASURES
from .. import resources

# The installed paper values (package data; see metrics.papers.resources). A Traversable: `/` and
# read_text work on it as on a Path.
ASSET_DIR = resources.folder("paper_values")

PAPERS = {
    "rh2007": "Rosenberg & Hirschberg (2007), V-Measure: a conditional entropy-based external cluster "
              "evaluation measure",
    "rr2009": "Reichart & Rappoport (2009), The NVI clustering evaluation measure",
    "dom2001": "Dom (2001), An information-theoretic external cluster-validity measure",
    "utt2014": "Utt, Springorum, Köper & Schulte im Walde (2014), Fuzzy V-Measure",
    "wu2009": "Wu, Xiong & Chen (2009), Adapting the right measures for K-means clustering",
}

STATUSES = ("agrees", "truncated", "differs", "not recomputable")

COLUMNS = ["paper", "section", "item", "printed", "computed", "value", "status", "agrees", "explanation", "note",
           "link"]


# ---------------------------------------------------------------------- judging a number
def decimals(printed: str) -> int:
    """Decimals printed: ".047" → 3, "0.50" → 2, "1" → 0."""
    text = str(printed).strip()
    return len(text.split(".")[1]) if "." in text else 0


def judge(value: float, printed: str) -> str:
    """"agrees", "truncated" or "differs": ``value`` against ``printed`` at its precision."""
    p = float(printed)
    d = decimals(printed)
    if not math.isfinite(value):
        return "differs"
    if d == 0:
        return "agrees" if abs(value - p) <= 1e-12 else "differs"
    if abs(value - p) <= 0.5 * 10.0 ** -d + 1e-12:
        return "agrees"
    scale = 10**d
    if math.floor(abs(value) * scale + 1e-9) / scale == abs(p) and (value >= 0) == (p >= 0):
        return "truncated"
    return "differs"


def _fmt(value: float, printed: str | None = None) -> str:
    """The computed value in the app's one number format, with at least one significant digit
    more than the printed value, so that rounding and truncation can be told apart."""
    shown = len(str(printed).strip().lstrip("-0.").replace(".", "")) if printed is not None else 0
    return format_number(value, max(4, shown + 1))


def _row(paper: str, section: str, item: str, printed: str, *, value: float | None = None,
         computed: str | None = None, status: str | None = None, explanation: str = "", note: str = "",
         link: dict | None = None) -> dict:
    """One gallery row; a numeric ``value`` is judged against ``printed`` unless ``status`` is given."""
    if status is None:
        if value is None:
            raise ValueError(f"{paper} / {item}: give a value or a status")
        status = judge(value, printed)
    if status not in STATUSES:
        raise ValueError(f"unknown status {status!r}")
    if computed is None and value is not None:
        computed = _fmt(value, printed)
    agrees = {"agrees": True, "truncated": False, "differs": False}.get(status)
    if status == "agrees":
        explanation = ""  # the reason a value would not agree; moot when it does
    elif not explanation:
        raise ValueError(f"{paper} / {item}: a row that does not agree needs an explanation")
    return {"paper": paper, "section": section, "item": item, "printed": str(printed), "computed": computed,
            "value": None if value is None else float(value), "status": status, "agrees": agrees,
            "explanation": explanation, "note": note, "link": link}


def _claim(paper: str, section: str, item: str, printed: str, computed: str, holds: bool, *,
           explanation: str = "", note: str = "", link: dict | None = None) -> dict:
    """A claim printed in words: it agrees when the computed facts say the same."""
    return _row(paper, section, item, printed, computed=computed, status="agrees" if holds else "differs",
                explanation="" if holds else explanation, note=note, link=link)


def _link(page: str, label: str, fallback: dict | None = None, **params) -> dict:
    """A link to ``page`` with URL ``params``; ``fallback`` is the link to use while the page
    is not part of the app."""
    out = {"page": page, "params": {k: v for k, v in params.items() if v is not None}, "label": label}
    if fallback is not None:
        out["fallback"] = fallback
    return out


def _table_link(label: str, cells, classes=None, clusters=None) -> dict:
    """A link that opens the Table lab with a table no preset holds."""
    cells = [[float(x) if not float(x).is_integer() else int(x) for x in row] for row in np.asarray(cells).tolist()]
    classes = classes or [f"C{i + 1}" for i in range(len(cells))]
    clusters = clusters or [f"K{j + 1}" for j in range(len(cells[0]))]
    return {"page": "table_lab", "params": {}, "label": label,
            "table": {"classes": [str(c) for c in classes], "clusters": [str(c) for c in clusters], "cells": cells}}


def _load(directory, name: str) -> dict:
    path = directory / name
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ValueError(f"paper values file {path} is not readable: {exc}") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"paper values file {path} is not valid JSON: {exc}") from None


def _value(key: str, t: Contingency, log_base: float = math.e) -> float:
    return MEASURES[key](t, log_base=log_base)


def _differences(data: dict, symbol: str, prop: str) -> str:
    """The explanations a paper-values file gives for a cell that does not reproduce
    (its ``differences.cells`` naming the measure and the property), joined; else its
    general note."""
    diff = data.get("differences") or {}
    why = [c["why"] for c in diff.get("cells", [])
           if symbol in c.get("measures", ()) and prop in c.get("properties", ())]
    if why:
        return " ".join(why)
    return diff.get("general") or ("The paper does not state its setup fully (n, expected or sampled counts, the "
                                   "steps); the value depends on that reading.")
