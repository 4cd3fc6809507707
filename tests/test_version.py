"""One version, written once (metrics/_version.py): ``metrics.__version__``, the installed
distribution's metadata and ``partition-lab --version`` agree (the wheel's name and metadata:
tests/test_wheel_install.py)."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from importlib.metadata import version
from pathlib import Path

import metrics
from tests import ROOT


def test_version_is_one_literal_read_by_the_build():
    assert re.fullmatch(r"\d+\.\d+\.\d+([ab]\d+|rc\d+|\.dev\d+)?", metrics.__version__)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "metrics._version.__version__"}


def test_installed_metadata_matches():
    assert version("partition-lab") == metrics.__version__


def test_cli_version():
    script = Path(sys.executable).parent / "partition-lab"  # this environment's console script
    command = [str(script)] if script.exists() else [sys.executable, "-m", "metrics.cli"]
    done = subprocess.run([*command, "--version"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"partition-lab {metrics.__version__}"
