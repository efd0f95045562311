# Two commands do everything on a fresh machine (see README):
#   make demo   set up and run the main job
#   make test   set up and run ruff, mypy --strict, the whole pytest suite and the docs build
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
OUT    := out

.PHONY: setup system-deps demo test lint typecheck pytest coverage docs bench docs-figures clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev,docs,fast,cluster,board]'
	touch $@

# Graphviz draws the trees (demo and tests); Chromium only runs the HTML page tests, pdflatex
# only the TikZ compile test.
system-deps:
	@bash tools/system-deps.sh graphviz chromium latex

# `gamesolver compile` loads the compiled kernels, compiling them once if numba's cache lacks
# them, so no later command (the demo's `analyse --time 1` included) waits for a compile.
setup: $(STAMP)
	@bash tools/system-deps.sh graphviz
	@$(BIN)/gamesolver compile

demo: setup
	@mkdir -p $(OUT)
	$(BIN)/gamesolver solve tictactoe
	$(BIN)/gamesolver best tictactoe --position 'x.o/.x./...'
	$(BIN)/gamesolver analyse ayoayo --position '[[2,6,6,1,1,7],[0,2,7,2,7,7]]' --time 1
	$(BIN)/gamesolver tree textbook --algorithm alphabeta --force -o $(OUT)/textbook-alphabeta.svg
	$(BIN)/gamesolver tree textbook --algorithm alphabeta --force -o $(OUT)/textbook-alphabeta.png
	@echo "trees drawn: $(OUT)/textbook-alphabeta.svg, $(OUT)/textbook-alphabeta.png"

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: setup
	$(BIN)/mypy

pytest: setup
	@bash tools/system-deps.sh chromium latex
	$(BIN)/pytest -q -n auto --dist worksteal --durations=15

# The same suite with a line and branch coverage report (report only, no threshold). Not part
# of `make test`: tracing every line makes pure-Python tests 3-4x slower (tic-tac-toe's whole
# minimax tree: 5.0 s alone, 16-23 s traced), which took CI's suite past 10 minutes on 2 cores.
coverage: setup
	@bash tools/system-deps.sh chromium latex
	$(BIN)/pytest -q -n auto --dist worksteal --cov --cov-report=term

# The documentation site (mkdocs.yml): strict, so a broken link or reference fails the build.
docs: setup
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet --site-dir $(OUT)/site
	@echo "documentation: $(OUT)/site/index.html"

test: lint typecheck pytest docs

# Timings go to $(OUT)/bench (untracked); the published figures live in docs/benchmarks.md.
bench: setup
	$(BIN)/python -m pip install -q -e '.[bench]'
	$(BIN)/python -m pip install -q --no-deps aima3
	@mkdir -p $(OUT)/bench
	$(BIN)/python benchmarks/run.py --json $(OUT)/bench/latest.json
	$(BIN)/python benchmarks/native.py --json $(OUT)/bench/native.json

# Regenerate the figures of docs/teaching.md from the project's own diagrams.
docs-figures: setup
	$(BIN)/python docs/make_figures.py --out docs/figures
	$(BIN)/python docs/make_export_figures.py --out docs/figures

clean:
	rm -rf $(VENV) $(OUT) .mypy_cache .ruff_cache .pytest_cache .coverage
