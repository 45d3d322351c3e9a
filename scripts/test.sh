#!/usr/bin/env bash
# Installs everything the tests need, then runs lint, type check and the whole test suite.
# Usage: bash scripts/test.sh [extra pytest arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
export PIP_DISABLE_PIP_VERSION_CHECK=1
# The tests run in their own virtual environment (.venv-test, an editable install), apart from
# the one scripts/serve.sh plays from (.venv), so a running server never loses its files.
source scripts/venv.sh

# Debian's Chromium for the browser tests (Playwright cannot download its own here).
if ! command -v chromium >/dev/null 2>&1; then
    echo "== installing chromium with apt-get"
    SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi

echo "== installing setgame with its test dependencies into .venv-test"
make_venv .venv-test
PY=.venv-test/bin/python
"$PY" -m pip install -q -e '.[test]'

echo "== ruff"
"$PY" -m ruff check src tests benchmarks
echo "== mypy"
"$PY" -m mypy
echo "== pytest"
"$PY" -m pytest -n 2 "$@"
