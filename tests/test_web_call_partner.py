"""Call-your-partner at the browser table (issue 36, docs/rules.md 2.8; docs/web.md, "Calling a
partner"), in a real Chromium through a real server: Ann on a phone (390x844) wins the auction
and calls a card with the chooser (tap a card, then "Call …"); every page shows the called card;
the holder's page (Bob's) says he is her secret partner; no other page — its DOM or any frame —
names the partner before the card is played (CP5); the reveal is said and marked on the seats;
and no page names a card it could not know (tests/leak_check.py, the call's offers allowed)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from browser_helpers import (
    PHONE,
    Player,
    axe_violations,
    create_table,
    horizontal_overflow,
    leaks_seen,
    outside_viewport,
    screenshot,
    start,
    take_seat,
    words,
)
from server_helpers import server_fixture
from test_web_tenpoint import _LIVE_HISTORY, _LIVE_WATCH

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

server = server_fixture(hooked=True)  # tables dealt from a chosen seed

#: A deal (tests/hooked_serve.py) whose first auction no bot takes from Ann: her bid of 4 wins
#: (a long number: the leak check looks for a table's seed in every frame).
SEED_ANN_CALLS = 1_000_000_000_000_002
#: Short games: one hand is enough (bidder goes out, CP8: the only win rule with a call).
SHORT = {"target": 1}


def _ann_bids(bids: list[str]) -> str:
    return "bid 4" if "bid 4" in bids else max(bids)


def _bob_bids(bids: list[str]) -> str:
    return "pass" if "pass" in bids else bids[0]


def _calling(player: Player) -> bool:
    return player.page.locator('#actions[data-step="call"]').count() > 0


def _until_ann_calls(ann: Player, bob: Player, rng: random.Random) -> None:
    """Move Ann and Bob (Ann bids 4, Bob passes) until Ann's page offers the call."""
    def ready() -> bool:
        if _calling(ann):
            return True
        assert not any(e["type"] == "action_taken" and e["action"].startswith("call ")
                       for e in ann.events()), "a bot won the auction and called"
        moved = bool(ann.act(rng, bid=_ann_bids, how="tap")) or bool(bob.act(rng, bid=_bob_bids))
        if not moved:
            ann.page.wait_for_timeout(40)
        return False

    ann.wait(ready, 120, "Ann's call")


def _told(value: Any, bob_seat: int) -> bool:
    """Whether a decoded frame (at any depth) says who the partner is: ``partner`` the seat,
    ``partner_known`` or ``holds_called`` true."""
    if isinstance(value, dict):
        if value.get("partner") == bob_seat or value.get("partner_known") is True \
                or value.get("holds_called") is True:
            return True
        return any(_told(v, bob_seat) for v in value.values())
    if isinstance(value, list):
        return any(_told(v, bob_seat) for v in value)
    return False


def _partner_told(frame: str, bob_seat: int) -> bool:
    """Whether a frame tells its receiver who the partner is (or that it holds the card)."""
    return _told(json.loads(frame), bob_seat)


def _secret_kept(player: Player, card: str, bob_seat: int, bob: str) -> list[str]:
    """Every frame or DOM snapshot of ``player`` that names Bob as the partner before Bob
    played ``card`` (CP5)."""
    found = []
    for n, raw in enumerate(player.log):
        msg = json.loads(raw)
        event = msg.get("event") if msg.get("type") == "event" else None
        if event and event["type"] == "action_taken" and event["action"] == f"play {card}":
            break
        if msg.get("type") == "dom":
            html = msg["html"]
            marks = ("mark partner called", f"{bob}'s partner", f"with {bob}",
                     f"{bob} is your partner", f"{bob} was")
            if any(mark in html for mark in marks):
                found.append(f"{player.name or 'watcher'} dom {n}")
        elif _partner_told(raw, bob_seat):
            found.append(f"{player.name or 'watcher'} frame {n}: {raw[:200]}")
    return found


