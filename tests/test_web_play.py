"""Playing at the browser table (docs/web.md) in a real Chromium through a real server, by
clicking: two people in two browsers and two bots play a hand and no page — its DOM or any
WebSocket frame it received — names a card of another seat before it is played; bidding, the
pitch, a refused card, the hand's summary, the score sheet; a money table's leave and payout;
the hand-history viewer."""

from __future__ import annotations

import json
import random
import re
from fractions import Fraction
from typing import Any

import pytest

import pitchcards as pc
from browser_helpers import (
    AXE,
    HAND_CARDS,
    ILLEGAL_CARDS,
    LEGAL_BIDS,
    LEGAL_CARDS,
    Player,
    a_finished_hand,
    axe_violations,
    create_table,
    leaks_seen,
    legal_now,
    play_until,
    record,
    start,
    take_seat,
    words,
)
from leak_check import truth
from server_helpers import server_fixture

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

# hooked (tests/hooked_serve.py): the games that must be of a known length or reach a chosen
# moment are dealt from a chosen seed, their bots seeded from it (docs/testing.md)
server = server_fixture(hooked=True)

#: Ann or Bob wins hand 1's auction and pitches: the bid, the pitch and the summary are all
#: seen in one hand (on a random deal it took up to five, and the test failed when none of
#: them had Ann or Bob win a bid)
BIDDING_SEED = 1_000_000_000_000_003
#: Ann or Bob must follow suit holding a card of another suit in hand 1 (on a random deal
#: the test played up to four hands and failed if no such moment came)
REFUSAL_SEED = 1_000_000_000_000_003
#: a match to 3 won in its first hand, the same match every run (on a random deal the match
#: was of chance length)
MATCH_SEED = 1_000_000_000_000_007


def _two_people_two_bots(browser, url: str, *, settings: dict[str, float] | None = None,
                         level: str = "random", watchers: list[Player] | None = None,
                         seed: int | None = None, **fields: Any) -> tuple[dict, list[Player]]:
    """Ann (host, seat 0) and Bob (seat 2) each in their own browser, bots in seats 1 and 3;
    both pages (and any spectator's page in ``watchers``, appended) open before the start, so
    every frame of the game reaches them (a page opened later gets a snapshot)."""
    host = create_table(url, "Ann", bots={1: level, 3: level}, seed=seed,
                        **({"settings": settings} if settings else {}), **fields)
    bob = take_seat(url, host["invite"], "Bob", 2)
    players = [Player(browser, url, host, motion=True), Player(browser, url, bob, motion=True)]
    for p in players:
        p.open_table()
    if watchers is not None:
        watchers.append(Player(browser, url, table=host["table"], motion=True).open_table())
    start(url, host)
    return host, players


def _close(players: list[Player]) -> None:
    for p in players:
        p.close()


def _view_now(player: Player) -> dict[str, Any]:
    """The seat's view as the server last sent it (an event's ``state``, a deal's ``view``, a
    snapshot's ``view``)."""
    for message in reversed(player.messages()):
        event = message.get("event") if message.get("type") == "event" else None
        if event is not None and (event.get("state") or event.get("view")):
            return dict(event.get("state") or event["view"])
        if message.get("type") == "snapshot":
            return dict(message["view"])
    return {}


