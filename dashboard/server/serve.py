"""The server process of ``partition-lab app``: the libraries the pages use imported first, the
heavy pages' shared caches filled (``dashboard/server/warm.py``), all of it frozen for the garbage
collector (``gc.freeze``), Streamlit's frontend files answered from memory (:class:`StaticFromMemory`),
then Streamlit's own command line
(``python -m dashboard.server.serve run dashboard/app.py [options]`` takes exactly the arguments of
``streamlit run``).

Why: a Streamlit server imports what a page needs on the first request that runs it. NumPy, pandas,
SciPy, Plotly, scikit-learn's clustering and ``metrics`` cost about a second of CPU, paid by
whoever opens the first page after the server starts — in a classroom, the teacher projecting it
while thirty students wait. Imported here they cost the server's start instead, before it takes
a request (``benchmarks/bench_dashboard.py`` measures a page's first load after start).

:data:`PRELOAD` names no ``dashboard`` module: imported bare, one would create its ``st.cache_data``
functions before Streamlit's runtime exists (the warm-up imports them inside runs that stand a
runtime in: ``dashboard/server/warm.py``). ``tests/dashboard/server/test_serve.py`` checks that every library the
pages load is named here.

Before all that, an explicit ``--server.port`` that another program holds is refused at once
(:func:`port_problem`). The process limits its malloc arenas (:func:`limit_malloc_arenas`) and a
housekeeping thread shuts down sessions whose browsers left more than
``server.disconnectedSessionTTL`` ago and hands their memory back (:func:`housekeeping`):
Streamlit would keep them for as long as no new session arrives.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import os
import sys
import time
import weakref

#: Imported before the server starts. The pages' libraries (the test runs every page and compares).
PRELOAD = (
    "numpy", "pandas", "pandas.io.formats.style", "pandas.io.formats.csvs", "pandas.core.reshape.reshape",
    "pyarrow", "pyarrow.pandas_compat", "pyarrow.vendored.version", "jinja2", "PIL.Image",
    "scipy.optimize", "scipy.sparse", "scipy.special", "scipy.stats", "scipy.cluster.hierarchy",
    "plotly.graph_objects", "plotly.animation", "plotly.colors", "plotly.io._json", "plotly.io.json",
    "plotly.offline", "plotly.tools",
    # Plotly's figure classes load lazily, one module per trace type and attribute: the pages' kinds.
    "plotly.graph_objs._figure", "plotly.graph_objs.bar", "plotly.graph_objs.box", "plotly.graph_objs.heatmap",
    "plotly.graph_objs.scatter", "plotly.graph_objs.sankey", "plotly.graph_objs.layout",
    "sklearn.cluster", "sklearn.datasets", "sklearn.datasets.data", "sklearn.datasets.descr",
    "sklearn.preprocessing",
    "threadpoolctl", "streamlit.emojis", "streamlit.material_icon_names",
    "metrics", "metrics.chance", "metrics.papers.experiments", "metrics.papers.gallery", "metrics.papers.generators",
    "metrics.io", "metrics.properties", "metrics.chance.models", "metrics.solutions", "metrics.core.digest",
    "metrics.core.kernels.compiled", "metrics.core.kernels.cell_stats", "metrics.core.kernels.float_assignment",
    "metrics.core.kernels.line_maxima",
    "metrics.measures.emi_compiled",
    "metrics.papers.dcv", "metrics.papers.playground",
)


def preload() -> list[str]:
    """Import :data:`PRELOAD`; the names that could not be imported (an optional library missing:
    the page that needs it says so when opened)."""
    missing = []
    for name in PRELOAD:
        try:
            importlib.import_module(name)
        except ImportError:
            missing.append(name)
    return missing


#: Bytes per read and write when the server sends a file (Starlette's default is 64 KiB).
STATIC_CHUNK = 1 << 20


def _static_chunks() -> None:
    """Send files in 1 MiB chunks. A new visitor's browser fetches the frontend's JavaScript, a few
    MB, and each chunk costs a hand-off to a worker thread for the read and a socket write: at
    64 KiB those were about a third of the server CPU that a new session costs
    (``benchmarks/bench_dashboard.py``'s "new session"). Streamlit before its Starlette server
    (Tornado's, e.g. 1.40) has no Starlette installed: nothing to change there."""
    try:
        from starlette.responses import FileResponse
    except ImportError:
        return
    FileResponse.chunk_size = STATIC_CHUNK


class StaticFromMemory:
    """An ASGI wrapper that answers a plain GET for one of Streamlit's own frontend files from
    memory, with the headers Streamlit's static handler gives it, and hands everything else —
    pages, the websocket, HEAD, ranges, conditional requests, unknown paths — to the app.

    Why: a first visit fetches about 130 such files (4.7 MB of JavaScript, fonts and styles).
    Streamlit serves each through its middleware and a file response that stats, opens, reads
    and closes the file in worker threads, even for a small one: over half of the server CPU
    that a new session costs (``benchmarks/bench_dashboard.py``; figures in docs/performance.md).
    Here only the paths of files found under the static directory at start are answered (so no
    path is ever resolved against the disk), each read on its first request and kept (what a
    first visit fetches: about 5 MB).
    """

    def __init__(self, app, directory: str, cache_max_age: int, no_cache_pattern) -> None:
        from pathlib import Path

        self.app = app
        root = Path(directory)
        self._files = {"/" + f.relative_to(root).as_posix(): f for f in root.rglob("*") if f.is_file()}
        self._cache_max_age = cache_max_age
        self._no_cache = no_cache_pattern
        self._answers: dict[str, tuple[list[tuple[bytes, bytes]], bytes]] = {}

    def _answer(self, path: str) -> tuple[list[tuple[bytes, bytes]], bytes]:
        """(headers, body) of the file at ``path``, as Streamlit's static handler sends it."""
        import os

        from starlette.responses import FileResponse

        file = self._files[path]
        response = FileResponse(file, stat_result=os.stat(file))  # content type, length, date, etag
        relative = path.lstrip("/")
        response.headers["Cache-Control"] = ("no-cache" if self._no_cache.search(relative)
                                             else f"public, immutable, max-age={self._cache_max_age}")
        answer = (list(response.raw_headers), file.read_bytes())
        self._answers[path] = answer
        return answer

    async def __call__(self, scope, receive, send) -> None:
        path = scope.get("path")
        if (scope["type"] == "http" and scope["method"] == "GET" and path in self._files
                and not any(name in _PASSED_ON_HEADERS for name, _ in scope["headers"])):
            headers, body = self._answers.get(path) or self._answer(path)
            await send({"type": "http.response.start", "status": 200, "headers": headers})
            await send({"type": "http.response.body", "body": body})
            return
        await self.app(scope, receive, send)


# Requests that Streamlit's handler answers itself: partial content and revalidation (304).
_PASSED_ON_HEADERS = frozenset({b"range", b"if-none-match", b"if-modified-since", b"if-range"})


def _static_from_memory() -> bool:
    """Wrap the app that Streamlit's Starlette server builds in :class:`StaticFromMemory`. False
    (nothing changed) where this Streamlit has no Starlette server of that shape, or where the
    app is served under a base URL path."""
    try:
        from streamlit import config, file_util
        from streamlit.web.server.starlette import starlette_server
        from streamlit.web.server.starlette.starlette_server_config import STATIC_ASSET_CACHE_MAX_AGE_SECONDS
        from streamlit.web.server.starlette.starlette_static_routes import _NO_CACHE_PATTERN
    except ImportError:
        return False
    create = getattr(starlette_server, "create_starlette_app", None)
    if create is None:
        return False

    def create_starlette_app(runtime):
        app = create(runtime)
        if (config.get_option("server.baseUrlPath") or "").strip("/"):
            return app
        return StaticFromMemory(app, file_util.get_static_dir(), STATIC_ASSET_CACHE_MAX_AGE_SECONDS,
                                _NO_CACHE_PATTERN)

    starlette_server.create_starlette_app = create_starlette_app
    return True


# ---------------------------------------------------------------- memory of closed sessions
#: Seconds between two rounds of :func:`housekeeping` (``PARTITION_LAB_HOUSEKEEPING_S`` sets another).
HOUSEKEEPING_S = 30.0


def _session_manager():
    try:
        from streamlit.runtime import Runtime
    except ImportError:
        return None
    return getattr(Runtime.instance(), "_session_mgr", None) if Runtime.exists() else None


def expire_closed_sessions() -> int:
    """Shut down the sessions whose browser left more than ``server.disconnectedSessionTTL`` ago;
    how many.

    Streamlit keeps a disconnected session that long (a reconnect resumes it) in a cache that
    removes expired entries only when it is written to: once every browser has closed, nothing
    writes, and every closed session — its state, its uploaded files — stayed in memory for good
    (``benchmarks/bench_upload_memory.py`` measures it). Streamlit has no public hook for this;
    what is used here is looked up defensively and does nothing on a Streamlit that is shaped
    otherwise."""
    manager = _session_manager()
    cache = getattr(getattr(manager, "_session_storage", None), "_cache", None)
    expire, lock = getattr(cache, "expire", None), getattr(manager, "_storage_lock", None)
    if expire is None or lock is None:
        return 0
    with lock:
        removed = expire()
    for _, info in removed:
        session = getattr(info, "session", None)
        if session is not None:
            session.shutdown()  # drops its uploaded files
    return len(removed)


class _Sessions:
    """The sessions seen alive at the last round, to notice the ones that ended since, however
    they ended (expired here, or shut down by Streamlit at once)."""

    def __init__(self) -> None:
        self.known: dict[str, weakref.ref] = {}

    def ended(self) -> int:
        """Let go of what every session that ended since the last round kept; how many ended.

        A session that ended can still be referenced: Streamlit's main loop holds on to the last
        session it served until it serves another, and with it everything the session kept. So
        its state is cleared here."""
        manager = _session_manager()
        if manager is None or not hasattr(manager, "list_sessions"):
            return 0
        alive = {info.session.id: info.session for info in manager.list_sessions()}
        gone = [sid for sid in self.known if sid not in alive]
        for sid in gone:
            session = self.known.pop(sid)()
            state = getattr(session, "session_state", None)
            if state is not None:
                state.clear()
        for sid, session in alive.items():
            if sid not in self.known:
                self.known[sid] = weakref.ref(session)
        return len(gone)


#: glibc malloc arenas of the server process. Every thread that allocates gets an arena of its own
#: (up to 8 per core) and Streamlit runs each session's script in its own thread: what sessions free
#: stays scattered over many arenas, which give little of it back to the system, even once every
#: session is gone (benchmarks/bench_upload_memory.py).
MALLOC_ARENAS = 2
_M_ARENA_MAX = -8  # mallopt's parameter (glibc malloc.h)


def limit_malloc_arenas(arenas: int = MALLOC_ARENAS) -> bool:
    """Limit the arenas before any thread starts (unless ``MALLOC_ARENA_MAX`` says otherwise);
    whether it was done (False where the C library is not glibc)."""
    import ctypes

    if "MALLOC_ARENA_MAX" in os.environ:
        return False
    try:
        return bool(ctypes.CDLL("libc.so.6").mallopt(_M_ARENA_MAX, arenas))
    except (OSError, AttributeError):
        return False


def release_memory() -> None:
    """Hand freed memory back to the system: Python's objects in reference cycles, then the C
    allocators' free pages (glibc's ``malloc_trim``, Arrow's pool). Freed memory otherwise stays in
    the process's heaps, and the machine counts it as the server's."""
    import ctypes

    gc.collect()
    try:
        import pyarrow

        pyarrow.default_memory_pool().release_unused()
    except (ImportError, AttributeError):
        pass
    with contextlib.suppress(OSError, AttributeError):  # not glibc
        ctypes.CDLL("libc.so.6").malloc_trim(0)


def housekeeping(stop=None, interval: float = HOUSEKEEPING_S) -> None:
    """Every ``interval`` seconds: shut down expired sessions, let go of what ended sessions kept
    and, when some ended, release their memory (a daemon thread of the server; ``stop``, a
    ``threading.Event``, ends it)."""
    import threading

    stop = stop or threading.Event()
    sessions = _Sessions()
    while not stop.wait(interval):
        try:
            expire_closed_sessions()
            if sessions.ended():
                release_memory()
        except Exception:  # housekeeping must never take the server down
            pass


def _option(argv: list[str], name: str) -> str | None:
    """The value of ``--name value`` or ``--name=value`` in ``argv`` (the last one given), or None."""
    value = None
    for i, arg in enumerate(argv):
        if arg == name and i + 1 < len(argv):
            value = argv[i + 1]
        elif arg.startswith(name + "="):
            value = arg.split("=", 1)[1]
    return value


def port_problem(argv: list[str]) -> str | None:
    """Why the server cannot listen where ``argv`` asks (a port given explicitly — the option or
    ``STREAMLIT_SERVER_PORT`` — that another program holds), or None. Streamlit finds out only
    when it binds, after the warm-up (8 s); without an explicit port it moves on to the next free
    one itself."""
    import os
    import socket

    port = _option(argv, "--server.port") or os.environ.get("STREAMLIT_SERVER_PORT")
    if port is None:
        return None
    address = _option(argv, "--server.address") or os.environ.get("STREAMLIT_SERVER_ADDRESS") or "127.0.0.1"
    try:
        number = int(port)
    except ValueError:
        return f"--server.port must be a number, got {port!r}"
    try:
        family = socket.AF_INET6 if ":" in address else socket.AF_INET
        with socket.socket(family, socket.SOCK_STREAM) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server binds
            s.bind((address, number))
    except OverflowError:
        return f"--server.port must be between 1 and 65535, got {number}"
    except OSError as exc:
        return (f"port {number} on {address} is not free ({exc.strerror or exc}; another Partition Lab or Streamlit "
                f"server?): stop it, or choose another port with --server.port")
    return None


def main() -> None:
    if sys.argv[1:2] == ["run"]:
        problem = port_problem(sys.argv[2:])
        if problem:  # at once, before the libraries and the warm-up (as `partition-lab` says it)
            print(f"partition-lab: error: {problem}", file=sys.stderr, flush=True)
            sys.exit(2)
    limit_malloc_arenas()
    preload()
    if sys.argv[1:2] == ["run"] and "--help" not in sys.argv:
        from dashboard.server.warm import warm

        start = time.monotonic()
        done = warm()
        failed = {page: why for page, why in done.items() if isinstance(why, str)}
        not_warmed = "".join(f"; {p} not warmed ({why})" for p, why in failed.items())
        print(f"Partition Lab: {len(done) - len(failed)} heavy page state(s) computed for their first visitors "
              f"in {time.monotonic() - start:.1f} s{not_warmed}", file=sys.stderr, flush=True)
    # Everything alive now — the libraries, the warmed caches: a few hundred thousand objects —
    # lives as long as the server. Frozen, Python's collector never scans it again; otherwise its
    # full collections, triggered by the pages' allocations, walk it all: 0.1-0.2 s spikes in a
    # slider step (benchmarks/bench_dashboard.py's p95), and slower steps on average.
    gc.collect()
    gc.freeze()
    _static_chunks()
    _static_from_memory()
    import threading

    interval = float(os.environ.get("PARTITION_LAB_HOUSEKEEPING_S", HOUSEKEEPING_S))
    threading.Thread(target=housekeeping, kwargs={"interval": interval}, name="partition-lab-housekeeping",
                     daemon=True).start()
    from streamlit.web.cli import main as streamlit_main

    sys.argv = ["streamlit", *sys.argv[1:]]
    streamlit_main(prog_name="streamlit")


if __name__ == "__main__":
    main()
