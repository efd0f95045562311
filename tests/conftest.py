"""Suite-wide test settings."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

# On CI the property tests draw the same examples every run (derandomize), so a red build is
# always reproducible; locally they explore new examples each time. No test has a deadline:
# a shared 2-core machine is too noisy for per-example timings.
settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")
