# Every target creates .venv by itself: a fresh clone needs nothing installed by hand.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DB ?= data/fact_metric.db

.PHONY: help install test check lint typecheck fixtures evals demo bench clean

help:
	@echo "make evals     run the main job on the embedded demo data"
	@echo "make test      run the test suite"
	@echo "make check     ruff + mypy"
	@echo "make fixtures  build the demo fact store ($(DB))"
	@echo "make bench     run the benchmarks"

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[llm,dev]'
	@touch $(STAMP)

install: $(STAMP)

test: $(STAMP)
	$(BIN)/python -m pytest -q

check: lint typecheck

lint: $(STAMP)
	$(BIN)/ruff check ragspine tests benchmarks
	$(BIN)/ruff format --check ragspine tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy

fixtures: $(STAMP)
	$(BIN)/ragspine fixtures --db $(DB)

# Until the eval harness lands, the main job runs the demo questions end to end.
evals: fixtures
	$(BIN)/ragspine demo --db $(DB)

demo: evals

bench: $(STAMP)
	$(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV) data reports/latest .pytest_cache .mypy_cache .ruff_cache
