"""Partition Lab's data: the papers' tables (``presets/``) and printed values (``paper_values/``).

This folder stays at the repository's top level and is installed as the package
``metrics.assets`` (see ``[tool.setuptools.package-dir]`` in pyproject.toml), so a wheel
carries it. Read it only through :mod:`metrics.resources`, never by a path relative to the
source tree.
"""
