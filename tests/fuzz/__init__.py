"""Fuzz tests: hostile inputs to the library, in-process and in a subprocess (issue 28)."""
