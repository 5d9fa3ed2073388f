#!/usr/bin/env bash
# Installs pitchcards with its test tools into .venv and runs every check: ruff, mypy --strict on
# the core, and the pytest suite.  This is the README's test command and what CI runs.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[test,rl,sb3]'
.venv/bin/ruff check src tests benchmarks examples
.venv/bin/mypy
status=0
.venv/bin/python -m pytest -q "$@" || status=$?
# pytest exits 5 when it collected no tests: that is a broken suite here, say so plainly.
if [ "$status" -eq 5 ]; then
    echo "pytest collected no tests" >&2
fi
exit "$status"