def test_two_browsers_play_a_hand_and_see_no_card_they_cannot_know(browser, server):
    """Ann's and Bob's pages, and a spectator's, through a whole hand: no DOM snapshot and no
    frame names a card its viewer could not know at that moment."""
    watchers: list[Player] = []
    host, players = _two_people_two_bots(browser, server.url, watchers=watchers)
    watcher = watchers[0]
    try:
        rng = random.Random(12)

        def done() -> bool:
            watcher.snapshot_if_changed()
            return all(p.scored() >= 1 for p in [*players, watcher])

        play_until(players, done, rng, timeout=120)
        for p in [*players, watcher]:
            p.snapshot()
        problems = leaks_seen(server.url, server.db_url, [*players, watcher], host)
        assert problems == [], "\n".join(problems[:10])
        # not vacuous: each page showed its own six cards, and cards the others played
        dealt = truth(record(server.url, host))[0]
        for p in [*players, watcher]:
            doms = [json.loads(e)["html"] for e in p.log if e.startswith('{"type": "dom"')]
            own = dealt[p.name].dealt if p.name in dealt else set()
            others = set().union(*(h.dealt for n, h in dealt.items() if n != p.name))
            assert not own or any(all(f'data-card="{c}"' in d for c in own) for d in doms), \
                p.name
            assert any(any(f'data-card="{c}"' in d for c in others) for d in doms), p.name
            assert any('"hand_dealt"' in f for f in p.frames)
            assert p.errors == [], p.errors
        assert watcher.page.locator("#seats .seat[data-me]").count() == 0
        assert watcher.page.locator(HAND_CARDS).count() == 0
    finally:
        _close([*players, watcher])


def test_the_last_trick_the_live_region_and_chat(browser, server):
    """#last-trick shows the trick just won; #live says each play in a sentence; a chat line
    sent from Ann's page shows on Bob's; #history-link leads to the hand history."""
    from playwright.sync_api import expect

    host, players = _two_people_two_bots(browser, server.url)
    ann, bob = players
    try:
        assert (ann.page.locator("#history-link").get_attribute("href") or "").endswith(
            f"/t/{host['table']}/history")
        live = ann.page.locator("#live")
        assert live.get_attribute("aria-live") == "polite"
        play_until(players, lambda: any(e["type"] == "trick_won" for e in ann.events()),
                   random.Random(13), timeout=60)
        won = next(e for e in ann.events() if e["type"] == "trick_won")
        expect(live).not_to_have_text(re.compile(r"^\s*$"))
        assert words(live.inner_text()), live.inner_text()
        button = ann.page.locator("#last-trick")
        button.click()
        # what the button shows: the panel it controls (else anywhere on the page)
        scope = f"#{button.get_attribute('aria-controls')}" if button.get_attribute(
            "aria-controls") else "body"
        for card in won["cards"]:
            expect(ann.page.locator(f'{scope} [data-card="{card}"]').first).to_be_visible()
        ann.page.fill("#chat input", "Good luck, Bob")
        ann.page.locator("#chat").get_by_role("button", name="Send").click()
        expect(bob.page.locator("#chat")).to_contain_text("Good luck, Bob")
        expect(ann.page.locator("#chat")).to_contain_text("Good luck, Bob")
        assert ann.errors == [] and bob.errors == []
    finally:
        _close(players)


def _highest_bid(actions: list[str]) -> str:
    bids = [a for a in actions if re.fullmatch(r"bid \d+", a)]
    return max(bids, key=lambda a: int(a.split()[1])) if bids else actions[0]


def _play_hands(players: list[Player], seen: dict[str, bool], rng: random.Random,
                max_hands: int, expect: Any) -> int:
    """Play hands by clicking, checking what ``seen`` lists (its keys) on the way, until all
    are seen or ``max_hands`` were played; the hands played."""
    hands = 0
    while not all(seen.values()) and hands < max_hands:
        target = hands + 1

        def hand_done(target: int = target) -> bool:
            return all(p.scored() >= target for p in players) or all(seen.values())

        while not hand_done():
            moved = False
            for p in players:
                if hand_done() or p.pending() or not p.my_turn():
                    continue
                moved = True
                _one_move(p, rng, seen, expect)
            if not moved:
                players[0].page.wait_for_timeout(40)
        if not all(p.scored() >= target for p in players):
            break
        hands = target
        if "summary" in seen:
            _summary_and_score_sheet(players, hands, expect)
            seen["summary"] = True
    return hands


