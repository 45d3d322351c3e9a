#!/usr/bin/env bash
# Installs setgame into its own virtual environment (.venv) and starts the game server.
# Usage: bash scripts/serve.sh [setgame serve options, e.g. --host 0.0.0.0 --port 8000]
# The copy in .venv is a normal (not editable) install, so running the tests (which use
# .venv-test) never touches the files of a running server. It is reinstalled only when the
# source changed since the last install.
set -euo pipefail
cd "$(dirname "$0")/.."
export PIP_DISABLE_PIP_VERSION_CHECK=1
source scripts/venv.sh
make_venv .venv
stamp=$(find pyproject.toml src -type f ! -path '*/__pycache__/*' ! -path '*.egg-info*' \
    -print0 | sort -z | xargs -0 sha256sum | sha256sum | cut -d' ' -f1)
if [ "$(cat .venv/.setgame-source 2>/dev/null)" != "$stamp" ]; then
    echo "== installing setgame into .venv"
    .venv/bin/python -m pip install -q .
    echo "$stamp" > .venv/.setgame-source
fi
# The first run here creates the default database (setgame.db); later runs do not, so a
# database that went missing stops the server instead of silently becoming an empty one.
args=("$@")
if [ ! -e .venv/.setgame-db-created ] && [[ " $* " != *" --db"* ]]; then
    args+=(--create-db)
    touch .venv/.setgame-db-created
fi
exec .venv/bin/setgame serve "${args[@]}"
