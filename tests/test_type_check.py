"""``mypy --strict`` on the core (pyproject.toml's ``[tool.mypy]``: ``src/pitchcards``), as a test.

scripts/test.sh ran it on its own before pytest, a minute or two on a fresh clone (no
``.mypy_cache``) while nothing else ran; as a test it runs on one worker while the others play
their tests, in the time they spend waiting on servers and browsers (issue 27).  It starts
first (tests/conftest.py's ``SLOW_FIRST``).  ``python -m pytest`` alone is then the whole
Python check but for ruff, as it already was for the JavaScript (tests/test_web_static.py).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_the_core_passes_mypy_strict() -> None:
    done = subprocess.run([sys.executable, "-m", "mypy"], cwd=REPO, capture_output=True,
                          text=True, timeout=1200)  # a hang guard only
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    assert "Success: no issues found" in done.stdout
