# The two commands: `make run` and `make test`. Everything else hangs off them.
# The first of python3, python3.13, python3.12, python3.11 that is a CPython the project supports
# (pyproject.toml's requires-python); `make install PYTHON=/path/to/python3.x` overrides it.
SUPPORTED_PYTHON := import sys; sys.exit(not (3, 11) <= sys.version_info[:2] <= (3, 13))
PYTHON ?= $(firstword $(foreach p,python3 python3.13 python3.12 python3.11,\
	$(shell command -v $(p) >/dev/null && $(p) -c '$(SUPPORTED_PYTHON)' 2>/dev/null && command -v $(p))) python3)
VENV := .venv
BIN := $(VENV)/bin
PORTAL_PORT ?= 5000
SANDBOX_PORT ?= 8100
# The development SMTP sink's port follows the portal's (5000: 8025, 5050: 8075), so two portals
# on one machine never send into each other's mailbox.
MAIL_SINK_PORT ?= $(shell echo $$(( $(PORTAL_PORT) + 3025 )))
export PORTAL_ENV_FILE ?= instance/portal.env

.PHONY: run test test-fast lint bench bench-load docs screenshots install clean translations

# The venv, and uv (astral-sh/uv) in it as the installer: pip, which every venv has, installs uv
# (1.4 s), and uv installs the project's 90 packages in about 7 s, bytecode included, where pip
# took 17 s (15 s of it resolving, on one core) plus 5 s compiling; the same versions either way.
# Where uv cannot install (no wheel of it for the machine, or a package index that only pip is
# configured for: uv does not read pip.conf), pip does, as before. Bytecode is compiled at
# install because where PYTHONDONTWRITEBYTECODE is set nothing compiled later is kept, and every
# process of a test run (xdist workers, gunicorn, flask) would compile what it imports again.
$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	{ $(BIN)/python -m pip install -q 'uv>=0.5' && \
	  $(BIN)/uv pip install -q --python $(BIN)/python --compile-bytecode -e '.[test,dev,postgres]'; } \
	|| { echo "make: uv could not install the project; pip installs it"; \
	     $(BIN)/python -m pip install -q 'pip>=23.2' && \
	     $(BIN)/python -m pip install -q -e '.[test,dev,postgres]'; }
	touch $@

CATALOGUES := $(patsubst %.po,%.mo,$(wildcard translations/*/LC_MESSAGES/messages.po))
install: $(VENV)/.installed $(CATALOGUES)

# The merchant-facing pages' catalogues (docs/developer/translations.md): each .mo is compiled
# from its .po (the .mo is not committed); `make translations` extracts the strings of the files
# translations/merchant_facing.txt lists, merges them into every .po, and compiles.
translations/%/LC_MESSAGES/messages.mo: translations/%/LC_MESSAGES/messages.po | $(VENV)/.installed
	$(BIN)/pybabel -q compile -d translations -l $*

translations: install
	$(BIN)/pybabel -q extract -F translations/babel.cfg -k _l --no-location --sort-output \
		--project "Partner Onboarding Portal" -o translations/messages.pot \
		$$(grep -v '^#' translations/merchant_facing.txt)
	$(BIN)/pybabel -q update -i translations/messages.pot -d translations --no-fuzzy-matching \
		--width 100
	$(BIN)/pybabel compile -d translations --statistics

run: install
	$(BIN)/python -m portal.app.devsetup --portal-port $(PORTAL_PORT) --sandbox-port $(SANDBOX_PORT) \
		--mail-port $(MAIL_SINK_PORT)
	$(BIN)/flask --app app db upgrade
	PORTAL_PORT=$(PORTAL_PORT) SANDBOX_PORT=$(SANDBOX_PORT) MAIL_SINK_PORT=$(MAIL_SINK_PORT) \
		BIN=$(BIN) bash scripts/run-dev.sh

test: install
	BIN=$(BIN) bash scripts/test.sh

# The edit loop: every test but those driving Chromium or needing PostgreSQL (markers set from
# the tests' fixtures in tests/conftest.py), on every core, no lint.
test-fast: install
	bash scripts/scratch-on-tmpfs.sh \
		$(BIN)/pytest -p no:cacheprovider -q -n auto --dist worksteal -m "not browser and not postgres"

lint: install
	$(BIN)/ruff check .

bench: install
	$(BIN)/python -m bench

# The load bench in full (bench/load.py): 50 people for 5 minutes against each deployment, after
# one person alone for a minute; `make bench` runs it for 30 s as part of the table.
bench-load: install
	LOAD_PEOPLE=50 LOAD_SECONDS=300 LOAD_ALONE_SECONDS=60 $(BIN)/python -m bench --only load

# The documentation site of mkdocs.yml, rebuilt on every edit; `make test` builds it --strict.
# Material's banner about MkDocs 2 is silenced: it says nothing about this site.
DOCS_PORT ?= 8000
docs: install
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs serve --dev-addr 127.0.0.1:$(DOCS_PORT)

# The main pages in headless Chromium at 1280 and 375 px, as PNGs in $(SCREENSHOTS_DIR)/ (for
# people to look at; nothing is compared): tests/browser/test_screenshots.py, deselected unless
# PORTAL_SCREENSHOTS names the folder.
SCREENSHOTS_DIR ?= screenshots
screenshots: install
	PORTAL_SCREENSHOTS=$(abspath $(SCREENSHOTS_DIR)) $(BIN)/pytest -p no:cacheprovider -q \
		-m screenshots tests/browser/test_screenshots.py
	@echo "Screenshots in $(SCREENSHOTS_DIR)/"

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache site
