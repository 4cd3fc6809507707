"""The version of Partition Lab: the one place it is written.

``pyproject.toml`` reads it (``[tool.setuptools.dynamic] version``) for the wheel, ``metrics.__version__``
and ``partition-lab --version`` show it; ``tests/test_version.py`` checks that all three agree.
"""

__version__ = "0.1.0"
