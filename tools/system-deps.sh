#!/usr/bin/env bash
# Install the system programs the project uses, when they are missing:
#   graphviz   Graphviz's `dot`, to draw trees (`make demo`, `gamesolver tree`, the tests)
#   chromium   headless Chromium, only for the tests of the step-by-step HTML pages
#   latex      pdflatex (texlive-latex-base, texlive-pictures) and pdfinfo (poppler-utils), only
#              for the TikZ export's compile tests: about 40 s and 240 MB with
#              --no-install-recommends
# Usage: tools/system-deps.sh [graphviz] [chromium] [latex]     (default: graphviz chromium)
#
# As root on Debian/Ubuntu it installs them with apt, one apt call per program, so a name this
# distribution does not know never blocks the other program, and apt's own progress is shown.
# Otherwise it says how to install them and carries on: the tests that need a missing program
# skip with a reason, and drawing says what to install.
set -u

have_chromium() {
    command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1
}

can_apt=0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    can_apt=1
fi
apt_updated=0

# apt_install PACKAGE: install one package with apt; its output stays visible. Fails quietly
# (status 1) when the package is unknown here, so the caller can try another name.
apt_install() {
    if [ "$apt_updated" = 0 ]; then
        echo "system-deps: apt-get update"
        apt-get update || return 1
        apt_updated=1
    fi
    if ! apt-cache show "$1" >/dev/null 2>&1; then
        echo "system-deps: this distribution has no package named '$1'"
        return 1
    fi
    echo "system-deps: apt-get install $1"
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$1"
}

install_graphviz() {
    command -v dot >/dev/null 2>&1 && return 0
    if [ "$can_apt" = 1 ] && apt_install graphviz && command -v dot >/dev/null 2>&1; then
        return 0
    fi
    echo "system-deps: note: Graphviz's 'dot' is missing; drawing trees needs it." >&2
    echo "      Debian/Ubuntu: sudo apt-get install graphviz; macOS: brew install graphviz" >&2
}

install_chromium() {
    have_chromium && return 0
    if [ "$can_apt" = 1 ]; then
        # Debian calls it chromium; Ubuntu chromium-browser (a wrapper that may need snap).
        for name in chromium chromium-browser; do
            if apt_install "$name" && have_chromium; then
                return 0
            fi
        done
        if command -v snap >/dev/null 2>&1; then
            echo "system-deps: trying the snap: snap install chromium"
            snap install chromium && have_chromium && return 0
        fi
    fi
    echo "system-deps: note: headless Chromium is missing; only the HTML page tests need it" >&2
    echo "      (they skip without it). Debian: sudo apt-get install chromium;" >&2
    echo "      Ubuntu: sudo snap install chromium" >&2
}

install_latex() {
    if ! command -v pdfinfo >/dev/null 2>&1 && [ "$can_apt" = 1 ]; then
        apt_install poppler-utils  # pdfinfo: the exercise sheet's page size, measured
    fi
    command -v pdflatex >/dev/null 2>&1 && return 0
    if [ "$can_apt" = 1 ]; then
        apt_install texlive-latex-base  # pdflatex
        apt_install texlive-pictures    # TikZ (pgf)
        command -v pdflatex >/dev/null 2>&1 && return 0
    fi
    echo "system-deps: note: pdflatex is missing; only the TikZ compile tests need it (they skip)." >&2
    echo "      Debian/Ubuntu: sudo apt-get install texlive-latex-base texlive-pictures poppler-utils" >&2
}

wanted=("$@")
[ ${#wanted[@]} -eq 0 ] && wanted=(graphviz chromium)
for program in "${wanted[@]}"; do
    case "$program" in
        graphviz) install_graphviz ;;
        chromium) install_chromium ;;
        latex) install_latex ;;
        *) echo "system-deps: unknown program '$program'; choose graphviz, chromium or latex" >&2; exit 2 ;;
    esac
done
exit 0
