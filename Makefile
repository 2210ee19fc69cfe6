# Boardwalk developer commands. `make run` to try it, `make test` before pushing.
# The virtualenv is (re)built only when pyproject.toml changes, via a stamp file.

VENV := .venv
PY := $(VENV)/bin/python
PYTEST_ARGS ?=
# Test processes (pytest-xdist); each gets its own test database (test_<name>_gw0, ...).
# Three on a two-core machine: a third of the suite's time is spent waiting (on a browser,
# a server started as its own process, a held lock, a tablet's retry timer), and the third
# process works while another waits (docs/testing.md, "How long the suite takes").
# Work stealing: an idle process takes tests queued for a busy one, so neither waits for
# the other's last minute. A stolen test may run after a transactional test's flush; the
# role groups come back with the flush (tournament/apps.py), as Django's permissions do.
PYTEST_WORKERS ?= 3
PYTEST_DIST ?= worksteal
# Python's compiled-module cache (__pycache__/, ignored by git) is written for the tests even
# where the environment turns it off (PYTHONDONTWRITEBYTECODE, set on some CI machines):
# without it each test process compiles and assertion-rewrites every test module again (8 s
# of its 9-s start here) and every server or worker a test starts compiles the project.
test e2e: export PYTHONDONTWRITEBYTECODE :=

.PHONY: install run test e2e proofs mutation bench lint format clean messages deploy-check redteam

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	@echo "Installing Boardwalk and its dependencies into $(VENV) (a minute or two the first time)"
	@test -x $(PY) || python3 -m venv $(VENV)
	@$(PY) -m pip install --quiet --upgrade pip
	@# setuptools' generic advice on editable installs is no news for a source checkout.
	@PYTHONWARNINGS=ignore $(PY) -m pip install --quiet -e '.[dev]'
	@touch $@

# The web server and one background worker (printouts, big imports) side by side; Ctrl-C
# stops both (the trap also stops the worker if the server exits on its own). The worker
# writes to var/jobs_worker.log: the demo's printouts, built ahead, would bury the address.
# Once the server answers, `welcome` prints the address, the demo's sign-ins and what to
# open first.
RUN_ADDRESS ?= 127.0.0.1:8000
WORKER_LOG := var/jobs_worker.log
run: install
	@echo "Preparing the database (db.sqlite3, or DATABASE_URL)"
	@$(PY) manage.py migrate --noinput --verbosity 0
	@$(PY) manage.py load_demo
	@mkdir -p $(dir $(WORKER_LOG))
	@$(PY) manage.py jobs_worker >>$(WORKER_LOG) 2>&1 & worker=$$!; \
	$(PY) manage.py welcome --address $(RUN_ADDRESS) --wait 120 --worker-log $(WORKER_LOG) & \
	welcome=$$!; \
	trap 'kill $$worker $$welcome 2>/dev/null; wait $$worker 2>/dev/null' EXIT INT TERM; \
	$(PY) manage.py runserver $(RUN_ADDRESS)

# mypy type-checks the apps (pyproject.toml, [tool.mypy]); its cache in .mypy_cache/ makes a
# run after a small change take seconds (a first run, a minute or so).
test: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(PY) -m pytest -n $(PYTEST_WORKERS) --dist $(PYTEST_DIST) $(PYTEST_ARGS)

# One whole tournament day in a real browser (tests/browser/test_e2e_tournament_day.py), the
# same day run from the event cockpit with clicks only (tests/browser/test_cockpit_day.py), and
# a charity knockout with every role in its own browser, clicks only, and a spectator's phone
# (tests/browser/test_knockout_day_browser.py); `make test` leaves them out (-m 'not e2e' in
# pyproject.toml). Screenshots: artifacts/e2e/, artifacts/cockpit/ and artifacts/knockout-day/.
e2e: install
	$(PY) -m pytest -m e2e tests/browser/test_e2e_tournament_day.py \
		tests/browser/test_cockpit_day.py tests/browser/test_knockout_day_browser.py $(PYTEST_ARGS)

# The seating proofs `make test` and CI leave out (the `proof` marker): CP-SAT models and
# exhaustive searches of minutes to hours each (README, docs/testing.md). One process: each
# proof keeps a core busy.
proofs: install
	@$(PY) -c "import ortools" 2>/dev/null || { \
		echo "make proofs needs OR-Tools: $(PY) -m pip install -e '.[proofs]'"; exit 1; }
	$(PY) -m pytest -p no:xdist -m proof tests/seating/engine/ $(PYTEST_ARGS)

# Mutation testing of the rule modules with mutmut (benchmarks/mutation.py), one module at a
# time in its own copy of the project under var/mutation/; docs/testing.md keeps the dated
# scores and why the survivors live. CPU-heavy (minutes to hours a module), niced, not in CI.
# MUTATION_MODULES="gameplay formats" picks modules (benchmarks/mutation.py --list names
# them); MUTATION_JOBS=2 runs two mutants at once.
MUTATION_MODULES ?=
mutation: install
	nice -n 19 $(PY) benchmarks/mutation.py $(MUTATION_MODULES)

# The load bench (benchmarks/load.py) drives gunicorn with Debian's wrk, needs a Redis, and
# measures again through nginx.
bench: install
	@for tool in wrk redis-server nginx; do command -v $$tool >/dev/null || missing="$$missing $$tool"; done; \
	if [ -n "$$missing" ]; then \
		echo "Installing:$$missing"; \
		apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $$missing; \
	fi
	$(PY) benchmarks/run.py

# The README's production recipe on this machine, then a smoke test and a backup drill
# (deploy/check.py): needs PostgreSQL and Redis, checks the nginx site when nginx is installed,
# and cleans up after itself. Ports 8110, 8111 (gunicorn), 8130 and 8129 (nginx).
deploy-check: install
	$(PY) deploy/check.py

# The red team's reproductions (races, double taps, oversized imports, ...) through nginx on
# the same production set-up (deploy/redteam.py; docs/testing.md has the last results).
# Ports 8170, 8171 (gunicorn), 8180 and 8179 (nginx); database and role boardwalk_redteam.
redteam: install
	$(PY) deploy/redteam.py

# Translations (README "Adding a language"): refresh every catalog in locale/ from the code and
# templates, then compile them. The .mo files are committed, so a deploy needs no gettext tools.
LOCALES := en_GB fr de es hi
MESSAGES_IGNORE := --ignore=.venv --ignore=tests --ignore=benchmarks --ignore=staticfiles --ignore=artifacts --ignore=var
messages: install
	$(PY) manage.py makemessages $(addprefix -l ,$(LOCALES)) $(MESSAGES_IGNORE) --no-obsolete
	$(PY) manage.py compilemessages $(addprefix -l ,$(LOCALES)) --ignore=.venv

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

format: install
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

clean:
	rm -rf $(VENV) *.egg-info .pytest_cache .ruff_cache .mypy_cache .hypothesis staticfiles
	find . -name __pycache__ -type d -not -path "./.git/*" -prune -exec rm -rf {} +