def test_ann_calls_on_a_phone_and_the_partner_stays_secret(browser: Any, server: Any) -> None:
    host = create_table(server.url, "Ann", seed=SEED_ANN_CALLS, variant="call-partner",
                        options=SHORT, bots={2: "random", 3: "random", 4: "random"})
    bob_seat = take_seat(server.url, host["invite"], "Bob", 1)
    ann = Player(browser, server.url, host, bypass_csp=True, **PHONE)  # axe is injected
    bob = Player(browser, server.url, bob_seat)
    watcher = Player(browser, server.url, table=host["table"])
    pages = [ann, bob, watcher]
    try:
        for p in pages:
            p.context.add_init_script(script=_LIVE_WATCH)
            p.open_table()
        start(server.url, host)
        rng = random.Random(36)
        _until_ann_calls(ann, bob, rng)
        page = ann.page
        for p in pages:
            p.snapshot()
        # the others are told she is calling, never what
        watcher.wait(lambda: "Ann is calling a partner…" in watcher.page.locator("#prompt")
                     .inner_text(), 20, "the watcher told Ann is calling")
        assert words(page.locator("#prompt").inner_text())
        assert "secret partner" in page.locator("#prompt").inner_text()
        # the chooser: the server's calls (none of Ann's own cards, CP3), a row a suit
        offered = page.eval_on_selector_all("#actions button.call-card",
                                            "els => els.map(e => e.dataset.card)")
        mine = set(ann.hand())
        assert len(offered) == 52 - 6 and not set(offered) & mine, offered
        assert page.locator("#actions .call-suit").count() == 4
        go = page.locator("#actions button.call-go")
        assert go.is_disabled()
        # on a phone: nothing wider than the screen, the button on it
        assert horizontal_overflow(page) == 0
        go.scroll_into_view_if_needed()
        assert outside_viewport(page, "#actions button.call-go") == []
        screenshot(page, "call-partner-chooser-390x844")
        assert axe_violations(page) == []
        # axe's injected script text is full of card-like names: out of the DOM snapshots
        page.evaluate("() => document.querySelectorAll('script:not([src])')"
                      ".forEach((s) => { if (s.textContent.includes('axe')) s.remove(); })")
        # a tap chooses (nothing is sent); then a card Bob holds, and "Call …" sends it
        card = sorted(bob.hand())[-1]
        other = next(c for c in offered if c != card)
        before = ann.seq()
        page.locator(f'#actions button.call-card[data-card="{other}"]').tap()
        page.wait_for_function(f"() => document.querySelector("
                               f"'#actions button.call-card[data-card=\"{other}\"]')"
                               f".getAttribute('aria-pressed') === 'true'")
        assert ann.seq() == before and not go.is_disabled()
        page.locator(f'#actions button.call-card[data-card="{card}"]').tap()
        page.wait_for_function("() => document.querySelector('#actions button.call-go')"
                               f".dataset.action === 'call {card}'")
        page.locator("#actions button.call-go").tap()
        ann.wait(lambda: any(e["type"] == "action_taken" and e["action"] == f"call {card}"
                             for e in ann.events()), 20, "the call taken")
        # every page shows the called card; the holder learns it is the partner
        short = card[0].replace("T", "10") + {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[card[1]]
        expected = {
            "Ann": f"You called the {short}: its holder is your secret partner.",
            "Bob": f"You hold the {short}: you are Ann's secret partner.",
            None: f"Ann called the {short}: its holder is Ann's secret partner.",
        }
        for p in pages:
            p.page.wait_for_function(
                "(want) => document.querySelector('#called').textContent === want",
                arg=expected[p.name])
            p.snapshot()
        assert bob.page.locator('.seat[data-seat="1"] .mark.called').inner_text() \
            == "secret partner"
        screenshot(page, "call-partner-called-390x844")
        # play on (Ann taps on her phone) until the hand is scored
        def scored() -> bool:
            return all(p.scored() >= 1 for p in pages)

        def step() -> bool:
            if scored():
                return True
            moved = bool(ann.act(rng, how="tap")) or bool(bob.act(rng))
            for p in pages:
                p.snapshot_if_changed()
            if not moved:
                ann.page.wait_for_timeout(40)
            return False

        bob_played = False

        def until_revealed() -> bool:
            nonlocal bob_played
            bob_played = any(e["type"] == "action_taken" and e["action"] == f"play {card}"
                             for e in watcher.events())
            return bob_played or step()

        ann.wait(until_revealed, 120, "Bob to play the called card")
        assert bob_played, "the hand ended before Bob played the called card"
        # the reveal: said, and marked on both seats of the partnership
        watcher.page.wait_for_function(
            "() => document.querySelector('#called').dataset.known === 'true'")
        watcher.page.wait_for_function(
            "() => (window.__live || [])"
            ".some((t) => t.includes(\"is out: Bob is Ann's partner!\"))")
        assert watcher.page.locator('.seat[data-seat="1"] .mark.called').inner_text() \
            == "Ann's partner"
        assert watcher.page.locator("#called").inner_text() in (
            f"Bob is Ann's partner (the {short}).", f"Bob was Ann's partner (the {short}).")
        assert watcher.page.locator('.seat[data-seat="0"] .mark.called').inner_text() \
            == "with Bob"
        page.wait_for_function(
            "() => (window.__live || []).some((t) => t.includes('is out: Bob is your partner!'))")
        assert page.locator('.seat[data-seat="1"] .mark.called').inner_text() == "your partner"
        for p in pages:
            p.snapshot()
        screenshot(page, "call-partner-revealed-390x844")
        ann.wait(step, 120, "the hand to be scored")
        # the hand's summary says who the partner was
        watcher.wait(lambda: any("Bob was Ann's partner" in t for t in watcher.summaries()), 20,
                     "the summary naming the partner")
        for p in pages:
            p.snapshot()
        # no page but Bob's named the partner before the card was played (CP5)
        problems = _secret_kept(ann, card, 1, "Bob") + _secret_kept(watcher, card, 1, "Bob")
        assert problems == [], "\n".join(problems[:5])
        assert any(_partner_told(f, 1) for f in bob.frames)  # not vacuous: Bob was told
        # nor any card it could not know
        leaks = leaks_seen(server.url, server.db_url, pages, host)
        assert leaks == [], "\n".join(leaks[:10])
        said = [t for p in pages for t in p.page.evaluate(_LIVE_HISTORY)]
        assert any(f"Ann called the {short}" in t for t in said), said
        for p in pages:
            assert p.errors == [], p.errors
    finally:
        for p in pages:
            p.close()
