#!/usr/bin/env bash
# Install the system programs the project needs (Graphviz's `dot`; headless Chromium for the
# step-by-step page tests; pdflatex for the TikZ export's test) from Debian's packages when they
# are missing and we are root.
# Otherwise say how to install them, and carry on: the tests that need them skip with a reason.
set -u
need=()
command -v dot >/dev/null 2>&1 || need+=(graphviz)
if [ "${GAMESOLVER_CHROMIUM:-1}" = 1 ] && ! command -v chromium >/dev/null 2>&1; then
    need+=(chromium)
fi
# pdflatex for the TikZ export's compile test: ~40 s and ~235 MB with --no-install-recommends
if [ "${GAMESOLVER_LATEX:-1}" = 1 ] && ! command -v pdflatex >/dev/null 2>&1; then
    need+=(texlive-latex-base texlive-pictures)
fi
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing Debian packages: ${need[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null \
        || echo "warning: could not install ${need[*]}; install them with: sudo apt-get install ${need[*]}" >&2
else
    echo "note: missing ${need[*]}; install with: sudo apt-get install ${need[*]} (Debian/Ubuntu)" >&2
    echo "      or: brew install graphviz (macOS). Drawing trees needs Graphviz's 'dot'." >&2
fi
exit 0
