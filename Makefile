# Two entry points: `make run` and `make test`. Both create .venv and install what they need.
PY ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test
# The compiled build (see `make fast`), rebuilt when any source changes.
FAST := build/fast
FAST_STAMP := $(FAST)/.built
SOURCES := setup.py $(shell find src/ginrummy -name '*.py')

.PHONY: run test lint typecheck unit compiled fast browser bench clean install

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[web,tui]'
	touch $(STAMP)

# The tests also need the dev tools, the peer engines they compare with (OpenSpiel, RLCard), the
# environments' libraries (Gymnasium, PettingZoo), Ray for the arena's cluster backend, psycopg for
# PostgreSQL, and Debian's chromium (browser tests), postgresql (the store on a real server) and
# nginx (instances behind one address), gcc and Python's headers (the compiled build): installed here
# when missing (as root), else a clear stop.
$(TEST_STAMP): $(STAMP)
	$(BIN)/python -m pip install -q -e '.[web,tui,dev,peers,envs,ray,pg]'
	@missing=""; \
	test -x /usr/bin/chromium || missing="$$missing chromium"; \
	ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || missing="$$missing postgresql"; \
	test -x /usr/sbin/nginx || missing="$$missing nginx"; \
	command -v gcc >/dev/null || missing="$$missing gcc"; \
	inc=$$($(BIN)/python -c "import sysconfig; print(sysconfig.get_paths()['include'])"); \
	test -f "$$inc/Python.h" || missing="$$missing python3-dev"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing Debian's$$missing for the tests"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null || exit 1; \
	  else \
	    echo "the tests need Debian's$$missing: run 'sudo apt-get install$$missing' (or make test as root)"; exit 1; \
	  fi; \
	fi
	touch $(TEST_STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/ginrummy serve

lint: $(TEST_STAMP)
	$(BIN)/ruff check src tests bench setup.py

typecheck: $(TEST_STAMP)
	$(BIN)/mypy

# The suite on two workers (pytest-xdist), as many as CI's cores: most of its time is browsers,
# servers and games waiting on each other, not one core's work. A test file stays on one worker, so
# that a module's browser and server start once. TEST_WORKERS=0 runs it in this one process.
TEST_WORKERS ?= 2
unit: $(TEST_STAMP) $(FAST_STAMP)
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile

# The compiled build (mypyc): the engine's hot path as C, made from the same source by setup.py and
# unpacked from its wheel into build/fast. Rebuilt when any source changes (about a minute).
$(FAST_STAMP): $(TEST_STAMP) $(SOURCES)
	rm -rf $(FAST) build/wheels
	GINRUMMY_COMPILE=1 $(BIN)/python -m pip wheel -q --no-deps --no-build-isolation -w build/wheels .
	$(BIN)/python -m zipfile -e build/wheels/ginrummy-*.whl $(FAST)
	touch $@

fast: $(FAST_STAMP)

# The engine's own tests again, on the compiled build (tests/test_compiled.py checks which build ran).
COMPILED_TESTS := tests/test_compiled.py tests/test_actions.py tests/test_cards.py tests/test_driver.py \
	tests/test_hand.py tests/test_layout_search.py tests/test_melds_perf_paths.py tests/test_observation.py \
	tests/test_players.py tests/test_properties.py tests/test_record.py tests/test_rules.py tests/test_seeds.py \
	tests/test_traps.py tests/test_variants.py tests/test_protocol.py tests/test_envs_openspiel.py \
	tests/test_batch.py tests/test_match.py tests/test_game.py tests/test_expert.py
compiled: $(FAST_STAMP)
	PYTHONPATH=$(FAST) GINRUMMY_COMPILED=1 $(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile \
	  -p no:cacheprovider $(COMPILED_TESTS)

test: lint typecheck unit compiled

bench: $(TEST_STAMP)
	$(BIN)/python bench/deadwood.py

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info
