"""The house rules of Partition Lab's layout (issue 23), read from the code itself:

* no module over 600 lines and no folder of more than 12 modules (``__init__.py`` counted), in the
  code, the tests and the benchmarks;
* no import circle among the modules of ``metrics`` and ``dashboard`` (imports inside functions
  count: they tie modules as much as those at the top);
* ``metrics`` imports nothing of the app (no ``dashboard``, Streamlit or Plotly);
* in ``dashboard``, imports run one way: pages → features → ``ui`` → ``metrics``; ``ui`` imports no
  feature and the server no page.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests import ROOT

FEATURES = ("chance", "solutions", "lesson", "compare", "papers", "generator", "properties", "fuzzy", "real_data",
            "playground", "glossary")


def _python_files(*tops: str) -> list[Path]:
    return sorted(p for top in tops for p in (ROOT / top).rglob("*.py") if "__pycache__" not in p.parts)


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, modules: frozenset[str] = frozenset()) -> set[str]:
    """Every module ``path`` imports, at any depth of its code, relative imports resolved;
    ``from package import module`` ties to that module of ``modules`` only, not to the package."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = _module_name(path) if path.name == "__init__.py" else _module_name(path).rpartition(".")[0]
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                stem = ".".join(base + ([node.module] if node.module else []))
            else:
                stem = node.module
            for alias in node.names:
                out.add(f"{stem}.{alias.name}" if f"{stem}.{alias.name}" in modules else stem)
    return out


def _graph() -> dict[str, set[str]]:
    files = {_module_name(p): p for p in _python_files("metrics", "dashboard")}
    modules = frozenset(files)
    return {name: {m for m in _imports(path, modules) if m in files and m != name} for name, path in files.items()}


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in graph:
        if v not in index:
            visit(v)
    return out


def test_no_module_is_over_600_lines():
    long = {str(p.relative_to(ROOT)): n for p in _python_files("metrics", "dashboard", "tests", "benchmarks")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 600}
    assert not long


def test_no_folder_holds_more_than_12_modules():
    folders: dict[Path, int] = {}
    for p in _python_files("metrics", "dashboard", "tests", "benchmarks"):
        folders[p.parent] = folders.get(p.parent, 0) + 1
    crowded = {str(f.relative_to(ROOT)): n for f, n in folders.items() if n > 12}
    assert not crowded


def test_no_import_circle():
    assert _circles(_graph()) == []


def test_the_circle_check_finds_a_circle():
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_the_library_imports_nothing_of_the_app():
    for path in _python_files("metrics"):
        app = sorted(m for m in _imports(path) if m.split(".")[0] in ("dashboard", "streamlit", "plotly"))
        assert not app, f"{path.relative_to(ROOT)} imports {app}"


@pytest.mark.parametrize("layer, forbidden", [
    ("dashboard/ui", ("dashboard.app_pages", "dashboard.server") + tuple(f"dashboard.{f}" for f in FEATURES)),
    ("dashboard/server", ("dashboard.app_pages",)),
] + [(f"dashboard/{f}", ("dashboard.app_pages", "dashboard.server")) for f in FEATURES])
def test_dashboard_imports_run_one_way(layer, forbidden):
    for path in _python_files(layer):
        wrong = sorted(m for m in _imports(path) if m.startswith(forbidden))
        assert not wrong, f"{path.relative_to(ROOT)} imports {wrong}"
