#!/usr/bin/env bash
# The whole suite: lint, then pytest. CI runs this through `make test`.
set -euo pipefail
: "${BIN:=.venv/bin}"

bash scripts/system-deps.sh
"$BIN/ruff" check .
"$BIN/pytest" -p no:cacheprovider "$@"
