"""tools/system-deps.sh installs each program on its own, under the names each distribution uses.

apt is faked: a folder of small scripts stands first (and alone) on PATH, ``id`` says root, and
``apt-cache show`` knows only the package names the test gives it; ``apt-get install NAME``
records the call and puts a fake program in place.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tools" / "system-deps.sh"
BASH = shutil.which("bash")

# package name -> the program it installs
PROGRAMS = {
    "graphviz": "dot",
    "chromium": "chromium",
    "chromium-browser": "chromium-browser",
    "texlive-latex-base": "pdflatex",
}


def fake_apt(bin_dir: Path, known: set[str]) -> Path:
    """Fake id/apt-get/apt-cache in ``bin_dir``; return the log of apt-get calls."""
    log = bin_dir / "apt.log"
    scripts = {
        "id": "echo 0",
        "apt-cache": f'case "$2" in {"|".join(sorted(known)) or "none"}) exit 0;; esac; exit 100',
        "apt-get": "\n".join(
            [
                f'echo "$@" >> {log}',
                'if [ "$1" = install ]; then for p; do case "$p" in',
                *(f"  {package}) printf '#!/bin/sh\\n' > {bin_dir}/{program}; "
                  f"chmod +x {bin_dir}/{program};;" for package, program in PROGRAMS.items()),
                "esac; done; fi",
            ]
        ),
    }  # fmt: skip
    for name, body in scripts.items():
        path = bin_dir / name
        path.write_text(f"#!{BASH}\n{body}\n", encoding="utf-8")
        path.chmod(0o755)
    return log


def run(bin_dir: Path, *programs: str) -> subprocess.CompletedProcess[str]:
    assert BASH is not None
    return subprocess.run(
        [BASH, str(SCRIPT), *programs],
        env={"PATH": str(bin_dir)},
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )


@pytest.mark.skipif(BASH is None, reason="bash is not installed")
class TestSystemDeps:
    def test_an_unknown_chromium_name_does_not_block_graphviz(self, tmp_path: Path) -> None:
        """With no Chromium package at all, Graphviz is still installed, and the run succeeds."""
        log = fake_apt(tmp_path, {"graphviz"})
        done = run(tmp_path)
        assert done.returncode == 0, done.stderr
        assert (tmp_path / "dot").exists()
        assert "install -y --no-install-recommends graphviz" in log.read_text()
        assert "Chromium is missing" in done.stderr

    def test_ubuntu_name_for_chromium(self, tmp_path: Path) -> None:
        """Where the package is chromium-browser, that name is tried after chromium."""
        fake_apt(tmp_path, {"graphviz", "chromium-browser"})
        done = run(tmp_path, "chromium")
        assert done.returncode == 0, done.stderr
        assert (tmp_path / "chromium-browser").exists()
        assert "no package named 'chromium'" in done.stdout

    def test_graphviz_alone_installs_no_chromium(self, tmp_path: Path) -> None:
        """`make demo` asks only for Graphviz: Chromium is not installed."""
        log = fake_apt(tmp_path, {"graphviz", "chromium"})
        assert run(tmp_path, "graphviz").returncode == 0
        assert "chromium" not in log.read_text()
        assert not (tmp_path / "chromium").exists()

    def test_present_programs_are_left_alone(self, tmp_path: Path) -> None:
        """Nothing is installed (not even apt-get update) when both programs are there."""
        log = fake_apt(tmp_path, {"graphviz", "chromium"})
        for program in ("dot", "chromium"):
            (tmp_path / program).write_text("#!/bin/sh\n")
            (tmp_path / program).chmod(0o755)
        assert run(tmp_path).returncode == 0
        assert not log.exists()

    def test_an_unknown_program_is_a_usage_error(self, tmp_path: Path) -> None:
        """Asking for something the script does not install exits 2 and names the choices."""
        fake_apt(tmp_path, set())
        done = run(tmp_path, "graphvis")
        assert done.returncode == 2
        assert "unknown program 'graphvis'; choose graphviz, chromium or latex" in done.stderr

    def test_latex_installs_pdflatex_and_tikz(self, tmp_path: Path) -> None:
        """`latex` (asked for by `make pytest`) installs pdflatex and the TikZ package."""
        log = fake_apt(tmp_path, {"texlive-latex-base", "texlive-pictures"})
        done = run(tmp_path, "latex")
        assert done.returncode == 0, done.stderr
        assert (tmp_path / "pdflatex").exists()
        calls = log.read_text()
        assert "--no-install-recommends texlive-latex-base" in calls
        assert "--no-install-recommends texlive-pictures" in calls
