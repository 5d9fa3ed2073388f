"""The table on a phone never traps a tap (issue 30, findings 2, 6 and 8): the hand summary stays
inside the felt and its Close button is the element at its own centre — at a match's end and
mid-match while the next hand is bid — at 390x844 and 360x640 (touch) and 1366x900; no page is
wider than its viewport; the score sheet fits its column (342 px on a desktop) at 2, 3 and 4
sides.  Deals are chosen (tests/hooked_serve.py); screenshots go to test-artifacts/."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from browser_helpers import (
    HAND_CARDS,
    ILLEGAL_CARDS,
    PHONE,
    WEB_FAST,
    WIDE,
    Player,
    api,
    create_table,
    held_hands,
    horizontal_overflow,
    legal_now,
    play_until,
    screenshot,
    start,
    words,
)
from server_helpers import FAST, server_fixture

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

server = server_fixture(hooked=True)

DEVICES = {
    "phone": {**PHONE},
    "small-phone": {**PHONE, "viewport": {"width": 360, "height": 640}},
    "desktop": WIDE,
}
HOW = {"phone": "tap", "small-phone": "tap", "desktop": "click"}
SHORT = {"target": 1, "win_rule": "first_to_target_HLJG_order", "win_requires_made_bid": False}
SEED = 1_000_000_000_000_051


def _close_on_top(page: Any) -> str:
    """What is at the centre of the summary's Close button once it is scrolled into view ("" if
    the button itself)."""
    page.locator("#summary-close").scroll_into_view_if_needed()
    return str(page.evaluate("""() => {
        const b = document.getElementById('summary-close');
        const r = b.getBoundingClientRect();
        const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return at && (at === b || b.contains(at)) ? '' :
            (at ? at.tagName + '#' + at.id + '.' + at.className : 'nothing');
    }"""))


def _summary_inside_the_felt(page: Any) -> bool:
    return bool(page.evaluate("""() => {
        const d = document.getElementById('summary').getBoundingClientRect();
        const f = document.getElementById('felt').getBoundingClientRect();
        return d.top >= f.top - 1 && d.bottom <= f.bottom + 1 && d.left >= f.left - 1
            && d.right <= f.right + 1;
    }"""))


def _sheet_overflow(page: Any) -> int:
    return int(page.evaluate("""() => {
        const s = document.querySelector('#scoresheet .sheet-scroll');
        return s ? s.scrollWidth - s.clientWidth : -1;
    }"""))


#: The phones of ``DEVICES`` differ only in size: one game is looked at in each in turn (the
#: page resized, not the game replayed), the 390x844 phone first.
PHONE_SIZES = {name: (DEVICES[name]["viewport"]["width"], DEVICES[name]["viewport"]["height"])
               for name in ("phone", "small-phone")}


def _resize(page: Any, width: int, height: int) -> None:
    page.set_viewport_size({"width": width, "height": height})
    page.wait_for_function(f"() => window.innerWidth === {width}"
                           f" && window.innerHeight === {height}")


@pytest.mark.parametrize("device", ["phone+small-phone", "desktop"])
def test_at_a_matchs_end_close_is_tappable_and_nothing_is_too_wide(browser, server, device):
    """One match per device kind: the phone's is checked at 390x844 and again at 360x640."""
    sizes = dict(PHONE_SIZES) if device != "desktop" else {"desktop": None}
    how = HOW["phone"] if device != "desktop" else HOW["desktop"]
    host = create_table(server.url, "Annabel", seed=SEED, variant="auction-partners",
                        bots={"1": "random", "2": "random", "3": "random"}, options=SHORT)
    ann = Player(browser, server.url, host,
                 **DEVICES["phone" if device != "desktop" else "desktop"])
    try:
        ann.open_table()
        start(server.url, host)
        play_until([ann], ann.over, random.Random(3), how=how)
        page = ann.page
        page.wait_for_selector("#summary[open] .winner")
        for name, size in sizes.items():
            if size is not None:
                _resize(page, *size)
            screenshot(page, f"phone-match-end-{name}")
            assert _close_on_top(page) == "", name
            assert _summary_inside_the_felt(page), name
            assert horizontal_overflow(page) == 0, name
            assert _sheet_overflow(page) == 0, name
            # the partnership's win is said once, by the side's names
            lines = {line.strip() for line in page.locator("#app").inner_text().splitlines()
                     if " win" in line and "First to" not in line}
            assert len(lines) == 1 and re.fullmatch(r"\S+ & \S+ win the match!", lines.pop())
        close = page.locator("#summary-close")
        close.tap() if how == "tap" else close.click()
        page.wait_for_selector("#summary:not([open])", state="attached")
        assert ann.errors == []
    finally:
        ann.close()


