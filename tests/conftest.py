"""Shared fixtures.  The browser tests (tests/test_web_*.py, marked ``browser``) share one
Chromium per module; tests/browser_helpers.py has the rest.

Per module, not per session: while Playwright's sync API is running it holds an event loop on
the main thread, and every later test that calls ``asyncio.run`` (the server tests do) would
fail with "cannot be called from a running event loop"."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium for a module's tests (a test makes its own contexts)."""
    from browser_helpers import launched_browser, need_chromium

    need_chromium()
    with launched_browser() as launched:
        yield launched