def _summary_and_score_sheet(players: list[Player], hands: int, expect: Any) -> None:
    """After a hand, on both pages: #summary opened (High, made or set) — it stays until the
    player closes it or must act in the next hand, which may come soon after a short pause —
    and the score sheet has a row per hand with the scores after it; the summary's button
    closes it."""
    for p in players:
        p.wait(lambda p=p: any(f"Hand {hands}" in s for s in p.summaries()), 30,
               f"the summary of hand {hands}")
        summary = next(s for s in p.summaries() if f"Hand {hands}" in s)
        assert re.search(r"High", summary) and re.search(r"made|set", summary,
                                                         re.IGNORECASE), summary
        expect(p.page.locator("#scoresheet tr[data-hand]")).to_have_count(hands)
        scored = [e for e in p.events() if e["type"] == "hand_scored"][-1]
        row = p.page.locator("#scoresheet tr[data-hand]").nth(hands - 1).inner_text()
        for score in scored["scores"]:
            assert re.search(rf"(?<!\d)[-−]?{abs(score)}(?!\d)", row), (row, scored)
    # a page not yet to act in the next hand still shows it: the next deal waits out the
    # pause, and then only one of the two people can be first to act in it
    open_ = [p for p in players if p.page.locator("#summary[open]").count()]
    assert open_, "the summary closed by itself before anyone had to act"
    open_[0].page.locator("#summary button").first.click()
    expect(open_[0].page.locator("#summary")).not_to_have_attribute("open", "")


def test_bidding_the_pitch_the_summary_and_the_score_sheet(browser, server):
    """Ann and Bob bid as high as they may (so one of them pitches, in a few hands at most):
    their bid shows at their seat; #trump is empty until the pitch, then names the suit; after
    each hand #summary opens, and the score sheet has a row per hand."""
    from playwright.sync_api import expect

    # the summary opens once the last trick has stayed its 1.5 s (the default pace) and gone,
    # and not at all if its player must act in the next hand by then: with a pause of 4 s
    # between hands a renderer late by 2.5 s (a loaded machine) skipped it (issue 27).  Long
    # pause, no cost: the seed shows everything in hand 1 and the test ends there
    _host, players = _two_people_two_bots(browser, server.url, level="easy",
                                          settings={"bot_delay": 0.05, "hand_pause": 60},
                                          seed=BIDDING_SEED)
    seen = {"bid": False, "pitch": False, "summary": False}
    try:
        hands = _play_hands(players, seen, random.Random(7), 5, expect)
        assert all(seen.values()), f"not seen in {hands} hands: {seen}"
        for p in players:
            assert p.errors == [], p.errors
    finally:
        _close(players)


def test_two_browsers_play_a_whole_match_to_its_winner_and_a_rematch(browser, server):
    """A whole match (Auction Pitch to 3) between Ann's and Bob's browsers and two bots: the
    score sheets of both pages end with the record's hands and totals, the host is offered a
    rematch, and the rematch takes both pages to the new table in their same seats."""
    from playwright.sync_api import expect

    host, players = _two_people_two_bots(browser, server.url, level="medium",
                                          settings={"bot_delay": 0.05, "hand_pause": 0.3},
                                          options={"target": 3}, seed=MATCH_SEED)
    try:
        def cautious(bids: list[str]) -> str:  # the people pass unless the dealer must bid
            return "pass" if "pass" in bids else bids[0]

        play_until(players, lambda: all(p.over() for p in players), random.Random(21),
                   timeout=240, bid=cautious)
        game = pc.replay(pc.read_record(record(server.url, host)))
        assert game.is_over and game.winner is not None
        for p in players:
            sheet = p.page.locator("#scoresheet tr[data-hand]")
            expect(sheet).to_have_count(len(game.hands))
            assert p.errors == [], p.errors
        rematch = players[0].page.locator("#rematch")
        expect(rematch).to_be_visible()
        assert not players[1].page.locator("#rematch").is_visible()  # the host's alone
        old = host["table"]
        rematch.click()
        for p in players:
            p.page.wait_for_url(re.compile(r"/t/(?!" + old + r")\w+"), timeout=30000)
            expect(p.page.locator("#seats .seat[data-me]")).to_have_count(1)
            expect(p.page.locator("#connection")).to_have_attribute("data-state", "open")
        assert players[0].page.url == players[1].page.url
        new = players[0].page.url.rstrip("/").rsplit("/", 1)[-1]
        # the rematch links back to the finished table, and that table forward to the
        # rematch (issue 30): Bob follows the link back and finds the way forward again
        page = players[1].page
        back = page.locator("#rematch-of-link")
        expect(page.locator("#rematch-of")).to_be_visible()
        expect(back).to_have_attribute("href", f"/t/{old}")
        back.click()
        page.wait_for_url(re.compile(r"/t/" + old + r"$"), timeout=30000)
        expect(page.locator("#connection")).to_have_attribute("data-state", "open")
        expect(page.locator("#rematch-link")).to_be_visible()
        expect(page.locator("#rematch-link")).to_have_attribute("href", f"/t/{new}")
        assert page.locator("#rematch-of").is_hidden()  # the first match is no one's rematch
        expect(page.locator("#scoresheet tr[data-hand]")).to_have_count(len(game.hands))
        assert players[1].errors == [], players[1].errors
    finally:
        _close(players)


