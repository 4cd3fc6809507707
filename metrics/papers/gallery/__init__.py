"""The paper gallery: every number this project can recompute from the five papers, beside
the printed value.

:func:`gallery_rows` reads the printed values and their provenance from
``assets/paper_values/*.json`` and recomputes each with :mod:`metrics` (measures,
generators, property checks, experiments). One row per printed number or claim::

    paper        key of PAPERS
    section      where in the paper (a table, a figure, a section)
    item         what the number is
    printed      the printed value, as printed
    computed     what metrics computes (text), None when the data is not available
    value        the computed number when there is one
    status       "agrees" | "truncated" | "differs" | "not recomputable"
    agrees       True for "agrees", False for "truncated"/"differs", None otherwise
    explanation  why a value does not agree (empty when it does)
    note         how the number was obtained (the reading of the table, the units)
    link         where the app explores it: {"page", "params", "label"} and, for a table
                 no preset holds, "table" {"classes", "clusters", "cells"}

Agreement is judged at the printed precision, as in ``tests/test_paper_values.py``: a
value printed with d decimals agrees when |computed − printed| ≤ ½·10^−d (the printed
number is the computed one rounded); a whole number ("1", "0") claims an exact value
(1e-12). A printed value that is the computed one cut, not rounded, to d decimals is
"truncated" (the papers do this), which does not count as agreeing. Claims printed as
words ("only E, P and MI …") agree when the computed facts say the same.

Links name pages by their URL path (``table_lab``, ``compare``, ``generator_lab``,
``property_checker``, ``fuzzy_lab``, ``real_data``); the dashboard turns them into page links.

One module per paper (:mod:`~.rosenberg2007`, :mod:`~.reichart2009`, :mod:`~.dom2001`,
:mod:`~.utt2014`, :mod:`~.wu2009`); what they share in :mod:`~.common`.
"""

from __future__ import annotations

from collections.abc import Iterable
from importlib.resources.abc import Traversable
from pathlib import Path

import pandas as pd

from .common import ASSET_DIR, COLUMNS, PAPERS, STATUSES, decimals, judge
from .dom2001 import _dom_rows
from .reichart2009 import _rr_rows
from .rosenberg2007 import _rh_rows
from .utt2014 import _utt_rows
from .wu2009 import _wu_rows

__all__ = ["PAPERS", "ASSET_DIR", "STATUSES", "gallery_rows", "gallery_frame", "judge", "decimals"]


def gallery_rows(directory: str | Path | None = None, papers: Iterable[str] | None = None) -> list[dict]:
    """Every row of the gallery, paper by paper (order of :data:`PAPERS`).

    ``directory`` holds the ``*.json`` paper values (default :data:`ASSET_DIR`); ``papers``
    limits the rows to some of :data:`PAPERS`. Raises ``ValueError`` naming a file that is
    missing or malformed, ``KeyError`` for an unknown paper.
    """
    folder: Traversable = ASSET_DIR if directory is None else Path(directory)
    chosen = list(PAPERS) if papers is None else list(papers)
    unknown = [p for p in chosen if p not in PAPERS]
    if unknown:
        raise KeyError(f"unknown paper(s) {unknown}; known: {', '.join(PAPERS)}")
    builders = {"rh2007": lambda: _rh_rows(folder), "rr2009": lambda: _rr_rows(folder),
                "dom2001": _dom_rows, "utt2014": lambda: _utt_rows(folder), "wu2009": lambda: _wu_rows(folder)}
    rows = []
    for p in PAPERS:
        if p in chosen:
            rows.extend(builders[p]())
    return rows


def gallery_frame(directory: str | Path | None = None, papers: Iterable[str] | None = None) -> pd.DataFrame:
    """:func:`gallery_rows` as a DataFrame (columns as listed in the module docstring)."""
    return pd.DataFrame(gallery_rows(directory, papers), columns=COLUMNS)
