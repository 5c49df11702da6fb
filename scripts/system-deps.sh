#!/usr/bin/env bash
# Install the system packages the test suite needs (Debian): a PostgreSQL server, Chromium, a
# Devanagari font for the Hindi pages' screenshots, and npm while axe-core is not yet vendored
# (scripts/vendor-axe.sh). Run by scripts/test.sh. Where they cannot be installed (not root, no
# apt-get), it says so and the tests that need them skip, except under CI=true, where they fail.
set -uo pipefail

need=()
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1 \
  || need+=(postgresql)
command -v chromium-headless-shell >/dev/null 2>&1 || need+=(chromium-headless-shell)
[ -f tests/assets/vendor/axe.min.js ] || command -v npm >/dev/null 2>&1 || need+=(nodejs npm)
# a Devanagari font, so the screenshots of the Hindi pages show letters, not boxes
[ -n "$(fc-list :lang=hi 2>/dev/null)" ] || need+=(fonts-lohit-deva)
[ ${#need[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "system-deps: cannot install ${need[*]} here (needs root and apt-get); dependent tests" \
    "skip (fail under CI=true)"
  exit 0
fi
echo "system-deps: installing ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends "${need[@]}" \
  >/dev/null || echo "system-deps: apt-get install ${need[*]} failed; dependent tests skip" \
    "(fail under CI=true)"
