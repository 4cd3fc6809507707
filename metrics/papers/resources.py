"""Partition Lab's data files, read as package data.

The repository keeps them in its top-level ``assets/`` folder, which the build installs as
the package ``metrics.assets``; :func:`importlib.resources.files` finds them the same way in
an editable checkout, a regular ``pip install .`` and the wheel. Nothing here builds a path
from ``__file__``.

``presets/*.json``       the papers' tables as presets (format: ``presets/README.md``)
``paper_values/*.json``  the papers' printed numbers, with provenance (read by ``metrics.papers.gallery``)
"""

from __future__ import annotations

import json
from importlib.resources import files
from importlib.resources.abc import Traversable

__all__ = ["asset", "folder", "names", "read_json"]

PACKAGE = "metrics.assets"


def folder(kind: str) -> Traversable:
    """The folder ``kind`` (``"presets"`` or ``"paper_values"``) of the installed data."""
    return files(PACKAGE) / kind


def asset(kind: str, name: str) -> Traversable:
    """One data file, e.g. ``asset("paper_values", "wu2009_table12.json")``."""
    return folder(kind) / name


def names(kind: str, suffix: str = ".json") -> list[str]:
    """The file names in folder ``kind`` ending in ``suffix``, sorted."""
    return sorted(p.name for p in folder(kind).iterdir() if p.is_file() and p.name.endswith(suffix))


def read_json(kind: str, name: str) -> dict:
    """A data file's JSON (parsed anew on each call: callers cache what they reuse).

    Raises ``ValueError`` naming the file when it is missing or not valid JSON.
    """
    try:
        return json.loads(asset(kind, name).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ValueError(f"data file {kind}/{name} is missing from the installed package") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"data file {kind}/{name} is not valid JSON ({exc})") from None
