"""Shared fixtures.  The browser tests (tests/test_web_*.py, marked ``browser``) share one
Chromium per module; tests/browser_helpers.py has the rest.

Per module, not per session: while Playwright's sync API is running it holds an event loop on
the main thread, and every later test that calls ``asyncio.run`` (the server tests do) would
fail with "cannot be called from a running event loop"."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import settings as hypothesis_settings

_HOME = pytest.StashKey[str]()

# The property tests try the same examples on every run (derandomized, from each test's name):
# a test command that can fail by chance costs a whole submission, and on 2026-12-07 a random
# example found, hours after the test was written, a sampled world the test built wrongly.
# ``HYPOTHESIS_PROFILE=explore`` searches new examples each run (docs/testing.md, "Finding a
# flaky test"); what it finds becomes an ``@example`` of its test.
hypothesis_settings.register_profile("suite", derandomize=True)
hypothesis_settings.register_profile("explore", derandomize=False)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "suite"))


#: The slowest modules, slowest first (the per-module sums of ``--durations=0`` in a whole run
#: on 2026-12-07).  pytest-xdist's ``--dist loadfile`` hands whole modules to the workers in
#: collection order, alphabetical by default, which left the browser modules (``test_web_*``,
#: tens of seconds each) for last: one worker still busy with them while the others had
#: finished.  Started first, they fill the run and the short modules even out its end.  A
#: module missing here only runs in its usual place; the order decides no result.
SLOW_FIRST = (
    "test_type_check", "test_tui_tenpoint", "test_arena_cluster", "test_web_phone", "test_ladder",
    "test_web_play",
    "test_server_crash", "test_ranked_crash", "test_web_accounts", "test_tui_snapshots",
    "test_web_money", "test_accounts", "test_envs_sb3", "test_fast_path", "test_tui_play",
    "test_web_tenpoint", "test_web_home", "test_web_score", "test_web_call_partner",
    "test_cluster_failover", "test_web_resume", "test_cluster_play", "test_fuzz_engine",
    "test_server_tournaments", "test_web_static", "test_web_layout", "test_server_analysis",
    "test_web_pace", "test_fuzz_records", "test_web_analysis", "test_web_a11y",
)


#: After them, the other modules of the kinds that start a browser, several servers or the
#: terminal app (each some seconds to tens of seconds); the quick ones last.
SLOW_KINDS = ("test_web_", "test_cluster_", "test_tui_", "test_server_")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The modules of :data:`SLOW_FIRST` first, in its order, then those of :data:`SLOW_KINDS`,
    then the rest, each group as collected (a stable sort keeps every module's tests together
    and in their own order)."""
    rank = {name: i for i, name in enumerate(SLOW_FIRST)}

    def place(item: pytest.Item) -> tuple[int, int]:
        name = item.path.stem
        if name in rank:
            return 0, rank[name]
        return (1 if name.startswith(SLOW_KINDS) else 2), 0

    items.sort(key=place)


def pytest_configure(config: pytest.Config) -> None:
    """Each process of the run (``-n 2``: each pytest-xdist worker) saves into a data and config
    folder of its own, never the user's: a test that forgets its own folder cannot meet
    another worker's files (tests that need one set XDG_DATA_HOME themselves)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    home = tempfile.mkdtemp(prefix=f"pitchcards-tests-{worker}-")
    config.stash[_HOME] = home
    os.environ["XDG_DATA_HOME"] = os.path.join(home, "data")
    os.environ["XDG_CONFIG_HOME"] = os.path.join(home, "config")


def pytest_unconfigure(config: pytest.Config) -> None:
    home = config.stash.get(_HOME, None)
    if home is not None:
        shutil.rmtree(home, ignore_errors=True)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium for a module's tests (a test makes its own contexts)."""
    from browser_helpers import launched_browser, need_chromium

    need_chromium()
    with launched_browser() as launched:
        yield launched


@pytest.fixture
def small_search_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    """The ``hard`` and ``expert`` levels with counted budgets (helpers.SMALL_HARD,
    helpers.SMALL_EXPERT), for tests where their own play is not under test."""
    from helpers import SMALL_EXPERT, SMALL_HARD
    from pitchcards.bots.expert import ExpertBot, HardBot

    monkeypatch.setattr(HardBot, "budget", SMALL_HARD)
    monkeypatch.setattr(ExpertBot, "budget", SMALL_EXPERT)


#: The cheapest Argon2id argon2-cffi allows (one pass over 8 KiB in one lane: some microseconds,
#: against 0.18 s of CPU a hash or check at the production profile, the bulk of the account
#: tests' CPU). The hash's format, salt and constant-time check are the production code's.
_CHEAP_ARGON2 = {"time_cost": 1, "memory_cost": 8, "parallelism": 1}


@pytest.fixture(autouse=True)
def cheap_password_hashing(request: pytest.FixtureRequest,
                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Passwords hashed in the test's own process (the in-process apps) at the cheapest
    Argon2id, the dummy hash of an unknown name's sign-in too (so it still costs what a wrong
    password costs). Only tests do this, by replacing ``passwords._HASHER``: no setting of the
    server reaches it, and server processes (``pitch serve``, tests/hooked_serve.py) hash at the
    production cost. A test marked ``production_passwords`` keeps the production hasher: the
    one that checks its parameters (tests/test_accounts.py).

    Only where the server is imported already (by the module, or its app fixture): importing it
    here would add its 1.5 s to every run of the engine's tests. A test that first imports it
    in its own body hashes at the production cost, slower and no less right."""
    passwords = sys.modules.get("pitchcards.server.passwords")
    if passwords is None or request.node.get_closest_marker("production_passwords") is not None:
        return
    from argon2 import PasswordHasher

    cheap = PasswordHasher(**_CHEAP_ARGON2)
    monkeypatch.setattr(passwords, "_HASHER", cheap)
    monkeypatch.setattr(passwords, "DUMMY_HASH", cheap.hash("no account has this password"))
