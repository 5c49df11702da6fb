#!/usr/bin/env bash
# The whole suite: lint, then pytest. CI runs this through `make test`.
set -euo pipefail
: "${BIN:=.venv/bin}"

"$BIN/ruff" check .
"$BIN/pytest" -p no:cacheprovider "$@"