def _held_table(url: str, players: int, seat: int) -> dict[str, Any]:
    body = {"name": "Annabel", "variant": "auction", "players": players, "seat": seat,
            "settings": WEB_FAST, "bots": {str(s): "random" for s in range(players) if s != seat}}
    return dict(api(url, "POST", "/_test/tables", {"table": body, "seed": SEED,
                                                   "hold_bots": True}))


def _step(ann: Player, url: str, table: str, rng: random.Random, how: str) -> None:
    """Ann's move if it is her turn, else one held bot's action (and the page has it)."""
    if not ann.act(rng, how=how):
        before = ann.seq()
        api(url, "POST", f"/_test/tables/{table}/bots", {"actions": 1})
        ann.wait(lambda: ann.seq() > before or ann.my_turn(), what="a bot's move")


def test_mid_match_the_summary_stays_in_the_felt_while_the_next_hand_is_bid(browser, server):
    """One game, looked at on the 390x844 phone and then, resized, the 360x640 small phone."""
    host = _held_table(server.url, 4, seat=1)
    ann = Player(browser, server.url, host, **DEVICES["phone"])
    rng = random.Random(9)
    try:
        ann.open_table()
        start(server.url, host)
        for _ in range(300):
            if ann.scored() >= 1 and any(e["type"] == "hand_dealt" for e in ann.events()[-3:]):
                break
            _step(ann, server.url, host["table"], rng, "tap")
        page = ann.page
        page.wait_for_selector("#summary[open]")
        # hand 2's auction, a bot to bid (held): the summary is open over the felt
        assert not ann.my_turn(), "the chosen deal gives Ann the first bid of hand 2"
        assert page.locator("#felt").get_attribute("data-phase") == "auction"
        for name, (width, height) in PHONE_SIZES.items():
            _resize(page, width, height)
            assert page.locator("#summary[open]").count() == 1, name
            assert _close_on_top(page) == "", name
            assert _summary_inside_the_felt(page), name
            assert horizontal_overflow(page) == 0, name
            screenshot(page, f"phone-mid-match-{name}")
        page.locator("#summary-close").tap()
        page.wait_for_selector("#summary:not([open])", state="attached")
        assert ann.errors == []
    finally:
        ann.close()


@pytest.mark.parametrize("sides", [2, 3, 4])
def test_the_score_sheet_fits_its_column(browser, server, sides):
    variant, players = ("auction-partners", 4) if sides == 2 else ("auction", sides)
    # the two hands are played from Python (the sheet is what is under test, not the play):
    # a fresh page loads the finished hands' rows as the score sheet's results
    host = held_hands(server.url, "Annabel", seed=SEED, hands=2, rng=random.Random(4),
                      variant=variant, players=players, settings=FAST,
                      bots={s: "random" for s in range(1, players)})
    pages = []
    try:
        for device in ("desktop", "small-phone"):
            player = Player(browser, server.url, host, **DEVICES[device])
            pages.append(player)
            page = player.open_table().page
            page.wait_for_function(
                "() => document.querySelectorAll('#scoresheet tr[data-hand]').length >= 2")
            if device == "desktop":
                screenshot(page, f"scoresheet-{sides}-sides-desktop")
                assert page.evaluate("document.querySelector('#scoresheet').clientWidth") <= 345
            assert _sheet_overflow(page) == 0, device
            assert horizontal_overflow(page) == 0, device
            assert player.errors == []
    finally:
        for p in pages:
            p.close()


