"""What a session keeps of an upload, and what the server gives back when sessions end (issue 29).

20 sessions each uploading 6 MB took a server from 359 to 1,078 MB, unchanged 3 minutes after
every browser closed. Three causes, each tested here:

* the panels kept the raw file (the ``UploadedFile``) and its cells as text (13 MB for 6 MB of
  CSV): now a :class:`~dashboard.ui.upload.KeptFile` (a name and an id) and the cells
  compacted (:meth:`metrics.io.LabelColumns.compact`, 1 MB);
* Streamlit keeps a disconnected session in a cache that drops expired entries only when written
  to, so once every browser had closed the sessions stayed for good:
  :func:`dashboard.server.serve.expire_closed_sessions` shuts them down;
* freed memory stayed in the malloc arenas of the sessions' threads:
  :func:`dashboard.server.serve.limit_malloc_arenas`, :func:`dashboard.server.serve.release_memory`.

The figures with a real server: ``benchmarks/bench_upload_memory.py``.
"""

from __future__ import annotations

import subprocess
import sys
import time

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from dashboard.server import serve
from dashboard.ui.upload import KeptFile
from metrics import io as mio
from tests.dashboard.apptest_utils import open_app

ROWS = 60_000
LABELS = ("gold,pred\n" + "".join(f"c{i % 37},k{i % 53}\n" for i in range(ROWS))).encode()


def held(value, seen=None) -> list:
    """Raw files or big byte strings reachable from ``value`` (session state)."""
    from streamlit.runtime.uploaded_file_manager import UploadedFile

    seen = set() if seen is None else seen
    if id(value) in seen:
        return []
    seen.add(id(value))
    if isinstance(value, UploadedFile) or (isinstance(value, (bytes, bytearray)) and len(value) > 10_000):
        return [value]
    out = []
    if isinstance(value, dict):
        for v in value.values():
            out += held(v, seen)
    elif isinstance(value, (list, tuple, set)):
        for v in value:
            out += held(v, seen)
    return out


def session_values(at: AppTest) -> list:
    return [at.session_state[k] for k in at.session_state]


def test_the_table_lab_keeps_the_cells_compacted_and_no_raw_file():
    at = open_app("app_pages/analyse/table_lab.py", 60, {"src": "upload"})
    at.file_uploader(key="lab_upload_file").set_value(("big.csv", LABELS, "text/csv")).run()
    assert not at.exception and not at.error
    # Switch away and back: nothing is read again, nothing raw is kept.
    at.radio(key="lab_upload_layout").set_value("two").run()
    at.radio(key="lab_upload_layout").set_value("one").run()
    assert not at.exception and not at.error
    state = session_values(at)
    kept = at.session_state["_upload_kept"]
    assert all(isinstance(k, KeptFile) for k in kept.values())
    assert held([v for k, v in zip(at.session_state, state) if not str(k).startswith("lab_upload_file")]) == []
    (lc,) = [v for v in at.session_state["_upload_parsed"].values() if isinstance(v, mio.LabelColumns)]
    assert all(isinstance(t, pd.CategoricalDtype) for t in lc.raw.dtypes)
    full = mio.read_labels(LABELS, name="big.csv").raw.memory_usage(deep=True).sum()
    assert lc.raw.memory_usage(deep=True).sum() < full / 4


def test_the_solutions_page_keeps_no_raw_files():
    frame = pd.DataFrame({"gold": [f"c{i % 7}" for i in range(ROWS)], "p1": [f"k{i % 5}" for i in range(ROWS)],
                          "p2": [f"k{i % 3}" for i in range(ROWS)]})
    at = open_app("app_pages/analyse/solutions.py", 120, {"sol_src": "upload"})
    at.radio(key="sol_upload_layout").set_value("files").run()
    at.file_uploader(key="sol_upload_gold_file").set_value(("g.csv", frame[["gold"]].to_csv(index=False).encode(),
                                                            "text/csv"))
    at.file_uploader(key="sol_upload_files").set_value(
        [(f"{c}.csv", frame[[c]].rename(columns={c: "pred"}).to_csv(index=False).encode(), "text/csv")
         for c in ("p1", "p2")]).run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    kept = at.session_state["_sol_upload_files"]
    assert all(isinstance(f, KeptFile) for files in kept.values() for f in files)
    read = at.session_state["_sol_upload_read"]
    assert all(isinstance(t, pd.CategoricalDtype) for lc in read.values() for t in lc.raw.dtypes)


