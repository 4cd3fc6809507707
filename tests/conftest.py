"""Shared test settings: hypothesis profiles (``HYPOTHESIS_PROFILE=ci`` in .ci/run)."""

import os

from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=60, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=200, deadline=None)
settings.register_profile("thorough", max_examples=10_000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))
