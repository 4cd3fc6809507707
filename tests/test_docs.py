"""The documentation tells the truth about the code: the measures reference is generated from the
registry, every path the architecture and contributing guides name exists, every relative link
resolves, every page and URL parameter of the app is documented, the README stays a short user's
document whose quick start is the one that works, and the site builds with warnings as errors."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import metrics
from tests import ROOT

DOCS = ROOT / "docs"
README = ROOT / "README.md"
GUIDES = [README, ROOT / "CONTRIBUTING.md", ROOT / "CHANGELOG.md", *sorted(DOCS.glob("*.md"))]

QUICK_START = [
    "python3 -m venv .venv && .venv/bin/pip install -q -e '.[dashboard]' && .venv/bin/partition-lab app",
    "bash .ci/run",
]


def _hooks():
    spec = importlib.util.spec_from_file_location("docs_hooks", DOCS / "hooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _code_blocks(text: str, lang: str) -> list[str]:
    return re.findall(rf"^```{lang}\n(.*?)^```", text, flags=re.MULTILINE | re.DOTALL)


# ---------------------------------------------------------------------- the measures reference
def test_the_measures_reference_lists_every_registry_key_with_its_metadata():
    page = _hooks().measures_reference()
    for m in metrics.MEASURES.values():
        section = page.split(f"### `{m.key}` — ")[1].split("\n### ")[0]
        assert m.formula in section, m.key
        assert m.reference in section, m.key
        assert f"{m.direction} is better" in section, m.key
        if m.sklearn:
            assert m.sklearn.split(":")[0] in section, m.key
    headings = re.findall(r"^### `([^`]+)`", page, flags=re.MULTILINE)
    assert headings == list(metrics.MEASURES)


def test_the_reference_is_generated_from_the_registry_it_is_given():
    """Not a copy: a measure added to the registry appears, one taken away disappears."""
    hooks = _hooks()
    vi = metrics.MEASURES["vi"]
    extra = dataclasses.replace(vi, key="vi_twin", name="VI's twin", formula=r"\mathrm{twin}")
    registry = {"vi": vi, "vi_twin": extra}
    page = hooks.measures_reference(registry, metrics.FAMILIES)
    assert "### `vi_twin` — VI's twin" in page and r"\mathrm{twin}" in page
    assert "### `ari`" not in page
    assert page.startswith("2 measures")


def test_the_hook_puts_the_reference_in_the_measures_page_only():
    hooks = _hooks()
    source = (DOCS / "measures.md").read_text(encoding="utf-8")
    assert source.count(hooks.MARKER) == 1

    class File:
        def __init__(self, uri):
            self.src_uri = uri

    class Page:
        def __init__(self, uri):
            self.file = File(uri)

    built = hooks.on_page_markdown(source, Page("measures.md"), None, None)
    assert hooks.MARKER not in built and all(f"### `{k}`" in built for k in metrics.MEASURES)
    assert hooks.on_page_markdown(source, Page("library.md"), None, None) == source
    with pytest.raises(ValueError, match="marker"):
        hooks.on_page_markdown("# Measures", Page("measures.md"), None, None)


# ---------------------------------------------------------------------- paths and links
def _tree_paths(block: str) -> list[str]:
    """The paths drawn by a folder tree: a name's indentation (two spaces a level) places it under
    the folder above it; text further right continues a line's description."""
    paths, stack = [], []
    for line in block.splitlines():
        indent = len(line) - len(line.lstrip(" "))
        if not line.strip() or indent >= 20:
            continue
        depth = indent // 2
        head = line.strip().split("  ")[0]
        names = [w for w in head.split() if w.endswith("/") or re.fullmatch(r"[\w.]+\.\w+", w)]
        if not names:
            continue
        del stack[depth:]
        for name in names:
            paths.append("".join(stack) + name)
        if len(names) == 1 and names[0].endswith("/"):
            stack.append(names[0])
    return paths


