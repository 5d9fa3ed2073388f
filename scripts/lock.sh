#!/usr/bin/env bash
# The lock: exact versions, with hashes, of everything scripts/test.sh installs for Python.
#
#   bash scripts/lock.sh                 bring the lock in line with pyproject.toml, keeping every
#                                        pin that still fits (after adding or changing a requirement)
#   bash scripts/lock.sh --upgrade       refresh the whole lock to the newest releases pyproject.toml allows
#   bash scripts/lock.sh --check         fail (naming the package) if pyproject.toml asks for what the lock lacks
#   bash scripts/lock.sh --check-latest  run the whole test command against the newest releases,
#                                        in .venv-latest, leaving the lock and .venv alone
#
# The lock is made by pip-tools' pip-compile (itself pinned below) from pyproject.toml's
# dependencies and the extras the test command installs (test, rl, sb3, cluster), plus
# requirements/lock-tools.in.  One lock per Python minor version: requirements/test-py3XX.txt.
# docs/testing.md ("The lock") says when to refresh it.
set -euo pipefail
cd "$(dirname "$0")/.."
PIP_TOOLS_VERSION=7.7.0
python_tag=$(python3 -c 'import sys; print(f"py{sys.version_info[0]}{sys.version_info[1]}")')
lock="requirements/test-$python_tag.txt"

case "${1:-}" in
    --check)
        exec python3 scripts/check_lock.py "$lock"
        ;;
    --check-latest)
        PITCH_VENV=.venv-latest PITCH_UNLOCKED=1 exec bash scripts/test.sh "${@:2}"
        ;;
    "")
        upgrade=()
        ;;
    --upgrade)
        upgrade=(--upgrade)
        ;;
    *)
        echo "usage: bash scripts/lock.sh [--upgrade | --check | --check-latest [pytest args...]]" >&2
        exit 2
        ;;
esac

tools=.venv-lock
if [ ! -x "$tools/bin/pip-compile" ] \
        || [ "$("$tools/bin/pip-compile" --version)" != "pip-compile, version $PIP_TOOLS_VERSION" ]; then
    python3 -m venv "$tools"
    "$tools/bin/python" -m pip install --quiet "pip-tools==$PIP_TOOLS_VERSION"
fi
CUSTOM_COMPILE_COMMAND="bash scripts/lock.sh" "$tools/bin/pip-compile" --quiet "${upgrade[@]}" \
    --generate-hashes --allow-unsafe --strip-extras --no-emit-index-url --no-emit-find-links \
    --extra test --extra rl --extra sb3 --extra cluster --output-file "$lock" \
    pyproject.toml requirements/lock-tools.in
python3 scripts/check_lock.py "$lock"
echo "wrote $lock: now run bash scripts/test.sh and commit the lock with any fixes it needs"
