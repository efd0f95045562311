# Two commands do everything on a fresh machine (see README):
#   make demo   set up and run the main job
#   make test   set up and run ruff, mypy --strict and the whole pytest suite
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
OUT    := out

.PHONY: setup system-deps demo test lint typecheck pytest bench docs-figures clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev,fast]'
	touch $@

system-deps:
	@bash tools/system-deps.sh

setup: $(STAMP) system-deps

demo: setup
	@mkdir -p $(OUT)
	$(BIN)/gamesolver solve tictactoe
	$(BIN)/gamesolver best tictactoe --position 'x.o/.x./...'
	$(BIN)/gamesolver analyse ayoayo --position '[[2,6,6,1,1,7],[0,2,7,2,7,7]]' --time 1
	$(BIN)/gamesolver tree textbook --algorithm alphabeta -o $(OUT)/textbook-alphabeta.svg
	$(BIN)/gamesolver tree textbook --algorithm alphabeta -o $(OUT)/textbook-alphabeta.png
	@echo "trees drawn: $(OUT)/textbook-alphabeta.svg, $(OUT)/textbook-alphabeta.png"

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: setup
	$(BIN)/mypy

pytest: setup
	$(BIN)/pytest -q

test: lint typecheck pytest

bench: setup
	$(BIN)/python -m pip install -q -e '.[bench]'
	$(BIN)/python -m pip install -q --no-deps aima3
	$(BIN)/python benchmarks/run.py --json benchmarks/results/latest.json
	$(BIN)/python benchmarks/native.py --json benchmarks/results/native.json

clean:
	rm -rf $(VENV) $(OUT) .mypy_cache .ruff_cache .pytest_cache
