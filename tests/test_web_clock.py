"""The table's clock in the browser (issue 30, finding 1; docs/web.md, "The clock"): the server
sends the turn timer's deadline and a dropped player's grace deadline (``TableInfo.deadlines``),
the page counts them down, and when the turn timer runs out the server marks the stand-in's move
(``timed_out``) and the page says "Time ran out — a bot played for you".

No wall clock decides anything here: the timers are long (10 minutes) and the test server's hook
``POST /_test/tables/{id}/expire`` runs the turn timer out when the test says so; the bots are
held and let act by ``POST /_test/tables/{id}/bots``; every wait is for the page's state."""

from __future__ import annotations

import re
from typing import Any

import pytest

from browser_helpers import HAND_CARDS, Player, api, screenshot, take_seat
from server_helpers import server_fixture

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

server = server_fixture(hooked=True)

SEED = 1_000_000_000_000_003
#: Long clocks: only the test's hook runs the turn timer out.
CLOCKS = {"bot_delay": 0, "hand_pause": 0.3, "turn_timer": 600, "grace": 600}


#: The page's monotonic clock, movable by the test (``window.__later`` ms ahead): the countdown
#: is checked at its last seconds and at zero without waiting for them.  The socket's own timers
#: (setTimeout) are not moved.
LATER = """
window.__later = 0;
const realNow = performance.now.bind(performance);
performance.now = () => realNow() + window.__later;
"""


def _bots(url: str, table: str) -> dict[str, Any]:
    """Let the held bots act until the table waits for a person."""
    return dict(api(url, "POST", f"/_test/tables/{table}/bots", {"actions": 200}))


def test_the_countdown_and_the_timeout_message(browser, server):
    """Ann (a browser) and Bob (who never connects) with a bot: Bob's grace shows counting down
    from the start; when Bob must act Ann sees his turn clock, and the turn the server's timer
    plays for him is said as his; on Ann's turn her countdown shows, and when it runs out the
    page says a bot played for her — each after the server's frames say so."""
    host = dict(api(server.url, "POST", "/_test/tables", {
        "table": {"name": "Ann", "variant": "auction", "players": 3, "bots": {2: "easy"},
                  "settings": CLOCKS},
        "seed": SEED, "hold_bots": True}))
    take_seat(server.url, host["invite"], "Bob", 1)
    ann = Player(browser, server.url, host)
    ann.context.add_init_script(script=LATER)
    try:
        page = ann.page
        ann.open_table()
        api(server.url, "POST", f"/api/tables/{host['table']}/start", token=host["token"])
        page.wait_for_selector(f"{HAND_CARDS} >> nth=0")
        # Bob has not come: his seat waits out the grace, and the page says how long
        grace = page.locator('#clock .deadline[data-kind="grace"][data-name="Bob"]')
        grace.wait_for()
        assert re.fullmatch(r"Bob is offline: a bot plays for them in (10:00|9:\d\d)\.\s*",
                            grace.inner_text()), grace.inner_text()
        assert int(grace.get_attribute("data-left") or 0) > 500
        told = [m for m in ann.messages() if m.get("type") in ("table", "welcome")]
        assert any(d["kind"] == "grace" and d["name"] == "Bob" and 0 < d["remaining_ms"] <= 600_000
                   for m in told for d in m["table"]["deadlines"])
        timed_out_bob = False
        while True:
            to_act = _bots(server.url, host["table"])["to_act"]
            assert to_act in (0, 1), to_act
            if to_act == 0:
                break
            # Bob's turn: his clock, then the server plays it for him
            page.locator('#clock .deadline[data-kind="turn"][data-name="Bob"]').wait_for()
            assert api(server.url, "POST", f"/_test/tables/{host['table']}/expire")["expired"]
            page.locator("#timed-out", has_text="Time ran out for Bob — a bot played for "
                                                "them.").wait_for()
            timed_out_bob = True
        # Ann's turn: her countdown, counting
        mine = page.locator('#clock .deadline[data-kind="turn"][data-name="Ann"]')
        mine.wait_for()
        assert re.fullmatch(r"Your turn: (10:00|9:\d\d) left, then a bot plays for you\.\s*",
                            mine.inner_text()), mine.inner_text()
        first = int(mine.get_attribute("data-left") or 0)
        assert 500 < first <= 600
        page.wait_for_function(
            f"() => Number(document.querySelector('#clock .deadline[data-name=Ann]')"
            f"?.dataset.left) < {first}")
        assert page.locator("#timed-out").is_hidden()
        assert page.locator("#clock").get_attribute("data-warn") == "false"
        assert page.inner_text("#clock-alert") == ""
        # the last seconds: red, and said once to screen readers
        page.evaluate(f"() => {{ window.__later = {(first - 6) * 1000}; }}")
        page.locator('#clock[data-warn="true"]').wait_for()
        assert re.fullmatch(r"[1-6] seconds left to act\.", page.inner_text("#clock-alert"))
        screenshot(page, "clock-last-seconds")
        # zero: the page waits for the server, which alone decides the turn is over
        page.evaluate(f"() => {{ window.__later = {(first + 5) * 1000}; }}")
        page.locator('#clock .deadline[data-name="Ann"][data-left="0"]').wait_for()
        assert "Your turn: 0:00 left" in mine.inner_text()
        assert page.locator("#timed-out").is_hidden() and ann.my_turn()
        seq = ann.seq()
        assert api(server.url, "POST", f"/_test/tables/{host['table']}/expire")["expired"]
        page.locator("#timed-out", has_text="Time ran out — a bot played for you.").wait_for()
        screenshot(page, "clock-timed-out")
        # the server said so: the stand-in's move for Ann's seat is marked timed_out
        marked = [m for m in ann.messages() if m.get("type") == "event" and m["event"]["seq"] > seq
                  and m.get("timed_out")]
        assert marked and marked[0]["event"]["type"] == "action_taken"
        assert marked[0]["event"]["seat"] == 0 and marked[0]["event"]["by_bot"] is True
        # the other moves are not marked
        assert sum(bool(m.get("timed_out")) for m in ann.messages()) == 1 + timed_out_bob
        page.locator('#clock .deadline[data-kind="turn"][data-name="Ann"]').wait_for(
            state="detached")
        assert ann.errors == []
    finally:
        ann.close()
