#!/usr/bin/env bash
# The whole suite: lint, then pytest on every core (pytest-xdist). CI runs this through
# `make test`; its wall time is printed at the end, pass or fail.
set -euo pipefail
: "${BIN:=.venv/bin}"
# One worker per core (PYTEST_WORKERS=0 runs in this process: for pdb or -x hunting).
: "${PYTEST_WORKERS:=auto}"
trap 'echo "test.sh: ${SECONDS} s wall"' EXIT
# Bytecode is kept (as the Makefile keeps it): else every process of the run (two workers, and
# the flask, worker and gunicorn processes tests start) compiles each module it imports again.
unset PYTHONDONTWRITEBYTECODE

bash scripts/system-deps.sh
# Without axe-core the accessibility checks skip, or fail under CI=true (tests/browser).
[ -f tests/assets/vendor/axe.min.js ] || BIN="$BIN" bash scripts/vendor-axe.sh \
  || echo "test.sh: axe-core could not be vendored"
"$BIN/ruff" check .
"$BIN/bandit" -q -c pyproject.toml -r portal
bash scripts/scratch-on-tmpfs.sh \
  "$BIN/pytest" -p no:cacheprovider -n "$PYTEST_WORKERS" --dist worksteal "$@"
