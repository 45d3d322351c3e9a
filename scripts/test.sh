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

# Debian's PostgreSQL for the storage tests on PostgreSQL (they start a throwaway cluster as the
# postgres user); SETGAME_REQUIRE_POSTGRES makes those tests fail rather than skip without it.
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    echo "== installing postgresql with apt-get"
    SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq postgresql >/dev/null
fi
export SETGAME_REQUIRE_POSTGRES=1

# Debian's Redis for the cluster tests (several `setgame serve --redis` processes; they start
# a throwaway redis-server of their own); SETGAME_REQUIRE_REDIS makes them fail, not skip,
# without it.
if ! command -v redis-server >/dev/null 2>&1; then
    echo "== installing redis-server with apt-get"
    SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq redis-server >/dev/null
fi
export SETGAME_REQUIRE_REDIS=1

# axe-core for the accessibility tests, from the npm registry at the version locked in
# tests/browser/package-lock.json (the tests inject its axe.min.js into the pages).
if ! command -v npm >/dev/null 2>&1; then
    echo "== installing npm with apt-get"
    SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq npm >/dev/null
fi
echo "== installing axe-core with npm into tests/browser/node_modules"
npm ci --prefix tests/browser --no-audit --no-fund --loglevel=error

echo "== installing setgame with its test dependencies into .venv-test"
make_venv .venv-test
PY=.venv-test/bin/python
"$PY" -m pip install -q -e '.[test]'

echo "== ruff"
"$PY" -m ruff check src tests benchmarks
echo "== mypy"
"$PY" -m mypy
echo "== pytest"
# Unbuffered, so a log shows how far the run got even if it is cut off. A failed test is run
# once more (a busy machine can starve a browser or a cluster test); a rerun is named as such
# in the summary, and a test that fails twice fails the run. The 25 slowest are listed.
export PYTHONUNBUFFERED=1
"$PY" -m pytest -n 2 --reruns 1 -rfER --durations=25 "$@"
