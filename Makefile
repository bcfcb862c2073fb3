# Two commands set everything up on a fresh machine:
#   make run    start the whole system (web, Celery worker) on SQLite and a server-less broker
#   make test   install what the tests need and run the suite on PostgreSQL, Redis and Chromium
SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
VAR_DIR := $(abspath $(or $(DJANGO_VAR_DIR),var))

# Python writes its bytecode caches (in __pycache__, ignored by git) even where the environment says not
# to: without them every pytest process rewrites the asserts of every test module again (collection 7 s
# instead of 3) and every server, worker and command a test starts compiles the project's modules again.
unexport PYTHONDONTWRITEBYTECODE

TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/draughts
# The base of the Redis databases of a run: xdist worker gwN takes the base's number plus N
# (tests/support/xdist.py), so with 2 workers a run uses 13 and 14; the serial part uses the base, the
# background part (below) the base plus TEST_WORKERS (15): give a base of at most 13.
TEST_BROKER_URL ?= redis://127.0.0.1:6379/13
TEST_ENV := DATABASE_URL=$(TEST_DATABASE_URL) CELERY_BROKER_URL=$(TEST_BROKER_URL) \
	DJANGO_SECRET_KEY=tests-only-not-a-secret DJANGO_LOG_KEY=tests-only-log-key DJANGO_ALLOW_ASYNC_UNSAFE=true
# pytest-xdist worker processes of the parallel part (one per core); 0 or 1: no xdist, one process.
TEST_WORKERS ?= 2
# How xdist hands out the tests: worksteal, one by one, a worker that runs out taking from the other's share
# (loadfile, which keeps a module on one worker, left one worker idle behind a long module).
TEST_DIST ?= worksteal
XDIST := $(if $(filter-out 0 1,$(TEST_WORKERS)),-n $(TEST_WORKERS) --dist $(TEST_DIST))
# make test-fast: no browser, no server, no real worker, nothing serial
FAST_MARKERS := not e2e and not celery and not server and not serial and not background
PYTEST_ARGS ?=

.PHONY: help run test test-fast test-postgres test-sqlite fuzz bench lint services packages clean

help:
	@echo "make run    start web + worker at http://$(HOST):$(PORT)/ (SQLite, file-system broker)"
	@echo "make test   run the whole test suite (PostgreSQL, Redis, a real Celery worker, Chromium), over both cores"
	@echo "make test-fast  the pure cores and the services only (no browser, no server, no worker), for the edit-test loop"
	@echo "make fuzz   run schemathesis against the real server, longer than make test (FUZZ_SEED, FUZZ_EXAMPLES)"
	@echo "make bench  run the benchmarks in benchmarks/"
	@echo "make lint   run ruff and the architecture contracts (import-linter)"

# The venv gets uv (requirements-bootstrap.txt) from pip, and uv installs the requirements: it downloads in
# parallel and links from its cache, a fresh venv with requirements-dev.txt in ~6 s where pip took ~20 s
# (docs/benchmarks.md). Where uv cannot be installed, pip installs them as before.
$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet -r requirements-bootstrap.txt || $(PY) -m pip install --quiet --upgrade pip

INSTALL = if [ -x $(VENV)/bin/uv ]; then $(VENV)/bin/uv pip install --quiet --python $(PY) -r $(1); \
	else $(PY) -m pip install --quiet -r $(1); fi

$(VENV)/.run-installed: requirements.txt | $(PY)
	$(call INSTALL,requirements.txt)
	@touch $@

$(VENV)/.dev-installed: requirements.txt requirements-dev.txt | $(PY)
	$(call INSTALL,requirements-dev.txt)
	@touch $@ $(VENV)/.run-installed

run: $(VENV)/.run-installed
	@mkdir -p "$(VAR_DIR)"
	@test -s "$(VAR_DIR)/secret_key" || (umask 077; $(PY) -c "import secrets; print(secrets.token_urlsafe(50))" > "$(VAR_DIR)/secret_key")
	@test -s "$(VAR_DIR)/log_key" || (umask 077; $(PY) -c "import secrets; print(secrets.token_urlsafe(32))" > "$(VAR_DIR)/log_key")
	@export DJANGO_VAR_DIR="$(VAR_DIR)"; \
	$(PY) manage.py migrate --noinput -v0 && \
	$(PY) manage.py seed_demo && $(PY) manage.py seed_league_demo && \
	echo "" && \
	echo "The system is starting at http://$(HOST):$(PORT)/  (API: http://$(HOST):$(PORT)/api/v1/docs/, health: http://$(HOST):$(PORT)/healthz)" && \
	echo "Stop it with Ctrl-C." && echo "" && \
	PATH="$(abspath $(VENV))/bin:$$PATH" HOST=$(HOST) exec $(VENV)/bin/honcho -f Procfile.run start -p $(PORT)

services:
	@bash scripts/ensure-services.sh

packages:
	@bash scripts/ensure-packages.sh

# The smoke subset on SQLite runs in the background part's session once the fuzzing run has ended (it
# touches neither PostgreSQL nor Redis), beside the serial part, whose timed tests mostly wait.
test: $(VENV)/.dev-installed services packages
	$(VENV)/bin/lint-imports --no-cache
	$(MAKE) --no-print-directory test-postgres BACKGROUND_THEN=test-sqlite

