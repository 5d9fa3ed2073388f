"""Your statistics in the browser (issue 30): a match played at the browser table is counted in
this browser's localStorage per variant — matches, wins, hands, points (the side's score
change), contracts bid and made — from the server's events, and the home page shows them
(`#stats`).  A short partnership match (the first side to a point wins) from a chosen deal;
the expected numbers are the server's own events, read from the frames the page received."""

from __future__ import annotations

import json
import random

import pytest

from browser_helpers import PHONE, WIDE, Player, create_table, play_until, screenshot, start
from server_helpers import server_fixture

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

server = server_fixture(hooked=True)

SEED = 1_000_000_000_000_041
SHORT = {"target": 1, "win_rule": "first_to_target_HLJG_order", "win_requires_made_bid": False}


def test_a_match_is_counted_once_and_shown_on_the_home_page(browser, server):
    host = create_table(server.url, "Ann", seed=SEED, variant="auction-partners",
                        bots={"1": "random", "2": "random", "3": "random"}, options=SHORT)
    ann = Player(browser, server.url, host, **WIDE)
    try:
        ann.open_table()
        start(server.url, host)
        play_until([ann], ann.over, random.Random(7))
        page = ann.page
        page.wait_for_function("() => (JSON.parse(localStorage.getItem('pitch.stats') || 'null')"
                               " || {variants: {}}).variants['auction-partners']?.matches === 1")
        events = ann.events()
        scored = [e for e in events if e["type"] == "hand_scored"]
        (won,) = [e for e in events if e["type"] == "match_won"]
        # the server says each seat's side (TableInfo); Ann in seat 0 is on team 0
        infos = [m["table"] for m in ann.messages() if m.get("type") == "table"]
        side = next(s["side"] for s in infos[-1]["seats"] if s["seat"] == 0)
        assert side == 0 and [s["side"] for s in infos[-1]["seats"]] == [0, 1, 0, 1]
        stats = json.loads(page.evaluate("localStorage.getItem('pitch.stats')"))
        mine = stats["variants"]["auction-partners"]
        assert mine["matches"] == 1
        assert mine["wins"] == int(won["winner"] == side)
        assert mine["hands"] == len(scored)
        assert mine["points"] == sum(e["result"]["deltas"][side] for e in scored)
        assert mine["bids"] == sum(e["result"]["pitcher"] == 0 for e in scored)
        assert mine["made"] == sum(e["result"]["pitcher"] == 0 and e["result"]["made"]
                                   for e in scored)
        # a reload is not a second match (the page gets a snapshot, and each hand counts once)
        page.reload()
        page.wait_for_selector("#connection[data-state=open]")
        again = json.loads(page.evaluate("localStorage.getItem('pitch.stats')"))
        assert again["variants"] == stats["variants"]
        # the home page shows them, by the game's name
        page.goto(server.url + "/")
        row = page.locator('#stats tr[data-variant="auction-partners"]')
        assert row.locator("th").inner_text() == "Auction pitch, partners"
        assert row.locator('[data-stat="matches"]').inner_text() == "1"
        assert row.locator('[data-stat="wins"]').inner_text() == str(mine["wins"])
        assert row.locator('[data-stat="made"]').inner_text() == f"{mine['made']} of {mine['bids']}"
        assert row.locator('[data-stat="per-hand"]').inner_text() == (
            f"{mine['points'] / mine['hands']:.2f}")
        screenshot(page, "stats-desktop")
        assert ann.errors == []
    finally:
        ann.close()


def test_no_statistics_yet_says_so(browser, server):
    viewer = Player(browser, server.url, **PHONE)
    try:
        viewer.page.goto(server.url + "/")
        assert "No hand played here yet." in viewer.page.locator("#stats").inner_text()
        screenshot(viewer.page, "stats-empty-phone")
    finally:
        viewer.close()
