"""Partition Lab's test suite; its folders mirror the code's (``tests/core`` tests ``metrics/core``,
``tests/dashboard/ui`` tests ``dashboard/ui`` …). Every folder is a package, so test files in
different folders may share a name."""

from pathlib import Path

#: The repository's root (the checkout the tests run in).
ROOT = Path(__file__).resolve().parents[1]
