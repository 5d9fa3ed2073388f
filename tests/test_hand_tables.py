"""The legal-action lookup tables of :mod:`pitchcards.hand` are made on first use (issue 27: not
at import); a thread that finds them half made must not list wrong actions (review F5: one
thread's first listing of plays published _SUIT_PLAYS before _SUIT_PITCHES, and another's first
auction listing then got an empty pitch table and raised IndexError; both are now published
together, in one list: issue 35)."""

from __future__ import annotations

import threading

import pytest

import pitchcards as pc
from pitchcards import _fast, hand


def _auction_actions() -> list[str]:
    h = pc.Hand.deal(pc.find_variant("auction"), players=4, seed=7)
    return [str(a) for a in h.legal_actions()]


@pytest.mark.skipif(_fast.compiled(), reason="a compiled module's globals cannot be set from "
                                             "Python: the pure build runs this (scripts/test.sh)")
def test_tables_not_yet_made_are_made_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    plays, pitches = hand._suit_tables()
    expected = _auction_actions()
    # a process (or a thread) that finds no table made yet: an auction listing makes both
    monkeypatch.setattr(hand, "_SUIT_TABLES", [])
    assert _auction_actions() == expected
    assert [plays, pitches] == hand._SUIT_TABLES


def test_many_threads_listing_at_once_agree() -> None:
    expected = _auction_actions()
    got: list[list[str]] = []
    start = threading.Barrier(4)

    def list_them() -> None:
        start.wait(timeout=60)
        got.append(_auction_actions())

    threads = [threading.Thread(target=list_them) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert got == [expected] * 4
