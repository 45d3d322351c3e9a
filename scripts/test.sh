#!/usr/bin/env bash
# Installs everything the tests need, then runs lint, type check and the whole test suite.
# Usage: bash scripts/test.sh [extra pytest arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
export PIP_BREAK_SYSTEM_PACKAGES=1 PIP_DISABLE_PIP_VERSION_CHECK=1

# Debian's Chromium for the browser tests (Playwright cannot download its own here).
if ! command -v chromium >/dev/null 2>&1; then
    echo "== installing chromium with apt-get"
    SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi

echo "== installing setgame with its test dependencies"
python3 -m pip install -q -e '.[test]'

echo "== ruff"
python3 -m ruff check src tests benchmarks
echo "== mypy"
python3 -m mypy
echo "== pytest"
python3 -m pytest -n 2 "$@"
