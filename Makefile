# Fresh machine -> working tool: `make demo`, `make test`. Everything runs from .venv.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
# Every install is pinned by constraints.txt (regenerate it with `make constraints`).
# -qq: pip's errors only (a machine's own index settings can add a warning per package otherwise).
PIP_INSTALL := $(PIP) install -qq -c constraints.txt

.PHONY: demo test test-fast lint bench bench-real model synth-sheet browser postgres tesseract constraints clean

$(VENV)/.base: pyproject.toml constraints.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install -qq --upgrade pip
	$(PIP_INSTALL) -e .
	touch $@

$(VENV)/.dev: $(VENV)/.base
	$(PIP_INSTALL) -e '.[dev]'
	touch $@

$(VENV)/.train: $(VENV)/.base
	$(PIP_INSTALL) -e '.[train]'
	touch $@

demo: $(VENV)/.base
	$(VENV)/bin/sprawlscan scan samples/demo.jpg

# Debian's Chromium drives the browser test (Playwright's own browser download cannot run offline).
browser:
	@scripts/system-packages chromium

# Debian's PostgreSQL: the tests and bench_games.py start a server of their own from its binaries.
postgres:
	@scripts/system-packages postgresql

# Debian's Tesseract OCR reads the Circle the Wagons goal cards' names (vision/towns/goals).
tesseract:
	@scripts/system-packages tesseract-ocr

test: browser postgres tesseract $(VENV)/.dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/pytest -q --durations=15

# The edit loop: everything but the slow end-to-end scans and the browser (no chromium needed).
test-fast: postgres tesseract $(VENV)/.dev
	$(VENV)/bin/pytest -q -m "not slow and not browser"

lint: $(VENV)/.dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

bench: $(VENV)/.dev postgres tesseract
	@for f in tests/bench/bench_*.py; do case $$f in */bench_real.py|*/bench_deck.py|*/bench_same.py|*/bench_print.py) continue;; esac; echo "== $$f"; $(PY) $$f || exit 1; done

# The real-art development sets (../shared/devset and ../shared/devset-wagons, never trained on; each part
# skips when its folder is absent) and the random editions of bench_print.py.
bench-real: $(VENV)/.base
	$(PY) tests/bench/bench_real.py
	$(PY) tests/bench/bench_deck.py
	$(PY) tests/bench/bench_print.py

model: $(VENV)/.train
	$(PY) -m models.train
	$(PY) -m models.train_numbers

synth-sheet: $(VENV)/.base
	$(PY) -m models.synth.sheet --out out/synth-sheet.png

# Pin what the working .venv holds (after a deliberate upgrade there) for every later install.
constraints: $(VENV)/.dev
	{ sed -n '1,2p' constraints.txt; $(PIP) list --format=freeze --exclude-editable; } > constraints.txt.new
	mv constraints.txt.new constraints.txt

clean:
	rm -rf $(VENV) out .pytest_cache .ruff_cache
