"""One digest of a table: the key under which caches keep what was computed from it.

Two tables with the same shape, cells and (unless left out) labels have the same digest; any
other difference gives another. A :class:`~metrics.core.contingency.Contingency` is never
changed, so its digest is computed once per table and kind (:meth:`TableStats.memo`).
"""

from __future__ import annotations

import hashlib
import pickle

import numpy as np

__all__ = ["table_digest"]


def table_digest(t, labels: bool = True) -> str:
    """A 128-bit hex digest of table ``t``'s shape and non-zero cells, and of its class and cluster
    labels (as text) unless ``labels=False`` — for caches whose result does not depend on the
    labels (a null distribution depends on the cells only)."""
    return t.memo("digest" if labels else "digest_cells", lambda t: _digest(t, labels))


def _digest(t, labels: bool) -> str:
    h = hashlib.blake2b(digest_size=16)
    h.update(repr(t.shape).encode())
    for arr in (t.rows, t.cols, t.values):
        arr = np.asarray(arr)
        h.update(np.ascontiguousarray(arr).tobytes() if arr.dtype != object else pickle.dumps(arr.tolist()))
    if labels:
        h.update(pickle.dumps([str(x) for x in t.row_labels]))
        h.update(pickle.dumps([str(x) for x in t.col_labels]))
    return h.hexdigest()