def test_the_first_tap_on_an_illegal_card_shows_the_servers_reason(browser, server):
    """A tap on a dimmed card at the player's turn sends it at once: the server's refusal, in
    words, shows after one tap (it took two), and nothing moves."""
    host = _held_table(server.url, 4, seat=1)
    ann = Player(browser, server.url, host, **DEVICES["phone"])
    rng = random.Random(11)
    try:
        ann.open_table()
        start(server.url, host)
        page = ann.page
        for _ in range(200):
            illegal = page.eval_on_selector_all(ILLEGAL_CARDS, "es => es.map(e => e.dataset.card)")
            if ann.my_turn() and illegal and page.locator("#felt[data-phase=play]").count():
                seq = ann.seq()
                page.locator(f'#hand button.card[data-card="{illegal[0]}"]').tap()
                page.wait_for_selector("#refusal:not([hidden])")
                assert words(page.inner_text("#refusal"))
                assert ann.seq() == seq
                assert any(m.get("type") == "error" for m in ann.messages())
                screenshot(page, "phone-refused-card")
                break
            _step(ann, server.url, host["table"], rng, "tap")
        else:
            raise AssertionError("no illegal card at Annabel's turn")
        assert ann.errors == []
    finally:
        ann.close()


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_key_hints_name_the_bids_on_offer_and_none_on_a_phone(browser, server, device):
    """At the player's bid the prompt's keys are the digits of the bids the server offers (not
    "1-4" where no bid of 1 exists); a touch phone gets no key hints; ★ is explained in play."""
    host = _held_table(server.url, 4, seat=1)
    ann = Player(browser, server.url, host, **DEVICES[device])
    rng = random.Random(13)
    try:
        ann.open_table()
        start(server.url, host)
        page = ann.page
        for _ in range(20):
            if ann.my_turn():
                break
            _step(ann, server.url, host["table"], rng, "click")
        assert page.locator("#felt[data-phase=auction]").count()
        prompt = page.inner_text("#prompt")
        if device == "phone":
            assert "Keys" not in prompt and "Enter" not in prompt
            assert not page.locator("#keys-help").is_visible()
        else:
            digits = [a.split()[1] for a in legal_now(ann) if re.fullmatch(r"bid \d", a)]
            assert digits and f"Keys: {', '.join(digits)}, p" in prompt, (prompt, digits)
            assert page.locator("#keys-help").is_visible()
        # on to the play: ★ beside the pitcher's bid is explained
        for _ in range(40):
            if page.locator("#felt[data-phase=play]").count():
                break
            _step(ann, server.url, host["table"], rng, "tap" if device == "phone" else "click")
        page.wait_for_selector("#star-note:not([hidden])")
        assert "★" in page.inner_text("#seats") and "pitcher" in page.inner_text("#star-note")
        screenshot(page, f"keys-and-star-{device}")
        assert ann.errors == []
    finally:
        ann.close()


#: Long names, as people type them: the seats' tags must still keep apart.
LONG_NAMES = ("Maximiliana", "Bartholomew", "Wilhelmina", "Christopher", "Evangeline")

