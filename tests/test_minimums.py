"""The minimum versions pyproject.toml declares are the ones constraints/minimums.txt pins (and
.ci/minimums tests in a fresh venv): no minimum declared without being tested, none tested that is
not declared."""

from __future__ import annotations

import tomllib

from packaging.requirements import Requirement

from tests import ROOT


def _declared_minimums() -> dict[str, str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    reqs = list(project["dependencies"]) + [r for extra in project["optional-dependencies"].values() for r in extra]
    out = {}
    for text in reqs:
        req = Requirement(text)
        if req.name == "partition-lab":
            continue
        lows = [s.version for s in req.specifier if s.operator == ">="]
        assert lows, f"{text}: every dependency declares its minimum (>=)"
        assert out.get(req.name, lows[0]) == lows[0], f"{req.name}: two different minimums declared"
        out[req.name] = lows[0]
    return out


def _pinned() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "constraints" / "minimums.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            name, version = line.split("==")
            pins[name] = version
    return pins


def _same(declared: str, pinned: str) -> bool:
    from packaging.version import Version

    return Version(declared) == Version(pinned) or (
        pinned.startswith(declared + ".") and all(p == "0" for p in pinned[len(declared) + 1:].split(".")))


def test_every_declared_minimum_is_pinned_and_tested():
    declared, pinned = _declared_minimums(), _pinned()
    assert sorted(declared) == sorted(pinned)
    wrong = {name: (declared[name], pinned[name]) for name in declared if not _same(declared[name], pinned[name])}
    assert wrong == {}, "declared minimum vs constraints/minimums.txt"


def test_the_ci_runs_the_minimums():
    run = (ROOT / ".ci" / "run").read_text()
    job = (ROOT / ".ci" / "minimums").read_text()
    assert "bash .ci/minimums" in run
    assert "-c constraints/minimums.txt" in job and ".venv-min" in job and "'.[test]'" in job