def test_the_architecture_tree_names_real_folders_and_every_package():
    text = (DOCS / "architecture.md").read_text(encoding="utf-8")
    paths = _tree_paths(_code_blocks(text, "text")[0])
    missing = [p for p in paths if not (ROOT / p).exists()]
    assert not missing
    packages = {str(p.parent.relative_to(ROOT)) + "/" for top in ("metrics", "dashboard")
                for p in (ROOT / top).rglob("__init__.py") if "__pycache__" not in p.parts}
    assert packages - set(paths) == set(), "a package the architecture page does not show"
    assert {"metrics/solutions.py", "dashboard/app.py", "dashboard/app_pages/", "tests/", "benchmarks/"} <= set(paths)


def test_the_tree_reader_places_names_under_their_folders():
    block = ("a/                x\n  b/              y\n    c.py          z\n                      more words/\n"
             "  d/ e/\n")
    assert _tree_paths(block) == ["a/", "a/b/", "a/b/c.py", "a/d/", "a/e/"]


PATH_LIKE = re.compile(r"`((?:metrics|dashboard|tests|benchmarks|assets|docs|\.ci|\.streamlit)/[\w./-]*"
                       r"|[\w-]+\.(?:md|toml|yml|yaml|cfg))`")


@pytest.mark.parametrize("guide", ["docs/architecture.md", "CONTRIBUTING.md", "docs/performance.md",
                                   "docs/dashboard.md", "docs/library.md", "README.md"])
def test_every_path_a_guide_names_exists(guide):
    text = (ROOT / guide).read_text(encoding="utf-8")
    named = {m.split("::")[0] for m in PATH_LIKE.findall(text)}
    assert named, f"{guide} names no path: the pattern no longer finds them"
    missing = sorted(p for p in named if not (ROOT / p).exists())
    assert not missing, f"{guide} names paths that do not exist: {missing}"


def _slug(heading: str) -> str:
    text = re.sub(r"\{.*?\}|`", "", heading).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return re.sub(r"\s+", "-", text)


def _anchors(path: Path) -> set[str]:
    text = path.read_text(encoding="utf-8")
    out = {_slug(h) for h in re.findall(r"^#+ (.+)$", text, flags=re.MULTILINE)}
    out |= set(re.findall(r"\{ #([\w-]+) \}", text))
    return out


