"""The playground's moves as the URL and the reader write them.

A move in the URL (``pg_mv``, repeated, one value per move, in order) is ``<items>_<target>``:
items by their number (0-based) as runs, ``3-7.12`` for 3, 4, 5, 6, 7 and 12; the target a
cluster number or ``n`` for a new cluster — ``3-7.12_n``. Runs keep a lasso of a hundred
neighbouring items short. The reader types items 1-based (``4-8, 13``), as the chart shows them.
"""

from __future__ import annotations

import re

from metrics.papers.playground import NEW, Move

MAX_MOVES = 100           # the URL's limit on repeated values (ui/state.MAX_VALUES)
MAX_MOVE_TEXT = 2000      # characters of one move in the URL
_MOVE = re.compile(r"^([0-9.\-]+)_(n|[0-9]+)$")
_TYPED_PART = re.compile(r"^(\d+)(?:-(\d+))?$")


def _runs(items) -> str:
    """Sorted distinct numbers as runs: [3, 4, 5, 9] → ``3-5.9``."""
    values = sorted(set(int(i) for i in items))
    parts, start = [], None
    for i, v in enumerate(values):
        if start is None:
            start = v
        if i + 1 == len(values) or values[i + 1] != v + 1:
            parts.append(str(start) if start == v else f"{start}-{v}")
            start = None
    return ".".join(parts)


def encode_move(m: Move) -> str:
    """The URL form of a move."""
    return f"{_runs(m.items)}_{'n' if m.target is NEW else int(m.target)}"


def decode_move(text: str, n_items: int) -> Move:
    """The move written as ``text``; ``ValueError`` in the reader's words."""
    match = _MOVE.match(text)
    if not match:
        raise ValueError("not of the form items_target (e.g. 3-7.12_2)")
    items: list[int] = []
    for part in match.group(1).split("."):
        lo, _, hi = part.partition("-")
        if not lo.isdigit() or (hi and not hi.isdigit()):
            raise ValueError(f"{part!r} is not an item number or a run a-b")
        a, b = int(lo), int(hi or lo)
        if b < a or b >= n_items:
            raise ValueError(f"items are numbered 0 to {n_items - 1}")
        items.extend(range(a, b + 1))
    target = match.group(2)
    return Move(tuple(sorted(set(items))), NEW if target == "n" else int(target))


def decode_moves(texts: list[str], n_items: int) -> tuple[list[Move], str | None]:
    """The moves of the URL up to the first that cannot be read, and why it cannot (None: all read)."""
    moves = []
    for i, text in enumerate(texts[:MAX_MOVES], start=1):
        try:
            moves.append(decode_move(text, n_items))
        except ValueError as exc:
            return moves, f"move {i}: {exc}"
    return moves, None


def parse_typed(text: str, n_items: int) -> tuple[list[int], str | None]:
    """Items typed 1-based as ``4-8, 13`` → their 0-based numbers, or why the text cannot be read."""
    items: list[int] = []
    for part in [p for p in re.split(r"[,;\s]+", re.sub(r"\s*[-–]\s*", "-", text.strip())) if p]:
        match = _TYPED_PART.match(part)
        if not match:
            return [], f"“{part}” is not an item number or a range such as 4-8"
        a, b = int(match.group(1)), int(match.group(2) or match.group(1))
        if not (1 <= a <= b <= n_items):
            return [], f"items are numbered 1 to {n_items}; “{part}” is outside"
        items.extend(range(a - 1, b))
    return sorted(set(items)), None
