"""Tricks you can follow (issue 30, finding 5): a finished trick stays on the felt as the
player's pace says — at "Until I tap" even after the next lead has come — with its winner named
on the felt; the pace is a setting remembered in this browser like the others.  The bots are
held (tests/hooked_serve.py) and let go one action at a time, so the order is the test's."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from browser_helpers import PHONE, WEB_FAST, WIDE, Player, api, screenshot, start
from server_helpers import server_fixture

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

server = server_fixture(hooked=True)

SEED = 1_000_000_000_000_031


def _held_table(url: str) -> dict[str, Any]:
    """Ann in seat 0, three random bots held until the test lets them act."""
    body = {"name": "Ann", "bots": {"1": "random", "2": "random", "3": "random"},
            "settings": WEB_FAST}
    return dict(api(url, "POST", "/_test/tables", {"table": body, "seed": SEED,
                                                   "hold_bots": True}))


def _bots(url: str, table: str, actions: int = 1) -> None:
    api(url, "POST", f"/_test/tables/{table}/bots", {"actions": actions})


def _with_pace(player: Player, pace: str) -> None:
    value = json.dumps({"pace": pace})
    player.context.add_init_script(script=f"try {{ localStorage.setItem('pitch.prefs', "
                                          f"{json.dumps(value)}); }} catch (e) {{}}")


def _won(player: Player) -> list[dict[str, Any]]:
    return [e for e in player.events() if e["type"] == "trick_won"]


def _until_a_bot_takes_a_trick(url: str, ann: Player, host: dict[str, Any]) -> dict[str, Any]:
    """Ann plays (clicking) when it is her turn, the bots one action at a time otherwise, until
    a bot takes a trick (it leads the next, with Ann's page at rest)."""
    rng = random.Random(5)
    for _ in range(400):
        won = [e for e in _won(ann) if e["winner"] != 0]
        if won:
            return won[-1]
        if not ann.act(rng):
            before = ann.seq()
            _bots(url, host["table"])
            ann.wait(lambda b=before: ann.seq() > b or ann.my_turn(), what="a bot's move")
    raise AssertionError("no bot took a trick")


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_until_i_tap_keeps_the_trick_and_names_its_winner(browser, server, device):
    host = _held_table(server.url)
    ann = Player(browser, server.url, host, motion=True,
                 **(PHONE if device == "phone" else WIDE))
    _with_pace(ann, "wait")
    try:
        ann.open_table()
        start(server.url, host)
        trick = _until_a_bot_takes_a_trick(server.url, ann, host)
        page = ann.page
        winner = trick["winner"]
        name = page.locator(f'#seats .seat[data-seat="{winner}"] .seat-name').inner_text()
        page.wait_for_selector("#trick-winner:not([hidden])")
        assert page.locator("#trick-winner").inner_text().startswith(f"{name} takes the trick")
        assert page.locator("#trick .played").count() == 4
        assert page.locator("#trick-next").is_visible()
        # the name covers none of the trick's cards nor any seat's tag
        covered = page.evaluate("""() => {
            const a = document.getElementById('trick-winner').getBoundingClientRect();
            return [...document.querySelectorAll('#trick .played, #seats .seat')].filter((n) => {
                const b = n.getBoundingClientRect();
                return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
            }).map((n) => n.dataset.card || n.innerText);
        }""")
        assert covered == []
        screenshot(page, f"pace-held-{device}")
        # the winner leads the next trick: the page has it (the turn moved on), the felt still
        # shows the finished trick
        _bots(server.url, host["table"])
        page.wait_for_selector(f'#seats .seat[data-seat="{(winner + 1) % 4}"][data-turn=true]')
        played = page.eval_on_selector_all("#trick .played", "els => els.map(e => e.dataset.card)")
        assert sorted(played) == sorted(trick["cards"])
        assert page.locator("#trick-winner").is_visible()
        # a tap lets it go: the trick in play, the winner's lead
        if device == "phone":
            page.locator("#trick-next").tap()
        else:
            page.locator("#trick-next").click()
        page.wait_for_selector("#trick-winner[hidden]", state="attached")
        page.wait_for_function("() => document.querySelectorAll('#trick .played').length === 1")
        assert page.locator(f'#trick .played[data-seat="{winner}"]').count() == 1
        assert ann.errors == []
    finally:
        ann.close()


def test_the_pace_is_a_remembered_setting_and_goes_by_itself(browser, server):
    host = _held_table(server.url)
    ann = Player(browser, server.url, host, motion=True, **WIDE)
    try:
        ann.open_table()
        select = ann.page.locator("#settings select[name=pace]")
        assert select.input_value() == "normal"     # the default (docs/web.md says why)
        select.select_option("fast")
        stored = json.loads(ann.page.evaluate("localStorage.getItem('pitch.prefs')"))
        assert stored["pace"] == "fast"
        ann.page.reload()
        ann.page.wait_for_selector("#connection[data-state=open]")
        assert ann.page.locator("#settings select[name=pace]").input_value() == "fast"
        start(server.url, host)
        _until_a_bot_takes_a_trick(server.url, ann, host)
        # at a timed pace the trick goes to its winner without a tap, and its name with it
        ann.page.wait_for_selector("#trick-winner[hidden]", state="attached")
        assert ann.page.locator("#trick-next").count() == 0
        assert ann.errors == []
    finally:
        ann.close()


def test_f_changes_the_pace_and_v_the_motion_as_the_keys_say(browser, server):
    """The keys' list and the keys agree (issue 30): f goes through the paces (as in the
    terminal game), v through the card motion; each is remembered and said."""
    host = _held_table(server.url)
    ann = Player(browser, server.url, host, motion=True, **WIDE)
    try:
        ann.open_table()
        page = ann.page
        listed = dict(zip(page.locator("#keys-help dt").all_text_contents(),
                          page.locator("#keys-help dd").all_text_contents(), strict=True))
        assert listed["f"].startswith("pace: a finished trick stays")
        assert listed["v"].startswith("card motion")
        page.locator("body").click(position={"x": 2, "y": 2})  # the focus on the page itself

        def stored() -> dict[str, Any]:
            return dict(json.loads(page.evaluate("() => localStorage.getItem('pitch.prefs')")
                                   or "{}"))

        page.keyboard.press("f")  # normal → slow
        page.wait_for_function("() => document.querySelector('#settings select[name=pace]')"
                               ".value === 'slow'")
        assert stored()["pace"] == "slow" and stored().get("speed", "normal") == "normal"
        page.keyboard.press("f")
        page.wait_for_function("() => document.querySelector('#settings select[name=pace]')"
                               ".value === 'wait'")
        assert page.get_by_text("A finished trick stays: until you tap.").count() >= 1
        page.keyboard.press("v")  # normal → slow motion; the pace stays
        page.wait_for_function("() => document.querySelector('#settings select[name=speed]')"
                               ".value === 'slow'")
        assert stored()["speed"] == "slow" and stored()["pace"] == "wait"
        assert ann.errors == []
    finally:
        ann.close()
