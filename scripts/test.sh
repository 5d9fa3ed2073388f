#!/usr/bin/env bash
# Installs pitchcards with its test tools into .venv and runs every check: ruff, mypy --strict on
# the core, the browser table's JavaScript type check and lint, and the pytest suite (the browser
# tests drive Debian's Chromium).  This is the README's test command and what CI runs.
set -euo pipefail
cd "$(dirname "$0")/.."
# The Python side installs exactly the lock (requirements/test-py3XX.txt: versions and hashes,
# made from pyproject.toml by scripts/lock.sh), so a release of any dependency cannot break this
# command overnight.  PITCH_UNLOCKED=1 (scripts/lock.sh --check-latest) installs the newest
# releases pyproject.toml allows instead, into PITCH_VENV, to see a break before users do.
venv=${PITCH_VENV:-.venv}
python_tag=$(python3 -c 'import sys; print(f"py{sys.version_info[0]}{sys.version_info[1]}")')
lock="requirements/test-$python_tag.txt"
python3 -m venv "$venv"
if [ "${PITCH_UNLOCKED:-}" = 1 ]; then
    "$venv/bin/python" -m pip install --quiet --upgrade pip
    "$venv/bin/python" -m pip install --quiet --upgrade --upgrade-strategy eager -e '.[test,rl,sb3,cluster]'
else
    if [ ! -f "$lock" ]; then
        echo "no lock for Python $python_tag ($lock): make one with bash scripts/lock.sh" >&2
        exit 1
    fi
    "$venv/bin/python" -m pip install --quiet --require-hashes -r "$lock"
    "$venv/bin/python" -m pip install --quiet --no-deps --no-build-isolation -e .
    # pyproject.toml asking for something the lock lacks stops here, naming the package.
    "$venv/bin/python" scripts/check_lock.py "$lock"
fi
# The compiled fast path (issue 35): mypyc builds the hot modules from this very source into
# src/pitchcards/_compiled (a minute or two), so the suite below runs the compiled build; it
# stops here, saying what is missing, without a C compiler.  docs/design.md ("Speed").
build_log=$("$venv/bin/python" scripts/build_fast.py 2>&1) || { printf '%s\n' "$build_log" >&2; exit 1; }
printf '%s\n' "$build_log" | grep -v "warning: Treating generator" || true
# A real browser for tests/test_web_*.py: Debian's Chromium (Playwright's own download cannot
# work offline); installed once, when missing.
if [ ! -x /usr/bin/chromium ]; then
    if [ "$(id -u)" -eq 0 ]; then apt_get=(apt-get); else apt_get=(sudo apt-get); fi
    DEBIAN_FRONTEND=noninteractive "${apt_get[@]}" install -y -q chromium >/dev/null \
        || { "${apt_get[@]}" update -q >/dev/null \
             && DEBIAN_FRONTEND=noninteractive "${apt_get[@]}" install -y -q chromium >/dev/null; }
fi
# The JavaScript dev tools (package.json, package-lock.json): TypeScript (with @types/node for
# the Node tests), ESLint, axe-core.
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules ]; then
    npm ci --no-audit --no-fund --loglevel=error
fi
"$venv/bin/ruff" check src tests benchmarks examples scripts
# mypy --strict on the core (tests/test_type_check.py) and the JavaScript's type check (tsc) and
# lint (eslint) (tests/test_web_static.py) are tests of the suite below: each runs once there,
# on a worker beside the others, rather than alone before it (issue 27).
# The page's pure modules against the engine's facts (tests/js/engine.json, made by
# tests/engine_fixtures.py; tests/test_engine_fixtures.py keeps it current): docs/testing.md.
node --test --test-reporter=dot tests/js/
status=0
# Both cores, three workers (pytest-xdist): a third fills the time the others wait on a page,
# a server or a socket (measured, docs/testing.md).  Whole modules go to each worker
# (--dist loadfile), so a module's
# server or browser fixture is built once; each worker has its own ports, data folder and
# databases (tests/conftest.py, tests/server_helpers.py).  docs/testing.md has the layers.
# The 20 slowest steps (setup, call or teardown) are listed at the end: where a cut would pay.
"$venv/bin/python" -m pytest -q -n 3 --dist loadfile --durations=20 "$@" || status=$?
# The pure-Python build (PITCHCARDS_PURE=1) on the engine's and bots' own tests: the refusals
# and edge cases that tests/test_fast_path.py's trace of legal play never reaches, and
# test_expert.py's tests that monkeypatch inside the search and test_hand_tables.py's half-made
# table (both skipped on the compiled build).
# expert-v1's decisions on test_expert_v1.py's positions are not rerun here: test_fast_path.py
# hashes them in both builds and the compiled run checks them against their record.  About
# 13 s of CPU (2026-12-07).
if [ "$status" -eq 0 ]; then
    PITCHCARDS_PURE=1 "$venv/bin/python" -m pytest -q -n 2 --dist loadfile \
        tests/test_common_rules.py tests/test_auction_rules.py tests/test_edge_cases.py \
        tests/test_error_reasons.py tests/test_robustness.py tests/test_ten_point.py \
        tests/test_properties.py tests/test_expert.py tests/test_hand_tables.py || status=$?
fi
# pytest exits 5 when it collected no tests: that is a broken suite here, say so plainly.
if [ "$status" -eq 5 ]; then
    echo "pytest collected no tests" >&2
fi
exit "$status"