@pytest.mark.parametrize("guide", GUIDES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(guide):
    text = guide.read_text(encoding="utf-8")
    bad = []
    for target in re.findall(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)", text):
        if re.match(r"[a-z]+:", target):
            continue
        file, _, anchor = target.partition("#")
        path = (guide.parent / file).resolve() if file else guide
        if not path.exists() or (anchor and path.suffix == ".md" and anchor not in _anchors(path)):
            bad.append(target)
    assert not bad, f"{guide.name}: links that do not resolve: {bad}"


def test_the_site_navigation_holds_every_page():
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    in_nav = set(re.findall(r"^  - [^:]+: (\S+\.md)$", config, flags=re.MULTILINE))
    assert in_nav == {p.name for p in DOCS.glob("*.md")}


# ---------------------------------------------------------------------- the dashboard page
def _declared_params(page: Path) -> set[str]:
    """The names a page declares with Param(...): literals, and constants of modules it imports."""
    tree = ast.parse(page.read_text(encoding="utf-8"))
    aliases = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            for a in node.names:
                aliases[a.asname or a.name] = (node.module, a.name)
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Param" and node.args:
            first = node.args[0]
            if isinstance(first, ast.Constant):
                names.add(first.value)
            elif isinstance(first, ast.Attribute) and isinstance(first.value, ast.Name) \
                    and first.value.id in aliases:
                module, name = aliases[first.value.id]
                names.add(getattr(importlib.import_module(f"{module}.{name}"), first.attr))
    return names


def test_every_page_and_url_parameter_is_documented():
    text = (DOCS / "dashboard.md").read_text(encoding="utf-8")
    app = (ROOT / "dashboard" / "app.py").read_text(encoding="utf-8")
    for url in re.findall(r'url_path="(\w+)"', app):
        assert f"`/{url}`" in text, url
    names = set()
    for page in sorted((ROOT / "dashboard" / "app_pages").rglob("*.py")):
        names |= _declared_params(page)
    from dashboard.generator import (
        views as generator_views,  # its sliders are declared in a loop
    )
    names |= {p.key for p in generator_views.PARAMS.values()}
    assert len(names) > 60
    missing = sorted(n for n in names if f"`{n}`" not in text)
    assert not missing, f"URL parameters docs/dashboard.md does not document: {missing}"


# ---------------------------------------------------------------------- the README
def test_the_readme_is_short_and_its_quick_start_is_the_one_that_works():
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 250
    quick = text.split("## Quick start")[1]
    commands = [line for line in _code_blocks(quick, "bash")[0].splitlines() if line and not line.startswith("#")]
    assert commands == QUICK_START
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "README's test command" in ci and "pip install -q -e '.[test]'" in ci
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'partition-lab = "metrics.cli:main"' in pyproject and "\ndashboard = [" in pyproject
    # No development log: no dated measurements, no history of the machine that measured them.
    assert not re.search(r"20\d\d-\d\d-\d\d", text)
    assert "2-core" not in text and "→" not in text.split("## The library")[0]


def test_the_readme_measure_table_lists_every_registry_key_under_its_family():
    """The README's table of measures is written by hand: it names every registered key exactly
    once, under the family the registry gives it, in the registry's order."""
    section = README.read_text(encoding="utf-8").split("## The measures")[1].split("\n## ")[0]
    rows = [line for line in section.splitlines() if line.startswith("| ") and "`" in line]
    listed = {row.split("|")[1].strip(): re.findall(r"`([a-z0-9_]+)`", row.split("|")[2]) for row in rows}
    families = {"information": "information", "set matching": "matching", "pair counting": "pairs",
                "element-wise": "elementwise"}
    assert set(listed) == set(families), listed.keys()
    for title, family in families.items():
        expected = [key for key, m in metrics.MEASURES.items() if m.family == family]
        assert listed[title] == expected, (title, set(expected) ^ set(listed[title]))
    assert sum(len(keys) for keys in listed.values()) == len(metrics.MEASURES)


def test_the_readme_python_runs():
    """The one-line scikit-learn use right after the quick start, and the library in ten lines, run."""
    import numpy as np

    text = README.read_text(encoding="utf-8")
    after_quick_start = _code_blocks(text.split("## Quick start")[1], "python")[0]
    scope: dict = {}
    exec(after_quick_start, scope)  # the README's own code
    assert scope["adjusted_rand_score"]([0, 0, 1, 1], [1, 1, 0, 0]) == 1.0
    ten_lines = _code_blocks(text.split("## The library in ten lines")[1], "python")[0]
    assert len([line for line in ten_lines.splitlines() if line.strip()]) <= 11  # the import and ten lines
    rng = np.random.default_rng(0)
    scope = {name: rng.integers(0, k, 120) for name, k in (("y_true", 4), ("y_pred", 5), ("km", 3), ("wd", 4))}
    exec(ten_lines, scope)
    assert scope["t"].n == 60  # the from_table example


# ---------------------------------------------------------------------- the site builds
def test_the_site_builds_with_warnings_as_errors(tmp_path):
    """``mkdocs build --strict`` (a few seconds): the generated reference, the API reference from the
    docstrings, every internal link and anchor; offline (no web fonts)."""
    pytest.importorskip("mkdocs", reason="the docs extra is not installed")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                         cwd=ROOT, capture_output=True, text=True, timeout=120, env=env, check=False)
    assert run.returncode == 0, run.stderr[-3000:]
    measures = (tmp_path / "site" / "measures" / "index.html").read_text(encoding="utf-8")
    assert all(f'id="{k}"' in measures for k in metrics.MEASURES)
    assert "fonts.googleapis.com" not in (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
