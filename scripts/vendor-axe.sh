#!/usr/bin/env bash
# Vendor axe-core (the accessibility engine of the browser tests) into tests/assets/vendor/:
# `npm pack` a pinned version from the npm registry, check its sha512 integrity against the
# value pinned here, extract axe.min.js. Without npm it says so and the a11y checks skip,
# except under CI=true, where it fails. scripts/test.sh runs it when the file is missing.
set -euo pipefail

AXE_VERSION="4.14.1"
# `npm view axe-core@4.14.1 dist.integrity`
AXE_INTEGRITY="sha512-FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFooJpZe37OgudVGtQ=="
TARGET="tests/assets/vendor/axe.min.js"
: "${BIN:=.venv/bin}"

give_up() {
  echo "vendor-axe: $1; the accessibility checks of the browser tests skip" >&2
  [ "${CI:-}" = "true" ] && exit 1
  exit 0
}

command -v npm >/dev/null 2>&1 || give_up "npm not found (scripts/system-deps.sh installs it)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
tarball="$(cd "$work" && npm pack --silent "axe-core@$AXE_VERSION" 2>/dev/null | tail -n 1)" \
  || give_up "npm pack axe-core@$AXE_VERSION failed"
actual="sha512-$("$BIN/python" -c 'import base64, hashlib, sys
print(base64.b64encode(hashlib.sha512(open(sys.argv[1], "rb").read()).digest()).decode())' \
  "$work/$tarball")"
if [ "$actual" != "$AXE_INTEGRITY" ]; then
  echo "vendor-axe: integrity mismatch for axe-core@$AXE_VERSION: got $actual" >&2
  exit 1
fi
tar -xzf "$work/$tarball" -C "$work" package/axe.min.js
mkdir -p "$(dirname "$TARGET")"
mv "$work/package/axe.min.js" "$TARGET"
echo "vendor-axe: axe-core $AXE_VERSION -> $TARGET"
