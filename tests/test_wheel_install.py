"""A regular install works outside the checkout: the wheel carries the data (assets/ as the package
``metrics.assets``), and a fresh virtual environment holding only the wheel runs the CLI, the
gallery, every page under AppTest and ``partition-lab app`` (tests/installed_smoke.py).

This builds the wheel and installs it with its dependencies from the package index, so it takes
about a minute; the timings are printed (``-s``) for the record.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
import venv
import zipfile
from pathlib import Path

import pytest

from tests import ROOT


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out), str(ROOT)],
                   check=True, capture_output=True, text=True)
    print(f"\nwheel built in {time.perf_counter() - t0:.1f} s")
    # An in-tree build leaves build/ behind: a later build must not pick up stale files from it.
    shutil.rmtree(ROOT / "build", ignore_errors=True)
    (found,) = out.glob("partition_lab-*.whl")
    return found


def test_the_wheel_carries_every_data_file_and_page(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for folder in ("presets", "paper_values"):
        shipped = sorted(n.rsplit("/", 1)[1] for n in names if n.startswith(f"metrics/assets/{folder}/"))
        in_checkout = sorted(p.name for p in (ROOT / "assets" / folder).iterdir()
                             if p.suffix in (".json", ".md"))
        assert shipped == in_checkout, folder
    # Every module of both packages (a new subpackage must be listed in pyproject's `packages`).
    sources = sorted(str(p.relative_to(ROOT)) for pkg in ("metrics", "dashboard") for p in (ROOT / pkg).rglob("*.py")
                     if "__pycache__" not in p.parts)
    assert [s for s in sources if s not in names] == []
    assert "dashboard/app.py" in names and "dashboard/static/icon.png" in names
    assert not any(n.startswith(("tests/", "benchmarks/")) for n in names)


def test_the_wheel_carries_its_version_license_changelog_and_types(wheel):
    """Packaging truth (issue 24): one version (metrics/_version.py) in the wheel's name, its metadata
    and ``metrics.__version__``; LICENSE and CHANGELOG.md shipped; ``metrics/py.typed`` for type checkers."""
    import email

    import metrics

    archive = zipfile.ZipFile(wheel)
    names = set(archive.namelist())
    dist_info = f"partition_lab-{metrics.__version__}.dist-info"
    assert wheel.name.startswith(f"partition_lab-{metrics.__version__}-")
    meta = email.message_from_bytes(archive.read(f"{dist_info}/METADATA"))
    assert meta["Version"] == metrics.__version__
    assert meta["License-Expression"] == "BSD-3-Clause"
    assert archive.read(f"{dist_info}/licenses/LICENSE") == (ROOT / "LICENSE").read_bytes()
    changelog = f"partition_lab-{metrics.__version__}.data/data/share/doc/partition-lab/CHANGELOG.md"
    assert archive.read(changelog) == (ROOT / "CHANGELOG.md").read_bytes()
    assert "metrics/py.typed" in names


def test_a_fresh_venv_with_the_wheel_serves_everything(wheel, tmp_path):
    env_dir = tmp_path / "venv"
    t0 = time.perf_counter()
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    install = subprocess.run([python, "-m", "pip", "install", "-q", f"{wheel}[dashboard]"],
                             capture_output=True, text=True)
    assert install.returncode == 0, install.stderr[-3000:]
    installed = time.perf_counter() - t0
    work = tmp_path / "elsewhere"
    work.mkdir()
    script = work / "installed_smoke.py"
    shutil.copy(ROOT / "tests" / "installed_smoke.py", script)
    t1 = time.perf_counter()
    smoke = subprocess.run([python, str(script), str(ROOT)], cwd=work, capture_output=True, text=True,
                           timeout=900)
    assert smoke.returncode == 0, (smoke.stdout[-3000:], smoke.stderr[-5000:])
    report = json.loads(smoke.stdout.strip().splitlines()[-1])
    print(f"\nfresh venv + wheel install {installed:.1f} s; smoke {time.perf_counter() - t1:.1f} s: {report}")
    assert not Path(report["installed_at"]).is_relative_to(ROOT)
    assert report["pages"] == sorted(p.stem for p in (ROOT / "dashboard" / "app_pages").rglob("*.py"))