def test_a_click_on_an_illegal_card_is_refused_in_words(browser, server):
    """When Ann or Bob must follow suit, a click (two: pick, play) on a card of another suit
    (data-legal=false) shows #refusal in words; the hand and the seq stay as they were; the
    next move clears it."""
    from playwright.sync_api import expect

    _host, players = _two_people_two_bots(browser, server.url, level="easy", seed=REFUSAL_SEED)
    seen = {"refusal": False}
    try:
        hands = _play_hands(players, seen, random.Random(8), 4, expect)
        assert seen["refusal"], f"no illegal card to click in {hands} hands"
        for p in players:
            assert p.errors == [], p.errors
    finally:
        _close(players)


def _one_move(p: Player, rng: random.Random, seen: dict[str, bool], expect: Any) -> None:
    """Ann's or Bob's move, checking what the page shows around it."""
    page = p.page
    assert p.seat is not None
    me = p.seat["seat"]
    legal = legal_now(p)
    if "summary" in seen:
        # the summary never stands between the player and their move
        assert not page.locator("#summary[open]").count(), "the summary is open at my turn"
    bids = page.eval_on_selector_all(LEGAL_BIDS, "es => es.map(e => e.dataset.action)")
    if bids:
        disabled = page.eval_on_selector_all("#actions button[data-action][disabled]",
                                             "es => es.map(e => e.dataset.action)")
        assert set(bids) == {a for a in legal if not a.startswith(("pitch", "play"))}, (
            bids, legal)
        assert not set(disabled) & set(legal), (disabled, legal)
        choice = _highest_bid(bids)
        label = page.locator(f'#actions button[data-action="{choice}"]').inner_text().strip()
        if choice.startswith(("bid", "pass")):
            assert label == choice.capitalize(), (choice, label)
        p.act(rng, bid=lambda _bids: choice)
        if choice.startswith("bid") and "bid" in seen:
            number = choice.split()[1]
            expect(page.locator(f'#seats .seat[data-seat="{me}"]')).to_contain_text(
                re.compile(rf"\b{number}\b"))
            seen["bid"] = True
        return
    if (legal and all(a.startswith(("pitch", "play")) for a in legal)
            and _view_now(p).get("trump") is None and seen.get("pitch") is False):
        expect(page.locator("#trump")).to_have_text(re.compile(r"^\s*$"))
        card = rng.choice([a.split()[1] for a in legal])
        p.click_card(card)
        suit = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}[card[1]]
        symbol = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[card[1]]
        expect(page.locator("#trump")).to_contain_text(re.compile(suit, re.IGNORECASE))
        assert symbol in page.inner_text("#trump") or page.locator(
            f"#trump [data-suit={card[1]}]").count(), page.inner_html("#trump")
        seen["pitch"] = True
        return
    illegal = page.eval_on_selector_all(ILLEGAL_CARDS, "es => es.map(e => e.dataset.card)")
    if illegal and seen.get("refusal") is False:
        hand, seq = p.hand(), p.seq()
        errors = len([m for m in p.messages() if m.get("type") == "error"])
        assert not set(illegal) & {a.split()[1] for a in legal}, (illegal, legal)
        p.click_card(illegal[0])
        expect(page.locator("#refusal")).not_to_have_text(re.compile(r"^\s*$"), timeout=30000)
        reason = page.inner_text("#refusal")
        assert words(reason), f"#refusal is not words: {reason!r}"
        page.wait_for_timeout(300)  # anything the server might (wrongly) send arrives
        assert p.hand() == hand, "a refused card changed the hand"
        assert p.seq() == seq, "a refused card moved the table on"
        assert all(m["seq"] == seq for m in
                   [m for m in p.messages() if m.get("type") == "error"][errors:])
        assert page.locator(LEGAL_CARDS).count() == len({a for a in legal
                                                         if a.startswith(("play", "pitch"))})
        seen["refusal"] = True
        p.act(rng)
        expect(page.locator("#refusal")).to_have_text(re.compile(r"^\s*$"))
        return
    p.act(rng)


