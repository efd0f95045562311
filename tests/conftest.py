"""Suite-wide test settings."""

from __future__ import annotations

import os
import signal

import pytest
from hypothesis import HealthCheck, settings

from tests.full_disk import full_disk  # noqa: F401  (a fixture: a really full file system)

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

# A suite started in the background of a shell without job control (`make test &`, nohup)
# inherits SIGINT ignored, and so would every process it starts: the Ctrl-C tests would see
# nothing. They test what a terminal's Ctrl-C does, so the suite takes SIGINT as Python does
# by default (the processes it starts get the default action, as from a terminal).
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_addoption(parser: pytest.Parser) -> None:
    """``--plugin-games``: also run the conformance suite on installed plug-in games."""
    parser.addoption(
        "--plugin-games",
        nargs="?",
        const="all",
        default=None,
        metavar="NAMES",
        help="also check installed plug-in games in tests/conformance: all of them, or the "
        "comma-separated NAMES (default: only the project's own games)",
    )


@pytest.fixture(autouse=True)
def _no_user_tablebases(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tests never read the developer's own tablebases (``~/.cache/gamesolver/tablebases``)."""
    monkeypatch.setenv("GAMESOLVER_TABLEBASE_DIR", str(tmp_path_factory.getbasetemp() / "no-tb"))
