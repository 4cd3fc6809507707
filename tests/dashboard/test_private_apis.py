"""Every private API the app reads, listed, bounded and checked (issue 24).

A private module or attribute of Streamlit or Plotly may move in any release. Each one the app
uses is named here (``PRIVATE``); pyproject.toml bounds that package from above; and each test
fails with a message naming the package, its installed version and the file that relies on it —
so an upgrade that moves one fails here, in words, rather than as a page's traceback. A new
private import in dashboard/ or metrics/ that is not listed fails ``test_no_unlisted_private_import``.
"""

from __future__ import annotations

import importlib
import inspect
import re
import sys
import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).parents[2]

# (module, attribute or None, package, the file that uses it, whether it may be absent on the
# oldest supported version because the file guards it)
PRIVATE = [
    ("streamlit.runtime.state.session_state_proxy", "get_session_state", "streamlit", "dashboard/ui/state.py", False),
    ("streamlit.dataframe_util", "convert_pandas_df_to_arrow_table", "streamlit", "dashboard/ui/readout.py", False),
    ("streamlit.delta_generator", "_use_warning_has_been_displayed", "streamlit", "dashboard/server/process.py", True),
    ("streamlit.web.server.starlette.starlette_server", "create_starlette_app", "streamlit",
     "dashboard/server/serve.py", True),
    ("streamlit.web.server.starlette.starlette_server_config", "STATIC_ASSET_CACHE_MAX_AGE_SECONDS", "streamlit",
     "dashboard/server/serve.py", True),
    ("streamlit.web.server.starlette.starlette_static_routes", "_NO_CACHE_PATTERN", "streamlit",
     "dashboard/server/serve.py", True),
    ("streamlit.web.cli", "main", "streamlit", "dashboard/server/serve.py", False),
    ("_plotly_utils.utils", "to_typed_array_spec", "plotly", "dashboard/ui/figures/charts.py", True),
    ("_plotly_utils.utils", "is_homogeneous_array", "plotly", "dashboard/ui/figures/charts.py", True),
    ("_plotly_utils.utils", "is_skipped_key", "plotly", "dashboard/ui/figures/charts.py", True),
]
# Private module paths the source may import: each one's package must have an upper bound.
PRIVATE_PREFIXES = {"streamlit.runtime": "streamlit", "streamlit.web": "streamlit", "_plotly_utils": "plotly",
                    "streamlit.dataframe_util": "streamlit", "streamlit.delta_generator": "streamlit"}


def _moved(package: str, what: str, user: str) -> str:
    return (f"{package} {version(package)} moved {what}, which {user} relies on: adapt {user} and this test "
            f"before raising {package}'s upper bound in pyproject.toml")


def _declared() -> dict[str, Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    reqs = list(project["dependencies"]) + [r for extra in project["optional-dependencies"].values() for r in extra]
    return {Requirement(r).name: Requirement(r) for r in reqs if not r.startswith("partition-lab")}


@pytest.mark.parametrize(("module", "attr", "package", "user", "guarded"), PRIVATE,
                         ids=[f"{m}.{a}" for m, a, *_ in PRIVATE])
def test_private_api_is_where_the_app_reads_it(module, attr, package, user, guarded):
    assert module.split(".")[0] in (ROOT / user).read_text() or module in (ROOT / user).read_text(), \
        f"{user} no longer uses {module}: take it out of PRIVATE (and its bound, if it was the last)"
    try:
        found = importlib.import_module(module)
    except ImportError:
        if guarded and package == "streamlit" and "starlette" in module:
            pytest.skip(f"streamlit {version(package)} has no Starlette server ({user} guards it)")
        if guarded and package == "plotly" and Version(version("plotly")).major < 6:
            pytest.skip(f"plotly {version(package)} sends plain arrays ({user} guards it)")
        pytest.fail(_moved(package, f"the module {module}", user))
    if attr is not None:
        if guarded and not hasattr(found, attr) and package == "plotly" and Version(version("plotly")).major < 6:
            pytest.skip(f"plotly {version(package)} sends plain arrays ({user} guards it)")
        assert hasattr(found, attr), _moved(package, f"{module}.{attr}", user)


def test_plotly_typed_arrays_used_where_plotly_sends_them():
    """Plotly ≥ 6 encodes arrays as typed arrays; charts.py must then encode them the same way."""
    from dashboard.ui.figures import charts

    expected = Version(version("plotly")).major >= 6
    assert charts.TYPED_ARRAYS is expected, _moved("plotly", "_plotly_utils.utils' typed-array helpers",
                                                   "dashboard/ui/figures/charts.py")


def test_streamlit_query_params_keep_the_initial_copy():
    """dashboard/ui/state.py forgets an invalid URL value in Streamlit's copy of the URL at the start of the run."""
    from streamlit.runtime.state.query_params import QueryParams

    fields = getattr(QueryParams, "__dataclass_fields__", {})
    assert "_initial_query_params" in fields, _moved("streamlit", "QueryParams._initial_query_params",
                                                      "dashboard/ui/state.py")


def test_streamlit_runtime_keeps_its_session_manager():
    from streamlit.runtime.runtime import Runtime

    assert "_session_mgr" in inspect.getsource(Runtime.__init__), _moved("streamlit", "Runtime._session_mgr",
                                                                        "dashboard/server/serve.py")


@pytest.mark.parametrize("package", sorted({package for _m, _a, package, _u, _g in PRIVATE}))
def test_every_package_with_a_private_api_has_an_upper_bound(package):
    req = _declared()[package]
    uppers = [s for s in req.specifier if s.operator in ("<", "<=")]
    assert uppers, f"pyproject.toml declares {req} with no upper bound, but the app reads its private APIs"
    assert req.specifier.contains(version(package)), f"installed {package} {version(package)} is outside {req}"


def test_no_unlisted_private_import():
    """Any import of a private module (``_x`` or a listed internal path) in dashboard/ or metrics/ is in PRIVATE."""
    listed = {m for m, *_ in PRIVATE} | {"streamlit.runtime.state.query_params", "streamlit.runtime.runtime",
                                          "streamlit.web.server.starlette",
                                          "streamlit.runtime"}
    pattern = re.compile(r"^\s*(?:from\s+([\w.]+)\s+import|import\s+([\w.]+))", re.M)
    unlisted = []
    for path in list((ROOT / "dashboard").rglob("*.py")) + list((ROOT / "metrics").rglob("*.py")):
        for match in pattern.finditer(path.read_text()):
            module = match.group(1) or match.group(2)
            if module.startswith(".") or module.split(".")[0] in sys.stdlib_module_names:
                continue
            private = any(part.startswith("_") for part in module.split(".")) or any(
                module == p or module.startswith(p + ".") for p in PRIVATE_PREFIXES)
            if private and not module.startswith(("metrics", "dashboard")) and module not in listed:
                unlisted.append(f"{path.relative_to(ROOT)}: {module}")
    assert unlisted == [], "private imports not listed in PRIVATE (add them, with an upper bound)"
