"""The lesson's links: to its own steps and "explore this" links into the other pages.

A link the app makes determines the page it opens (``dashboard.ui.state``: what it does not name
takes its default), so an explore link names the state its step needs; the state helpers below
spell out every parameter of the target page at the value the step relies on. :func:`explore`
leaves the values that are the page's defaults out of the link, and a link whose whole state is
the defaults carries the link mark instead (``dashboard.ui.state.link_params``). The target page
leaves the address as the link wrote it (``dashboard.ui.state``, "One history entry per link"),
so the browser's history holds one entry for the page and Back returns to the step in one press.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import metrics
from dashboard.chance import vocabulary as cvocab
from dashboard.generator import views as gv
from dashboard.ui.controls import UNITS, Settings
from dashboard.ui.state import LINK_MARK
from metrics.papers import gallery

PAGE = "app_pages/learn/lesson.py"
COMPARE, TABLE_LAB = "app_pages/analyse/compare.py", "app_pages/analyse/table_lab.py"
PROPERTY_CHECKER, GENERATOR_LAB = "app_pages/explore/property_checker.py", "app_pages/explore/generator_lab.py"
FUZZY_LAB, GALLERY = "app_pages/explore/fuzzy_lab.py", "app_pages/learn/gallery.py"
CHANCE = cvocab.PAGE


@dataclass(frozen=True)
class Link:
    """A page link: the page script (relative to app.py), its label, its query parameters and a
    tooltip."""

    page: str
    label: str
    params: dict = field(default_factory=dict)
    help: str | None = None


def shared_params(settings: Settings) -> dict[str, str]:
    """The sidebar's settings as URL parameters, left out at their defaults (nats, β = 1)."""
    out = {}
    if settings.unit != next(iter(UNITS)):
        out["log"] = settings.unit
    if settings.beta != 1:
        out["beta"] = f"{settings.beta:g}"
    return out


# The full state of each page the lesson links into: every parameter the page reads (its defaults,
# as of this writing), so the link opens exactly the state it names whatever the session did before.
# A step overrides what its claim needs.
def compare_state(a: str, b: str, keys: list[str], **over) -> dict:
    return {"a": a, "b": b, "m": list(keys), "classes": "10", "noise": "3", "sweep": "noise", **over}


def table_lab_state(preset: str) -> dict:
    return {"src": "table", "preset": preset, "fam": list(metrics.FAMILIES)}


def property_checker_state(**over) -> dict:
    return {"p_m": "vi", "p_seed": "0", "p_t": "rh_figure3", "p_tab": "n-invariance: scale", "p_lam": "2",
            "p_T": "false", "p_op": "split", "p_sc": "K1", "p_parts": "2", **over}


def generator_lab_state(**over) -> dict:
    sliders = {p.key: (f"{p.default:g}" if p.is_eps else str(int(p.default))) for p in gv.PARAMS.values()}
    return {gv.TAB_KEY: gv.LAB_TAB, **sliders, "g_int": "false", "g_x": "eps1",
            "g_m": ["v_measure", "vi", "nvi", "q0", "f_measure", "rand", "ari", "jaccard", "fowlkes_mallows",
                    "hubert_gamma", "bcubed_f"],
            "g_fail": "false", "g_fm": "rand", "g_fp": "P1", **over}


def fuzzy_lab_state(**over) -> dict:
    return {"fz_n": "100", "fz_scheme": "halving", "fz_classes": "100", "fz_soft": "50", "fz_noise": "0",
            "fz_m": "v_measure", "fz_seed": "0", "fz_eseed": "0", "fz_e1_max": "128", "fz_e1_rep": "20",
            "fz_e2_max": "200", "fz_e3_n": "200", "fz_e3_steps": "11", **over}


# Each target page's declared defaults (``page_state`` of the page; tests/dashboard/lesson checks these
# against the declarations). An explore link leaves them out: what a link does not name takes its
# default anyway, and a value the page would drop from the address bar on arrival would give the
# browser's history a second entry for that page — Back would need two presses to reach the step.
DEFAULTS: dict[str, dict[str, str | list[str]]] = {
    COMPARE: {"a": "rr_singletons", "b": "rr_solution_r", "m": ["v_measure", "nvi", "vi", "ari", "vd_n"],
              "classes": "10", "noise": "3", "sweep": "noise"},
    TABLE_LAB: {"src": "table", "preset": "rh_figure3", "fam": list(metrics.FAMILIES)},
    PROPERTY_CHECKER: {"p_m": "vi", "p_seed": "0", "p_t": "rh_figure3", "p_lam": "2", "p_T": "false",
                       "p_op": "split", "p_parts": "2"},
    GENERATOR_LAB: {gv.TAB_KEY: gv.LAB_TAB, "g_int": "false", "g_x": "eps1", "g_fail": "false", "g_fm": "rand",
                    "g_fp": "P1",
                    **{p.key: (f"{p.default:g}" if p.is_eps else str(int(p.default))) for p in gv.PARAMS.values()},
                    "g_m": ["v_measure", "vi", "nvi", "q0", "f_measure", "rand", "ari", "jaccard", "fowlkes_mallows",
                            "hubert_gamma", "bcubed_f"]},
    FUZZY_LAB: {"fz_n": "100", "fz_scheme": "halving", "fz_share": "50", "fz_classes": "100", "fz_soft": "50",
                "fz_noise": "0", "fz_m": "v_measure", "fz_seed": "0", "fz_eseed": "0", "fz_e1_max": "128",
                "fz_e1_rep": "20", "fz_e2_max": "200", "fz_e3_n": "200", "fz_e3_steps": "11"},
    CHANCE: {cvocab.TAB_KEY: cvocab.SWEEP_TAB, "ch_seed": str(cvocab.DEFAULT_SEED),
             **{k: str(v) for k, v in cvocab.DEFAULT_SWEEP.items()}, "ch_m": list(cvocab.DEFAULT_SWEEP_KEYS)},
    GALLERY: {"gal_p": list(gallery.PAPERS), "gal_open": "false"},
}


def explore(page: str, label: str, state: dict, settings: Settings) -> Link:
    """An "explore this" link to ``page`` in ``state``: the values that are the page's defaults left
    out (:data:`DEFAULTS`), the sidebar's settings carried; a state that is all defaults is named by
    the link mark (a link that names nothing would be a return, bringing back the session's state)."""
    defaults = DEFAULTS[page]
    named = {k: v for k, v in state.items() if _text(v) != _text(defaults.get(k))}
    if not named:
        named = {LINK_MARK: "1"}
    return Link(page, label, {**named, **shared_params(settings)})


def _text(value) -> str | list[str] | None:
    if value is None:
        return None
    return [str(v) for v in value] if isinstance(value, (list, tuple)) else str(value)
