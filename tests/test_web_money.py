"""Money at the browser table (issue 30, findings 3 and 4; docs/web.md, "Money"): every amount
a page shows is the engine's whole cents, they add up after every hand, leave and settlement,
who pays whom comes from the server (the scorekeeper's fewest payments), a leave or a
settlement is confirmed after a preview of its amounts, and the leaver's page says they left
and offers nothing more to leave or settle.

A chosen deal (the test server's hooks); Ann and Dee play from two browsers, Bob and Cy are bots.
Every wait is for a frame or for the page's state."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from browser_helpers import (
    HAND_CARDS,
    Player,
    api,
    create_table,
    play_until,
    screenshot,
    start,
    take_seat,
)
from server_helpers import server_fixture

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

server = server_fixture(hooked=True)

SEED = 1_000_000_000_000_007


def _cents(text: str) -> int:
    """'+$0.25' → 25, '-$1.20' → -120 (as words.js centsText writes them)."""
    found = re.fullmatch(r"([+-]?)\$(\d+)\.(\d\d)", text.strip())
    assert found, text
    value = int(found.group(2)) * 100 + int(found.group(3))
    return -value if found.group(1) == "-" else value


def _money_now(player: Player) -> list[int]:
    """The engine's cents in the last view this page was sent."""
    last = max((e for e in player.events() if (e.get("state") or e.get("view") or {}).get(
        "money_cents") is not None), key=lambda e: e["seq"])
    return list((last.get("state") or last["view"])["money_cents"])


def _standing(player: Player) -> dict[int, int]:
    """The score sheet's standing as shown: seat → cents (data-cents and the words agree)."""
    rows = player.page.eval_on_selector_all(
        "#scoresheet table.standing tbody tr",
        "rows => rows.map(r => [Number(r.dataset.seat), Number(r.dataset.cents), "
        "r.querySelector('td:last-child').textContent])")
    for _, cents, text in rows:
        assert _cents(text) == cents, (text, cents)
    return {seat: cents for seat, cents, _ in rows}


def _shows_the_engines_cents(player: Player) -> list[int]:
    """Wait until the standing shows the cents of the last view the page was sent; those."""
    player.wait(lambda: list(_standing(player).values()) == _money_now(player), 20,
                "the standing to show the engine's cents")
    return _money_now(player)


def _payments(root: Any) -> list[tuple[str, str, int]]:
    return [(p, q, int(c)) for p, q, c in root.locator("li.payment").evaluate_all(
        "ps => ps.map(p => [p.dataset.payer, p.dataset.payee, p.dataset.cents])")]


def _confirm(player: Player, button: str, what: str) -> dict[str, Any]:
    """Press #leave or #settle, check the confirmation's amounts against the server's preview,
    and confirm; returns the preview."""
    page = player.page
    page.locator(f"#{button}").click()
    dialog = page.locator(f'#confirm-money[open][data-what="{what}"]')
    dialog.wait_for()
    preview = dict(api(player.url, "GET", f"/api/tables/{player.table}/payments",
                       token=player.seat["token"] if player.seat else None))
    shown = _payments(dialog)
    screenshot(page, f"money-confirm-{what}")
    if what == "leave":
        cents = int(dialog.locator(".confirm-amount").get_attribute("data-cents") or "x")
        assert cents == preview["leave"]["cents"]
        assert f"${abs(cents) // 100}.{abs(cents) % 100:02d}" in dialog.inner_text()
        assert shown == [(p["payer"], p["payee"], p["cents"]) for p in preview["leave"]["payments"]]
        assert sum(c for *_, c in shown) == abs(cents)
    else:
        assert shown == [(p["payer"], p["payee"], p["cents"]) for p in preview["settle"]]
    assert preview["final"] is False  # asked during a hand: it waits for the break
    dialog.get_by_role("button", name=re.compile("^(Leave the table|Settle up)$")).click()
    dialog.wait_for(state="hidden")
    return preview