def test_compact_columns_give_the_same_tables_and_solutions():
    rows = ["1,a,x,1", "2,b,,2", "3,NA,y,", "4,c,x,1", "5,c,NA,1"]
    data = ("id,gold,p1,p2\n" + "\n".join(f"{i}{r}" for i in range(4) for r in rows) + "\n").encode()
    lc = mio.read_labels(data, name="t.csv")
    small = lc.compact()
    assert small.raw["gold"].dtype == "category" and small.raw["id"].dtype != "category"  # ids: all distinct
    for na in ((), ("NA",)):
        a, b = lc.with_na_values(na), small.with_na_values(na)
        assert a.missing == b.missing
        for g, p in (("gold", "p1"), ("gold", "p2"), ("p1", "p2")):
            assert a.contingency(g, p, dropna=True).to_frame().equals(b.contingency(g, p, dropna=True).to_frame())
        sa = mio.solution_columns(a, "gold", [("p1", a, "p1"), ("p2", a, "p2")], dropna=True)
        sb = mio.solution_columns(b, "gold", [("p1", b, "p1"), ("p2", b, "p2")], dropna=True)
        assert sa.gold.astype(str).tolist() == sb.gold.astype(str).tolist() and sa.left_out == sb.left_out


# ---------------------------------------------------------------- the server's housekeeping
class _Session:
    def __init__(self, sid):
        self.id, self.shut, self.session_state = sid, False, {"_upload_parsed": {"x": "cells"}}

    def shutdown(self):
        self.shut = True


class _Info:
    def __init__(self, session):
        self.session = session


def test_expired_sessions_are_shut_down_even_when_nothing_else_happens(monkeypatch):
    import threading

    from streamlit.runtime import Runtime
    from streamlit.runtime.caching.ttl_cache import TTLCache

    clock = [0.0]
    cache = TTLCache(maxsize=128, ttl=120, timer=lambda: clock[0])
    sessions = [_Session(f"s{i}") for i in range(3)]
    for i, s in enumerate(sessions):
        clock[0] = float(i)
        cache[s.id] = _Info(s)

    class Storage:
        _cache = cache

    class Manager:
        _session_storage, _storage_lock = Storage(), threading.Lock()

    class FakeRuntime:
        _session_mgr = Manager()

    monkeypatch.setattr(Runtime, "exists", staticmethod(lambda: True))
    monkeypatch.setattr(Runtime, "instance", staticmethod(lambda: FakeRuntime()))
    clock[0] = 100.0
    assert serve.expire_closed_sessions() == 0 and not any(s.shut for s in sessions)
    clock[0] = 121.5  # past the TTL of the first two only: no write came, the cache still held them
    assert serve.expire_closed_sessions() == 2
    assert [s.shut for s in sessions] == [True, True, False]
    assert list(cache._data) == ["s2"]


def test_what_an_ended_session_kept_is_let_go_however_it_ended(monkeypatch):
    """Streamlit's main loop holds on to the last session it served: an ended session can stay
    alive, and with it its state, unless that is cleared."""
    from streamlit.runtime import Runtime

    sessions = [_Session(f"s{i}") for i in range(3)]
    listed = list(sessions)

    class Manager:
        def list_sessions(self):
            return [_Info(s) for s in listed]

    class FakeRuntime:
        _session_mgr = Manager()

    monkeypatch.setattr(Runtime, "exists", staticmethod(lambda: True))
    monkeypatch.setattr(Runtime, "instance", staticmethod(lambda: FakeRuntime()))
    seen = serve._Sessions()
    assert seen.ended() == 0
    listed.remove(sessions[1])  # ended (expired, or shut down by Streamlit): no longer listed
    assert seen.ended() == 1
    assert [bool(s.session_state) for s in sessions] == [True, False, True]
    assert seen.ended() == 0


def test_without_a_runtime_housekeeping_does_nothing():
    assert serve.expire_closed_sessions() == 0
    serve.release_memory()  # and releasing memory is harmless anywhere


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt")
def test_the_server_limits_its_malloc_arenas_unless_told_otherwise():
    code = "from dashboard.server import serve; print(serve.limit_malloc_arenas())"
    env_free = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              env={k: v for k, v in __import__("os").environ.items() if k != "MALLOC_ARENA_MAX"})
    assert env_free.stdout.strip() == "True", env_free.stderr
    told = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**__import__("os").environ, "MALLOC_ARENA_MAX": "8"})
    assert told.stdout.strip() == "False", told.stderr


def test_housekeeping_runs_until_stopped(monkeypatch):
    import threading

    rounds = []
    monkeypatch.setattr(serve, "expire_closed_sessions", lambda: rounds.append(1) or 0)
    monkeypatch.setattr(serve._Sessions, "ended", lambda self: 1)
    monkeypatch.setattr(serve, "release_memory", lambda: rounds.append(2))
    stop = threading.Event()
    worker = threading.Thread(target=serve.housekeeping, args=(stop, 0.05))
    worker.start()
    time.sleep(0.4)
    stop.set()
    worker.join(2)
    assert not worker.is_alive() and rounds.count(1) >= 2 and rounds.count(2) == rounds.count(1)
