"""The papers' worked examples as preset tables: ``assets/presets/*.json``, installed as package
data (read through :mod:`metrics.papers.resources`, so a wheel install finds them too).

Each file holds one table (rows = gold classes, columns = clusters) and its provenance:
the paper, where in it (table or figure), and a note on how it was read (e.g. Wu et al.
print clusters as rows, so their tables are stored transposed). The format is described in
``assets/presets/README.md``. Presets are data, never code: adding one is adding a file.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import pandas as pd

import metrics
from metrics.papers import resources

# A Traversable (a Path in a checkout or an unpacked install): iterdir, `/` and read_text work.
PRESET_DIR = resources.folder("presets")
_REQUIRED = ("key", "order", "group", "title", "source", "note", "classes", "clusters", "table")


@dataclass(frozen=True)
class Preset:
    key: str
    order: int
    group: str
    title: str
    source: dict = field(compare=False)
    note: str
    classes: tuple
    clusters: tuple
    table: tuple  # tuple of row tuples, rows = classes
    printed: dict = field(default_factory=dict, compare=False)

    @property
    def provenance(self) -> str:
        """One line: paper, and where in it."""
        return f"{self.source['paper']} — {self.source['where']}"

    def frame(self) -> pd.DataFrame:
        """The table with class names as index and cluster names as columns."""
        return pd.DataFrame([list(r) for r in self.table], index=list(self.classes), columns=list(self.clusters))

    def contingency(self) -> metrics.Contingency:
        """The preset's table (built once per preset; a Contingency is never mutated)."""
        return _contingency(self)


@lru_cache(maxsize=256)
def _contingency(preset: Preset) -> metrics.Contingency:
    return metrics.Contingency.from_table(preset.frame())


def _read(path) -> Preset:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise ValueError(f"preset {path.name}: not readable JSON ({exc})") from None
    missing = [k for k in _REQUIRED if k not in data]
    if missing:
        raise ValueError(f"preset {path.name}: missing field(s) {missing}")
    table = data["table"]
    if len(table) != len(data["classes"]) or any(len(r) != len(data["clusters"]) for r in table):
        raise ValueError(
            f"preset {path.name}: the table must have one row per class ({len(data['classes'])}) "
            f"and one column per cluster ({len(data['clusters'])})"
        )
    if data["key"] != path.name.removesuffix(".json"):
        raise ValueError(f"preset {path.name}: key {data['key']!r} must equal the file name")
    return Preset(
        key=data["key"], order=int(data["order"]), group=data["group"], title=data["title"],
        source=dict(data["source"]), note=data["note"], classes=tuple(data["classes"]),
        clusters=tuple(data["clusters"]), table=tuple(tuple(r) for r in table),
        printed=dict(data.get("printed", {})),
    )


@lru_cache(maxsize=4)
def load_presets(directory=None) -> dict[str, Preset]:
    """Every preset in ``directory`` (default: the installed presets), keyed by ``key``, in
    display order.

    Raises ``ValueError`` naming the file when one is malformed.
    """
    folder = PRESET_DIR if directory is None else Path(directory)
    files = [p for p in folder.iterdir() if p.name.endswith(".json")] if folder.is_dir() else []
    presets = sorted((_read(p) for p in files), key=lambda p: (p.order, p.key))
    if not presets:
        raise ValueError(f"no presets found in {directory}")
    return {p.key: p for p in presets}
