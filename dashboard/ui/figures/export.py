"""Figures for slides: every chart of the app, drawn with :func:`show_chart`, offers itself as SVG
and PNG at slide size (16:9, :data:`SLIDE_WIDTH` × :data:`SLIDE_HEIGHT` px, text at the
projector's sizes).

Plotly's modebar already downloads a PNG, but at the size of the chart on screen; a slide wants
a fixed 16:9 frame, type a room can read, and a vector format. The images are made by Plotly's
static export (kaleido 1.x, called directly so that it does not depend on the Plotly version),
which drives a headless Chromium — Debian's ``/usr/bin/chromium``,
offline. Making one costs hundreds of milliseconds (seconds for the first, which starts the
browser), so nothing is made until a user asks: the download buttons hand Streamlit a callable,
run only on a click, and the bytes are cached across sessions by the figure's digest (a class of
thirty downloading the same chart makes it once).
"""

from __future__ import annotations

import atexit
import functools
import hashlib
import json
import os
import shutil
import threading
from pathlib import Path
from typing import Any

import streamlit as st
from plotly.io.json import to_json_plotly

from dashboard.ui.readout import PROJECTOR_SIZES, readable

SLIDE_WIDTH, SLIDE_HEIGHT = 1600, 900
FORMATS = {"svg": "image/svg+xml", "png": "image/png"}
DEBIAN_CHROMIUM = "/usr/bin/chromium"
# One export at a time: the browser is shared by every session of the server.
_LOCK = threading.Lock()
_STARTED = False


def chromium_path() -> str | None:
    """The Chromium the export drives: ``BROWSER_PATH`` if set, else Debian's, else one on PATH."""
    for candidate in (os.environ.get("BROWSER_PATH"), DEBIAN_CHROMIUM, shutil.which("chromium"),
                      shutil.which("chromium-browser")):
        if candidate and Path(candidate).exists():
            return candidate
    return None


def slide_spec(fig: Any) -> dict:
    """The figure as it goes on a slide: 16:9 at slide size, white background, every piece of text
    a quarter larger than on screen and at least the projector's tick size
    (``readout.PROJECTOR_SIZES``). ``fig`` is not changed."""
    spec = json.loads(to_json_plotly(fig.to_dict() if hasattr(fig, "to_dict") else fig))
    layout = {**spec.get("layout", {}), "width": SLIDE_WIDTH, "height": SLIDE_HEIGHT, "autosize": False,
              "paper_bgcolor": "white", "plot_bgcolor": "white"}
    data, layout = readable(spec.get("data", []), layout, PROJECTOR_SIZES)
    return _enlarged({"data": data, "layout": layout})


# Text on a slide: a quarter larger than on screen (a 1600 px frame shown on a wall), and never
# under the projector's tick size (readable keeps a size a builder set on purpose, even a small one).
SLIDE_TEXT_SCALE = 1.25
SLIDE_MIN_FONT = PROJECTOR_SIZES.tick


def _enlarged(node: Any) -> Any:
    if isinstance(node, dict):
        out = {}
        for k, v in node.items():
            if k.endswith("font") and isinstance(v, dict) and isinstance(v.get("size"), (int, float)):
                v = {**v, "size": max(round(v["size"] * SLIDE_TEXT_SCALE), SLIDE_MIN_FONT)}
            out[k] = _enlarged(v)
        return out
    if isinstance(node, list):
        return [_enlarged(v) for v in node]
    return node


def _kaleido():
    # Imported on the first export only: a page that exports nothing never loads it.
    import kaleido

    global _STARTED
    if not _STARTED:
        path = chromium_path()
        if path:
            os.environ.setdefault("BROWSER_PATH", path)
        # A persistent browser for the process (kaleido >= 1.1): later exports take a fraction of
        # the first one's time. Without it, each export starts its own browser.
        if hasattr(kaleido, "start_sync_server"):
            kaleido.start_sync_server(silence_warnings=True)
        _STARTED = True
    return kaleido


def stop_browser() -> None:
    """Close the export's browser, if one was started (at exit; tests call it when done)."""
    global _STARTED
    with _LOCK:
        if _STARTED:
            import kaleido

            if hasattr(kaleido, "stop_sync_server"):
                kaleido.stop_sync_server(silence_warnings=True)
            _STARTED = False


atexit.register(stop_browser)


def render(spec: dict, fmt: str) -> bytes:
    """``spec`` (a figure's plain dict, laid out by :func:`slide_spec`) as ``fmt`` ("svg" or "png")
    bytes. ``RuntimeError`` in the interface's words when no Chromium is installed."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}: choose one of {', '.join(FORMATS)}")
    if chromium_path() is None:
        raise RuntimeError("Figures for slides need Chromium on the server (Debian: apt-get install chromium).")
    with _LOCK:
        return _kaleido().calc_fig_sync(spec, opts={"format": fmt, "width": SLIDE_WIDTH, "height": SLIDE_HEIGHT,
                                                    "scale": 1})


def digest(spec: dict) -> str:
    return hashlib.sha256(json.dumps(spec, sort_keys=True).encode()).hexdigest()


@st.cache_data(max_entries=64, show_spinner=False)
def _cached_image(key: str, fmt: str, _spec: dict) -> bytes:
    # Keyed by the figure's digest (``key``): the spec itself is not hashed again.
    return render(_spec, fmt)


def slide_image(fig: Any, fmt: str) -> bytes:
    """The figure as a slide image (cached across sessions by its digest and the format)."""
    spec = slide_spec(fig)
    return _cached_image(digest(spec), fmt, spec)


def export_buttons(fig: Any, *, key: str, name: str | None = None) -> None:
    """Two small download buttons under a chart: SVG and PNG at slide size, made on the click."""
    name = name or key
    available = chromium_path() is not None
    why = (f"{SLIDE_WIDTH} × {SLIDE_HEIGHT} px, 16:9, text at projector size." if available else
           "Needs Chromium on the server, which this one lacks.")
    with st.container(horizontal=True, gap="small", key=f"{key}_slides"):
        for fmt, mime in FORMATS.items():
            st.download_button(f"{fmt.upper()} for slides", functools.partial(slide_image, fig, fmt),
                               file_name=f"{name}.{fmt}", mime=mime, key=f"{key}_slide_{fmt}", on_click="ignore",
                               type="tertiary", icon=":material/download:", help=why, disabled=not available)


def show_chart(fig: Any, *, key: str, name: str | None = None, **kwargs):
    """``st.plotly_chart(fig, key=key, **kwargs)`` followed by the chart's slide exports
    (:func:`export_buttons`); returns what ``st.plotly_chart`` returns (a selection event when
    ``on_select`` is set). ``name`` is the downloaded file's name (the key by default)."""
    kwargs.setdefault("width", "stretch")
    event = st.plotly_chart(fig, key=key, **kwargs)
    export_buttons(fig, key=key, name=name)
    return event