def test_the_invite_at_the_table(browser, server):
    """The host's page shows the invite link (kept with the seat token: the server keeps only
    its hash) while a seat is open before the start; a guest's page, without it, does not;
    once every seat is taken it goes."""
    from playwright.sync_api import expect

    host = create_table(server.url, "Ann", players=3, bots={1: "easy"})
    ann = Player(browser, server.url, host, bypass_csp=True)
    try:
        ann.open_table()
        box = ann.page.locator("#table-invite")
        expect(box).to_be_visible()
        if AXE.exists():
            assert axe_violations(ann.page) == []
        assert ann.page.input_value("#table-invite input") == \
            f"{server.url}/join/{host['invite']}"
        expect(box).to_contain_text("Invite friends")
        expect(box.get_by_role("button", name="Copy")).to_be_visible()
        cy = take_seat(server.url, host["invite"], "Cy", 2)
        expect(box).to_be_hidden()
        guest = Player(browser, server.url, cy).open_table()
        try:
            assert guest.page.locator("#table-invite").is_hidden()
            assert guest.errors == []
        finally:
            guest.close()
        assert ann.errors == []
    finally:
        ann.close()


def _accept_confirmation(page: Any) -> None:
    """A leave asks first, showing what it would pay (#confirm-money): say yes."""
    dialog = page.locator('#confirm-money[open][data-what="leave"]')
    dialog.wait_for()
    dialog.get_by_role("button", name="Leave the table").click()


def test_a_money_table_leave_and_its_payout(browser, server):
    """Ann at a money table with two bots asks to leave during the first hand: it waits for the
    break (#leave shows it pending), then the payout the server sent is shown."""
    from playwright.sync_api import expect

    host = create_table(server.url, "Ann", variant="money", players=3,
                        bots={1: "easy", 2: "easy"})
    ann = Player(browser, server.url, host)
    ann.page.on("dialog", lambda d: d.accept())
    try:
        ann.open_table()
        start(server.url, host)
        ann.page.wait_for_selector(f"{HAND_CARDS} >> nth=0", timeout=30000)
        leave = ann.page.locator("#leave")
        expect(leave).to_be_visible()
        leave.click()
        _accept_confirmation(ann.page)
        rng = random.Random(3)
        play_until([ann], lambda: any(e["type"] == "player_left" for e in ann.events()), rng,
                   timeout=90)
        left = next(e for e in ann.events() if e["type"] == "player_left")
        assert left["name"] == "Ann"
        cents = left["cents"]  # the engine's cents (A-R7.6), within a cent of the exact payout
        assert abs(Fraction(left["payout"]) * 100 - cents) < 1
        dollars = f"{abs(cents) // 100}.{abs(cents) % 100:02d}"
        ann.wait(lambda: dollars in ann.page.inner_text("body"), 30, f"the payout {dollars}")
        text = ann.page.inner_text("#scoresheet") + ann.page.inner_text("body")
        assert re.search(rf"\$\s?{re.escape(dollars)}|{re.escape(dollars)}\s?\$", text), (
            dollars, text[-2000:])
        assert ann.errors == []
    finally:
        ann.close()