#: The tags of ``#seats`` that overlap another, or whose words spill out of their tag.
_TAG_CLASHES = """() => {
    const tags = [...document.querySelectorAll('#seats .seat')];
    const boxes = tags.map((t) => t.getBoundingClientRect());
    const out = [];
    for (let i = 0; i < boxes.length; i += 1) {
        const t = tags[i];
        if (t.scrollWidth > t.clientWidth + 1) out.push(`seat ${t.dataset.seat} spills`);
        for (let j = i + 1; j < boxes.length; j += 1) {
            const a = boxes[i], b = boxes[j];
            if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1
                && b.top < a.bottom - 1) {
                out.push(`seats ${t.dataset.seat} and ${tags[j].dataset.seat}`);
            }
        }
    }
    return out;
}"""


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_seats_name_tags_never_overlap_on_a_phone(browser, server, players):
    """Issue 30, finding 4: at 390x844 and 360x640 no two seats' name tags overlap, and no
    name spills out of its tag — seen from a seat and from outside the hands (a leaver's or a
    spectator's page, where nobody is at the bottom)."""
    body = {"name": "Ann", "players": players, "settings": WEB_FAST}
    host = dict(api(server.url, "POST", "/_test/tables", {"table": body, "seed": SEED,
                                                         "hold_bots": True}))
    for seat, name in zip(range(1, players - 1), LONG_NAMES, strict=False):
        api(server.url, "POST", f"/api/invites/{host['invite']}/seats", {"name": name,
                                                                         "seat": seat})
    start(server.url, host)   # the last seat gets a bot; the long names never connect
    for who, seat in (("seat", host), ("outside", None)):
        page_of = Player(browser, server.url, seat, table=host["table"], **PHONE)
        try:
            page = page_of.open_table().page
            page.wait_for_function(f"() => document.querySelectorAll('#seats .seat').length"
                                   f" === {players}")
            for width, height in ((390, 844), (360, 640)):
                page.set_viewport_size({"width": width, "height": height})
                page.wait_for_function(f"() => window.innerWidth === {width}")
                clashes = page.evaluate(_TAG_CLASHES)
                if players == 3 or width == 360 or clashes:
                    screenshot(page, f"seats-{players}-{who}-{width}x{height}")
                assert clashes == [], (who, players, width)
            assert page_of.errors == []
        finally:
            page_of.close()


#: What covers ``#clock`` (the element at the centre of each of its lines' boxes that is not
#: the clock), and whether its box meets the hand's.
_CLOCK_COVERED = """() => {
    const clock = document.getElementById('clock');
    const hand = document.getElementById('hand').getBoundingClientRect();
    const out = [];
    for (const part of clock.querySelectorAll('.deadline')) {
        for (const r of part.getClientRects()) {
            const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
            if (!at || !(at === clock || clock.contains(at))) {
                out.push(`${part.dataset.name}: ${at ? at.tagName + '#' + at.id : 'nothing'}`);
            }
        }
    }
    const c = clock.getBoundingClientRect();
    if (c.left < hand.right - 1 && hand.left < c.right - 1 && c.top < hand.bottom - 1
        && hand.top < c.bottom - 1) out.push('the clock meets the hand');
    return out;
}"""


@pytest.mark.parametrize("size", [(360, 640), (390, 844)])
def test_the_clock_is_never_under_the_hand(browser, server, size):
    """At six seats on a phone, with the turn timer and four dropped players' grace clocks
    running, every line of ``#clock`` is the element at its own centre (nothing covers it: not
    the hand, which stays at the bottom of the screen) and its box does not meet the hand's."""
    settings = {**WEB_FAST, "turn_timer": 600, "grace": 600}
    body = {"name": "Ann", "players": 6, "settings": settings}
    host = dict(api(server.url, "POST", "/_test/tables", {"table": body, "seed": SEED,
                                                         "hold_bots": True}))
    for seat, name in zip(range(1, 5), LONG_NAMES, strict=False):
        api(server.url, "POST", f"/api/invites/{host['invite']}/seats", {"name": name,
                                                                         "seat": seat})
    width, height = size
    ann = Player(browser, server.url, host, **{**PHONE, "viewport": {"width": width,
                                                                     "height": height}})
    try:
        page = ann.open_table().page
        start(server.url, host)   # the last seat gets a bot; the long names never connect
        page.wait_for_selector(f"{HAND_CARDS} >> nth=0")
        page.wait_for_function(
            "() => document.querySelectorAll('#clock .deadline[data-kind=grace]').length === 4")
        screenshot(page, f"clock-6-seats-{width}x{height}")
        assert page.evaluate(_CLOCK_COVERED) == []
        assert horizontal_overflow(page) == 0
        assert ann.errors == []
    finally:
        ann.close()
