"""The browser table comes back (docs/web.md, docs/protocol.md "Reconnecting"): a reload mid-hand
puts the player back in the same seat with the same cards at the same seq; a server killed
(-9) and restarted on the same port and database mid-hand shows #connection reconnecting, then
open, and the hand goes on."""

from __future__ import annotations

import random

import pytest

from browser_helpers import LEGAL_BIDS, LEGAL_CARDS, Player, create_table, play_until, start
from server_helpers import QUICK_LIMITS, ServerProcess

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]


@pytest.fixture
def server(tmp_path):
    """A server of this test's own: it is killed and started again."""
    started = ServerProcess(f"sqlite:///{tmp_path / 'server.db'}", workdir=tmp_path,
                            extra=QUICK_LIMITS)
    try:
        yield started.start()
    finally:
        started.stop()


def _my_turn_to_play(ann: Player, rng: random.Random, timeout: float = 60) -> None:
    """Play (by clicking) until it is Ann's turn to play a card."""
    while True:
        ann.wait(ann.my_turn, timeout, "Ann's turn")
        if not ann.page.locator(LEGAL_BIDS).count():
            return
        ann.act(rng)


def test_a_reload_mid_hand_resumes_the_same_seat_cards_and_seq(browser, server):
    host = create_table(server.url, "Ann", bots={1: "random", 2: "random", 3: "random"})
    ann = Player(browser, server.url, host)
    try:
        ann.open_table()
        start(server.url, host)
        rng = random.Random(5)
        _my_turn_to_play(ann, rng)
        ann.act(rng)          # one card played: the hand is under way
        _my_turn_to_play(ann, rng)
        hand, seq = sorted(ann.hand()), ann.seq()
        seat = ann.page.locator("#seats .seat[data-me]").get_attribute("data-seat")
        assert seat == "0" and len(hand) == 5
        ann.frames.clear()
        ann.page.reload()
        ann.page.wait_for_selector("#connection[data-state=open]")
        ann.wait(lambda: len(ann.hand()) == 5, 10, "the hand after the reload")
        assert sorted(ann.hand()) == hand
        assert ann.page.locator("#seats .seat[data-me]").get_attribute("data-seat") == seat
        welcome = next(m for m in ann.messages() if m["type"] == "welcome")
        assert welcome["you"]["seat"] == 0 and welcome["seq"] == seq
        assert ann.seq() == seq
        assert ann.page.locator(LEGAL_CARDS).count() > 0, "still Ann's turn after the reload"
        ann.act(rng)          # and she plays on
        assert ann.errors == []
    finally:
        ann.close()


def test_the_server_killed_and_restarted_mid_hand(browser, server):
    host = create_table(server.url, "Ann", bots={1: "random", 2: "random", 3: "random"})
    ann = Player(browser, server.url, host)
    try:
        ann.open_table()
        start(server.url, host)
        rng = random.Random(6)
        _my_turn_to_play(ann, rng)
        ann.act(rng)
        _my_turn_to_play(ann, rng)
        hand, seq = sorted(ann.hand()), ann.seq()
        server.kill9()
        ann.page.wait_for_selector("#connection[data-state=reconnecting]", timeout=15000)
        assert "reconnect" in ann.page.inner_text("#connection").lower()
        server.start()
        ann.page.wait_for_selector("#connection[data-state=open]", timeout=30000)
        ann.wait(lambda: sorted(ann.hand()) == hand, 10, "the same hand after the restart")
        assert ann.seq() == seq
        # play goes on: to the end of the hand
        scored = ann.scored()
        play_until([ann], lambda: ann.scored() > scored, rng, timeout=90)
        assert ann.errors == []
    finally:
        ann.close()
