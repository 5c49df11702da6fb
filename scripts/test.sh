#!/usr/bin/env bash
# The whole suite: lint, then pytest. CI runs this through `make test`.
set -euo pipefail
: "${BIN:=.venv/bin}"

bash scripts/system-deps.sh
[ -f tests/assets/vendor/axe.min.js ] || BIN="$BIN" bash scripts/vendor-axe.sh
"$BIN/ruff" check .
"$BIN/bandit" -q -c pyproject.toml -r portal
"$BIN/pytest" -p no:cacheprovider "$@"
