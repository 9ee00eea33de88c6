# Fresh machine -> working tool: `make demo`, `make test`. Everything runs from .venv.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip

.PHONY: demo test lint bench bench-real model synth-sheet browser postgres clean

$(VENV)/.base: pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	$(PIP) install -q -e .
	touch $@

$(VENV)/.dev: $(VENV)/.base
	$(PIP) install -q -e '.[dev]'
	touch $@

$(VENV)/.train: $(VENV)/.base
	$(PIP) install -q -e '.[train]'
	touch $@

demo: $(VENV)/.base
	$(VENV)/bin/sprawlscan scan samples/demo.jpg

# Debian's Chromium drives the browser test (Playwright's own browser download cannot run offline).
browser:
	command -v chromium >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq chromium; }

# Debian's PostgreSQL: the tests and bench_games.py start a server of their own from its binaries.
postgres:
	ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql; }

test: $(VENV)/.dev browser postgres
	$(VENV)/bin/ruff check .
	$(VENV)/bin/pytest -q

lint: $(VENV)/.dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

bench: $(VENV)/.dev postgres
	@for f in tests/bench/bench_*.py; do [ $$f = tests/bench/bench_real.py ] && continue; echo "== $$f"; $(PY) $$f || exit 1; done

# The real-art development set (../shared/devset, never trained on); skips when the folder is absent.
bench-real: $(VENV)/.base
	$(PY) tests/bench/bench_real.py

model: $(VENV)/.train
	$(PY) -m models.train
	$(PY) -m models.train_numbers

synth-sheet: $(VENV)/.base
	$(PY) -m vision.synth.sheet --out out/synth-sheet.png

clean:
	rm -rf $(VENV) out .pytest_cache .ruff_cache
