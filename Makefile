# Binokel tournament manager — the commands of the README:
#   make run    set up .venv, migrate, load the demo tournament, serve http://127.0.0.1:8000/
#   make test   install what the tests need (Python extras, Debian's chromium) and run them all
#   make check  the quick tier before each commit: ruff, mypy and every test not marked slow
#   make hall   the evening: serve the desk to the hall's network (gunicorn, DEBUG off)
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1:8000

.PHONY: run hall install install-test system-test-deps test check lint demo bench load messages fixtures

$(VENV)/.installed: pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: $(VENV)/.installed pyproject.toml
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@

install: $(VENV)/.installed

install-test: $(VENV)/.installed-test system-test-deps tests/browser/axe/node_modules/axe-core/axe.min.js

# axe-core from the npm registry (pinned in package-lock.json), injected into the pages by the
# accessibility tests
tests/browser/axe/node_modules/axe-core/axe.min.js: tests/browser/axe/package-lock.json
	npm ci --prefix tests/browser/axe --no-audit --no-fund --silent
	touch $@

# Debian's chromium drives the browser tests (never a downloaded browser); zbarimg reads the
# printed QR codes back as a phone would; pdftotext (poppler-utils) reads the printed text.
system-test-deps:
	@command -v chromium >/dev/null 2>&1 && command -v zbarimg >/dev/null 2>&1 && command -v pdftotext >/dev/null 2>&1 || { \
	  echo "Installing Debian's chromium, zbar-tools and poppler-utils for the tests"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium zbar-tools poppler-utils >/dev/null; }

demo: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py demo

run: demo
	@echo "Desk: http://$(HOST)/desk/  (demo login orga / binokel, second desk kasse / binokel: this computer only - make hall refuses these)   Public: http://$(HOST)/"
	$(PY) manage.py runserver $(HOST)

# The evening in the hall: migrate, then serve to the hall's network on port 8000 (gunicorn,
# WhiteNoise, DEBUG off); prints the addresses for the phones. Refuses demo passwords.
HALL_ARGS ?=
hall: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py hall $(HALL_ARGS)

test: install-test
	$(PY) -m pytest

# Before each commit: lint, types and every test not marked slow (browser, hall server, other
# processes, fuzzing, big fields: see the markers in pyproject.toml); CI runs everything.
check: lint
	$(PY) -m pytest -q -m "not slow and not browser"

lint: install-test
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

bench: install
	$(PY) benchmarks/scoring.py
	$(PY) benchmarks/pairing.py
	$(PY) benchmarks/desk.py
	$(PY) benchmarks/exports.py
	$(PY) benchmarks/scale.py
	$(PY) benchmarks/tables.py --tables 100
	$(PY) benchmarks/charity.py

# 20 desks saving and confirming through the hall server on loopback (SQLite; set DATABASE_URL
# for PostgreSQL)
load: install-test
	$(PY) benchmarks/load.py --desks 20 --seconds 60
	$(PY) benchmarks/phones.py --phones 300
	$(PY) benchmarks/checkin.py --players 300

# The catalogues are sorted by msgid and carry no source locations, so that branches which add
# messages merge cleanly. The desk's German is the source language: only English is a catalogue.
messages: install
	$(PY) manage.py makemessages -l en --no-location --no-obsolete --ignore=.venv --ignore=tests --ignore=scoring --ignore=pairing
	msgcat --sort-output --no-location -o binokel_tournament/locale/en/LC_MESSAGES/django.po binokel_tournament/locale/en/LC_MESSAGES/django.po
	$(PY) manage.py compilemessages -l en --ignore=.venv --ignore=tests --ignore=scoring --ignore=pairing
	$(PY) scripts/compile_engine_messages.py

# fixtures/demo.json is made by the demo command on a throwaway database, never by hand.
fixtures: install
	rm -f db/fixtures.sqlite3
	DATABASE_URL=sqlite:///$(CURDIR)/db/fixtures.sqlite3 $(PY) manage.py migrate --noinput -v0
	DATABASE_URL=sqlite:///$(CURDIR)/db/fixtures.sqlite3 $(PY) manage.py demo --dump fixtures/demo.json
	rm -f db/fixtures.sqlite3