def test_money_adds_up_after_every_hand_leave_and_settlement(browser, server):
    host = create_table(server.url, "Ann", seed=SEED, variant="money", players=4,
                        bots={1: "easy", 2: "easy"})
    dee_seat = {**take_seat(server.url, host["invite"], "Dee", 3)}
    ann = Player(browser, server.url, host)
    dee = Player(browser, server.url, dee_seat)
    rng = random.Random(30)
    try:
        ann.open_table()
        dee.open_table()
        start(server.url, host)
        # hand 1: the standing shows the engine's cents, summing to zero
        play_until([ann, dee], lambda: ann.scored() >= 1 and dee.scored() >= 1, rng)
        scored = next(e for e in ann.events() if e["type"] == "hand_scored")
        # the last move's state is the hand as scored (hand_scored carries no state)
        after_one = max((e for e in ann.events() if e.get("state") and e["seq"] < scored["seq"]),
                        key=lambda e: e["seq"])["state"]["money_cents"]
        assert sum(after_one) == 0
        assert sum(_shows_the_engines_cents(ann)) == 0
        # hand 2: Dee asks to leave; the confirmation previews her payout and who pays it
        dee.wait(lambda: any(e["type"] == "hand_dealt" and e["hand"] == 1 for e in dee.events()),
                 30, "hand 2")
        dee.page.wait_for_selector(f"{HAND_CARDS} >> nth=0")
        _confirm(dee, "leave", "leave")
        play_until([ann, dee], lambda: any(e["type"] == "player_left" for e in ann.events()), rng)
        left = next(e for e in ann.events() if e["type"] == "player_left")
        assert left["name"] == "Dee"
        # what the server keeps of it: the scorekeeper's payments, summing to the payout
        info = api(server.url, "GET", f"/api/tables/{host['table']}")
        kept = info["payments"]["leaves"]
        assert [k["name"] for k in kept] == ["Dee"] and kept[0]["cents"] == left["cents"]
        assert sum(p["cents"] for p in kept[0]["payments"]) == abs(left["cents"])
        # Ann's page lists them as the server sent them
        item = ann.page.locator('#payments li.leave[data-name="Dee"]')
        item.wait_for()
        assert int(item.get_attribute("data-cents") or "x") == left["cents"]
        assert _payments(item) == [(p["payer"], p["payee"], p["cents"])
                                   for p in kept[0]["payments"]]
        # the leaver's page: she left, with her payout; nothing more to leave or settle
        dollars = f"${abs(left['cents']) // 100}.{abs(left['cents']) % 100:02d}"
        said = "you were paid" if left["cents"] >= 0 else "you pay"
        dee.page.locator("#prompt", has_text=f"You left the table: {said} {dollars}").wait_for()
        assert dee.page.locator("#leave").is_hidden() and dee.page.locator("#settle").is_hidden()
        screenshot(dee.page, "money-leaver")
        # the next hand is dealt without her: the seated cents and hers still sum to zero
        ann.wait(lambda: any(e["type"] == "hand_dealt" and e["seq"] > left["seq"]
                             for e in ann.events()), 30, "the hand after the leave")
        dealt = next(e for e in ann.events()
                     if e["type"] == "hand_dealt" and e["seq"] > left["seq"])
        assert "Dee" not in dealt["view"]["names"]
        assert sum(_shows_the_engines_cents(ann)) + left["cents"] == 0
        # her page after that hand's deal still says she left, never "take your seat"
        dee.wait(lambda: dee.seq() >= dealt["seq"], 30, "Dee's page to hear of the deal")
        prompt = dee.page.inner_text("#prompt")
        assert prompt.startswith("You left the table:") and "seat" not in prompt
        assert dee.page.locator("#leave").is_hidden() and dee.page.locator("#settle").is_hidden()
        # hand 3: Ann settles; the confirmation previews the payments
        ann.page.wait_for_selector(f"{HAND_CARDS} >> nth=0")
        _confirm(ann, "settle", "settle")
        play_until([ann], lambda: any(e["type"] == "settled" for e in ann.events()), rng)
        settled = next(e for e in ann.events() if e["type"] == "settled")
        paid = settled["payout_cents"]
        assert sum(paid.values()) + left["cents"] == 0  # the engine's cents add up
        info = api(server.url, "GET", f"/api/tables/{host['table']}")
        settlement = [(p["payer"], p["payee"], p["cents"]) for p in info["payments"]["settlement"]]
        ann.page.locator("#payments li.settlement").wait_for()
        assert _payments(ann.page.locator("#payments li.settlement")) == settlement
        # the cash handed over at Dee's leave and at the settlement pays each their cents
        moved: dict[str, int] = {}
        for payer, payee, cents in [(p["payer"], p["payee"], p["cents"])
                                    for p in kept[0]["payments"]] + settlement:
            moved[payer] = moved.get(payer, 0) - cents
            moved[payee] = moved.get(payee, 0) + cents
        owed = {**paid, "Dee": left["cents"]}
        assert {n: c for n, c in moved.items() if c} == {n: c for n, c in owed.items() if c}
        # the settlement line on the sheet says the same cents
        news = ann.page.inner_text("#scoresheet")
        for name, cents in paid.items():
            assert re.search(rf"{name} [+-]?\$0?{abs(cents) // 100}\.{abs(cents) % 100:02d}",
                             news), (name, cents, news)
        assert ann.errors == [] and dee.errors == []
    finally:
        ann.close()
        dee.close()