# ---------------------------------------------------------------------------- history


def test_the_hand_history_viewer(browser, server):
    """Step through a finished hand: every seat's cards face up, trick by trick."""
    from playwright.sync_api import expect

    ann_seat = a_finished_hand(server.url)
    dealt = truth(record(server.url, ann_seat))[0]
    viewer = Player(browser, server.url, ann_seat)
    try:
        page = viewer.page
        page.goto(f"{server.url}/t/{ann_seat['table']}/history")
        hands = page.locator("#hands a, #hands button, #hands li")
        expect(hands.first).to_be_visible(timeout=30000)
        if page.locator("#hands a, #hands button").count():
            page.locator("#hands a, #hands button").first.click()
        position = page.locator("#position")
        expect(position).to_contain_text(re.compile(r"\d+ of 6"), timeout=30000)
        # the hand is over: every seat's dealt cards are shown face up
        shown = set(page.eval_on_selector_all("[data-card]", "es => es.map(e => e.dataset.card)"))
        everyone = set().union(*(h.dealt for h in dealt.values()))
        assert everyone <= shown, f"not shown: {sorted(everyone - shown)}"
        seen = [position.inner_text()]
        forward = page.locator("#step-forward")
        for _ in range(12):
            if forward.is_disabled():
                break
            forward.click()
            expect(position).not_to_have_text(seen[-1])
            seen.append(position.inner_text())
        assert re.search(r"6 of 6", seen[-1]), seen
        assert forward.is_disabled(), "Next at the hand's end"
        assert len(set(seen)) == len(seen) >= 6, seen
        page.locator("#step-back").click()
        expect(position).to_have_text(seen[-2])
        assert viewer.errors == []
    finally:
        viewer.close()


def test_the_dom_check_catches_a_card_named_in_words(browser):
    """A page that shows another seat's card — as data-card, in an aria-label's words or as a
    symbol — before it is played is reported; its own cards are not."""
    import pitchcards as pc
    from leak_check import Game, leaks
    from pitchcards.table import Table

    m = pc.Match(pc.find_variant("auction"), players=3, dealer=0, seed=3, names=["A", "B", "C"])
    t = Table(m)
    t.deal()
    mine, theirs = t.view(0).hand[0], t.view(1).hand
    while t.in_hand:
        t.push(t.view(t.to_act).legal_actions[0])  # type: ignore[arg-type]
    names = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
    ranks = {"T": "Ten", "J": "Jack", "Q": "Queen", "K": "King", "A": "Ace"}
    page = Player(browser, "http://127.0.0.1")
    try:
        page.log.append('{"type":"event","event":{"type":"hand_dealt","hand":0,"seq":1}}')
        shows = [f'<button class=card data-card="{mine}" aria-label="x"></button>',
                 f'<span data-card="{theirs[0]}"></span>',
                 f'<span aria-label="{ranks.get(theirs[1][0], theirs[1][0])} of '
                 f'{names[theirs[1][1]]}"></span>',
                 f'<p>{theirs[2][0].replace("T", "10")}{"♣♦♥♠"["CDHS".index(theirs[2][1])]}</p>']
        for html in shows:
            page.page.set_content(html)
            page.snapshot()
        found = leaks(Game("t", "auction", {"p": page.log}, {"p": "A"}, pc.write_record(m)))
        assert not any("frame 1 " in f for f in found), found
        for n, card in ((2, theirs[0]), (3, theirs[1]), (4, theirs[2])):
            assert any(f"frame {n} " in f and card in f for f in found), (n, card, found)
    finally:
        page.close()
