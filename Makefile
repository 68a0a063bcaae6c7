# Two entry points: `make run` and `make test`. Both create .venv and install what they need.
PY ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test

.PHONY: run test lint typecheck unit browser bench clean install

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[web,tui]'
	touch $(STAMP)

# The tests also need the dev tools, the peer engines they compare with (OpenSpiel, RLCard), the
# environments' libraries (Gymnasium, PettingZoo), Ray for the arena's cluster backend and
# Debian's chromium for the browser tests: installed here when missing (as root), else a clear stop.
$(TEST_STAMP): $(STAMP)
	$(BIN)/python -m pip install -q -e '.[web,tui,dev,peers,envs,ray]'
	@test -x /usr/bin/chromium || { \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing Debian's chromium for the browser tests"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else \
	    echo "the browser tests need /usr/bin/chromium: run 'sudo apt-get install chromium' (or make test as root)"; exit 1; \
	  fi; }
	touch $(TEST_STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/ginrummy serve

lint: $(TEST_STAMP)
	$(BIN)/ruff check src tests bench

typecheck: $(TEST_STAMP)
	$(BIN)/mypy

unit: $(TEST_STAMP)
	$(BIN)/python -m pytest

test: lint typecheck unit

bench: $(TEST_STAMP)
	$(BIN)/python bench/deadwood.py

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info
