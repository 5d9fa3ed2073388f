#!/usr/bin/env bash
# Installs pitchcards with its test tools into .venv and runs every check: ruff, mypy --strict on
# the core, the browser table's JavaScript type check and lint, and the pytest suite (the browser
# tests drive Debian's Chromium).  This is the README's test command and what CI runs.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[test,rl,sb3]'
# A real browser for tests/test_web_*.py: Debian's Chromium (Playwright's own download cannot
# work offline); installed once, when missing.
if [ ! -x /usr/bin/chromium ]; then
    if [ "$(id -u)" -eq 0 ]; then apt_get=(apt-get); else apt_get=(sudo apt-get); fi
    DEBIAN_FRONTEND=noninteractive "${apt_get[@]}" install -y -q chromium >/dev/null \
        || { "${apt_get[@]}" update -q >/dev/null \
             && DEBIAN_FRONTEND=noninteractive "${apt_get[@]}" install -y -q chromium >/dev/null; }
fi
# The JavaScript dev tools (package.json, package-lock.json): TypeScript, ESLint, axe-core.
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules ]; then
    npm ci --no-audit --no-fund --loglevel=error
fi
.venv/bin/ruff check src tests benchmarks examples
.venv/bin/mypy
npx --no-install tsc -p jsconfig.json
npx --no-install eslint src/pitchcards/server/web/js
status=0
.venv/bin/python -m pytest -q "$@" || status=$?
# pytest exits 5 when it collected no tests: that is a broken suite here, say so plainly.
if [ "$status" -eq 5 ]; then
    echo "pytest collected no tests" >&2
fi
exit "$status"
