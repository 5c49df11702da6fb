#!/usr/bin/env bash
# The whole suite: lint, the docs site, then pytest on every core (pytest-xdist). CI runs this
# through `make test`; its wall time is printed at the end, pass or fail.
set -euo pipefail
: "${BIN:=.venv/bin}"
# One worker per core (PYTEST_WORKERS=0 runs in this process: for pdb or -x hunting).
: "${PYTEST_WORKERS:=auto}"
trap 'echo "test.sh: ${SECONDS} s wall"' EXIT

bash scripts/system-deps.sh
# Without axe-core the accessibility checks skip, or fail under CI=true (tests/browser).
[ -f tests/assets/vendor/axe.min.js ] || BIN="$BIN" bash scripts/vendor-axe.sh \
  || echo "test.sh: axe-core could not be vendored"
"$BIN/ruff" check .
"$BIN/bandit" -q -c pyproject.toml -r portal
# The documentation site (mkdocs.yml): a broken link, an unknown anchor or a page left out of
# the nav fails here, in 1-3 s. Material's banner about MkDocs 2 says nothing about it.
NO_MKDOCS_2_WARNING=1 "$BIN/mkdocs" build --strict --quiet
# The portal's own bytecode, as `make install` compiles the libraries': where
# PYTHONDONTWRITEBYTECODE is set, each process of the run (two workers, and the flask, worker and
# gunicorn processes tests start) would compile every module it imports again (0.2 s a process).
"$BIN/python" -m compileall -q -j 0 portal app.py >/dev/null
bash scripts/scratch-on-tmpfs.sh \
  "$BIN/pytest" -p no:cacheprovider -n "$PYTEST_WORKERS" --dist worksteal "$@"
