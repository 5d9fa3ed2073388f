"""Shared fixtures.  The browser tests (tests/test_web_*.py, marked ``browser``) share one
Chromium for the whole session; tests/browser_helpers.py has the rest."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One headless Chromium for the session (a test makes its own contexts)."""
    from browser_helpers import launched_browser, need_chromium

    need_chromium()
    with launched_browser() as launched:
        yield launched