# The whole suite on PostgreSQL and Redis, with real workers and the browser tests, in three parts:
# - background: the tests marked background (the fuzzing run: minutes of load, no timing) start first
#   and run beside the other parts at a lower CPU priority (nice 10, in a session of their own whose
#   autogroup is niced too: tests/support/background.py), on their own test database
#   (..._background) and Redis database (the base plus TEST_WORKERS): they take the CPU the other parts
#   leave idle and cannot starve them. Their output is printed when they end, at the end of the run.
# - parallel: the tests marked neither serial nor background, in TEST_WORKERS xdist processes, each
#   with its own test database (test_draughts_<pid>_gwN), Redis database, live channel, ports, browser.
# - serial: the tests that cannot share the machine (timed against real processes), in one process
#   after the parallel part; those also marked exclusive (they restart the shared Redis) run last,
#   once the background part has ended (it holds a lock, TEST_BACKGROUND_LOCK, while it runs).
# - then, with BACKGROUND_THEN=target (make test: test-sqlite), that make target runs in the background
#   part's session after it, at the same priority; its output is printed after the background part's.
# Each part prints its 20 slowest tests. A part that selects no test (PYTEST_ARGS naming one module) is
# not a failure; all selecting none is. An interrupted parallel part (exit 2) ends the run.
test-postgres:
	@db=test_draughts_$$$$; lock=$$(mktemp); log=$$(mktemp); then_log=$$(mktemp); then_status=$$(mktemp); \
	background_broker=$$($(PY) -c "from tests.support.xdist import shifted_redis_url as s; print(s('$(TEST_BROKER_URL)', max($(TEST_WORKERS), 1)))") || exit 2; \
	echo "== the suite on PostgreSQL, in the background at nice 10: pytest -m background $(PYTEST_ARGS) (its output at the end)"; \
	$(TEST_ENV) CELERY_BROKER_URL=$$background_broker DJANGO_TEST_DATABASE_NAME=$${db}_background \
		THEN="$(BACKGROUND_THEN)" THEN_LOG=$$then_log THEN_STATUS=$$then_status \
		setsid bash -c 'echo 10 > /proc/self/autogroup 2>/dev/null; flock "$$0" nice -n 10 "$$@"; status=$$?; \
			if [ -n "$$THEN" ]; then nice -n 10 $(MAKE) --no-print-directory $$THEN > $$THEN_LOG 2>&1; \
			echo $$? > $$THEN_STATUS; fi; exit $$status' $$lock \
		$(PY) -m pytest -m background $(PYTEST_ARGS) > $$log 2>&1 & background=$$!; \
	trap 'kill -- -$$background 2>/dev/null; rm -f $$lock $$log $$then_log $$then_status' EXIT; \
	while flock -n $$lock true && kill -0 $$background 2>/dev/null; do sleep 0.1; done; \
	echo "== the suite on PostgreSQL, in parallel: pytest $(XDIST) -m 'not serial and not background' $(PYTEST_ARGS)"; \
	$(TEST_ENV) DJANGO_TEST_DATABASE_NAME=$$db $(PY) -m pytest $(XDIST) -m "not serial and not background" $(PYTEST_ARGS); parallel=$$?; \
	if [ $$parallel = 2 ]; then exit 2; fi; \
	echo "== the suite on PostgreSQL, the tests that cannot share the machine: pytest -m serial $(PYTEST_ARGS)"; \
	$(TEST_ENV) TEST_BACKGROUND_LOCK=$$lock DJANGO_TEST_DATABASE_NAME=$${db}_serial $(PY) -m pytest -m serial $(PYTEST_ARGS); serial=$$?; \
	wait $$background; background_status=$$?; \
	echo "== the suite on PostgreSQL, the background part (pytest -m background), which ran beside the others:"; \
	cat $$log; \
	then=; if [ -n "$(BACKGROUND_THEN)" ]; then \
		echo "== make $(BACKGROUND_THEN), which ran in the background part's session after it:"; \
		cat $$then_log; then=$$(cat $$then_status); then=$${then:-2}; fi; \
	scripts/pytest-status.sh $$parallel $$serial $$background_status $$then

# The pure cores and the services on PostgreSQL, over both cores: what the edit-test loop needs.
test-fast:
	$(TEST_ENV) DJANGO_TEST_DATABASE_NAME=test_draughts_fast_$$$$ $(PY) -m pytest $(XDIST) -m "$(FAST_MARKERS)" $(PYTEST_ARGS)

# The smoke subset on the embedded defaults (SQLite, file-system broker), in a scratch var/
# (one folder per xdist worker under it: tests/support/xdist.py).
test-sqlite:
	@scratch=$$(mktemp -d); trap 'rm -rf "$$scratch"' EXIT; \
	DJANGO_VAR_DIR=$$scratch DJANGO_SECRET_KEY=tests-only-not-a-secret DJANGO_LOG_KEY=tests-only-log-key \
	DJANGO_ALLOW_ASYNC_UNSAFE=true \
	DATABASE_URL= CELERY_BROKER_URL= DJANGO_TEST_DATABASE_NAME= $(PY) -m pytest $(XDIST) -m smoke $(PYTEST_ARGS)

# schemathesis against the real web server as every role (tests/config/test_fuzz_api.py), with
# another seed and more examples than the suite's run: FUZZ_SEED=7 FUZZ_EXAMPLES=200 make fuzz
FUZZ_SEED ?= 4242
FUZZ_EXAMPLES ?= 100
fuzz: $(VENV)/.dev-installed services
	$(TEST_ENV) DJANGO_TEST_DATABASE_NAME=test_draughts_fuzz_$$$$ FUZZ_SEED=$(FUZZ_SEED) FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) \
	$(PY) -m pytest tests/config/test_fuzz_api.py -s $(PYTEST_ARGS)

bench: $(VENV)/.dev-installed services
	@set -e; for script in benchmarks/*.py; do \
		case $$script in */_*) continue;; esac; \
		echo "== $$script"; $(PY) $$script; \
	done

lint: $(VENV)/.dev-installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports --no-cache

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
