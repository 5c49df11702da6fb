#!/usr/bin/env bash
# The whole suite: lint, then pytest. CI runs this through `make test`.
set -euo pipefail
: "${BIN:=.venv/bin}"

bash scripts/system-deps.sh
# Without axe-core the accessibility checks skip, or fail under CI=true (tests/browser).
[ -f tests/assets/vendor/axe.min.js ] || BIN="$BIN" bash scripts/vendor-axe.sh \
  || echo "test.sh: axe-core could not be vendored"
"$BIN/ruff" check .
"$BIN/bandit" -q -c pyproject.toml -r portal
"$BIN/pytest" -p no:cacheprovider "$@"
