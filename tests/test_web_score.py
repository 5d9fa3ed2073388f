"""The scorekeeper at /score on a phone (docs/web.md, "The scorekeeper at /score"): a table of
five keeps a Money Game's score by tapping — hands, a player leaving and paid, one joining, the
settlement — and the money shown is the core ScoreSheet's to the cent; a second phone follows
the sheet read-only and sees each change."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from browser_helpers import PHONE, Player, axe_violations, horizontal_overflow, screenshot
from pitchcards.money import cents_text
from pitchcards.outcome import Outcome
from pitchcards.rules import find_variant, parse_money
from pitchcards.score_form import QUESTIONS, points_question
from pitchcards.scoresheet import ScoreSheet
from server_helpers import server_fixture

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

server = server_fixture()

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]


def _tap(page: Any, selector: str) -> None:
    page.locator(selector).tap()


def _answer(page: Any, value: str | int) -> None:
    """Tap the hand form's button for an answer (a seat, a bid, a suit, none, yes …) and wait
    for the next question (or a refusal)."""
    state = "f => f ? f.dataset.step + '|' + f.querySelector('#hand-question').textContent : ''"
    before = page.locator("#hand-form").evaluate(state)
    _tap(page, f'#hand-choices button[data-value="{value}"]')
    page.wait_for_function(
        "before => { const f = document.querySelector('#hand-form');"
        " const now = f ? f.dataset.step + '|' + f.querySelector('#hand-question').textContent"
        " : ''; return now !== before || f.querySelector('#hand-error.error:not([hidden])') }",
        arg=before)


def _enter(page: Any, names: list[str], hand: dict[str, Any]) -> None:
    """Enter a hand by tapping: bidder, bid, trump, High, Low, Jack, Game (and the sweep),
    then confirm it; checks the confirmation shows made or set and every change."""
    version = int(page.locator("body").get_attribute("data-version"))
    _tap(page, "#next-hand")
    page.wait_for_selector('#hand-form[data-step="bidder"]')
    seat = names.index
    _answer(page, seat(hand["bidder"]))
    _answer(page, hand["bid"])
    _answer(page, hand["trump"])
    _answer(page, seat(hand["high"]))
    _answer(page, seat(hand["low"]))
    _answer(page, seat(hand["jack"]) if hand["jack"] else "none")
    _answer(page, seat(hand["game"]) if hand["game"] else "none")
    if "swept" in hand:
        assert page.locator("#hand-form").get_attribute("data-step") == "swept"
        _answer(page, "yes" if hand["swept"] else "no")
    page.wait_for_selector('#hand-form[data-step="confirm"]')
    confirm = page.locator("#hand-confirm")
    assert confirm.get_attribute("data-outcome") == hand["expect"]
    assert horizontal_overflow(page) == 0
    _tap(page, '#hand-choices button[data-value="score"]')
    page.wait_for_selector(f'body[data-version="{version + 1}"]')
    page.wait_for_selector("#next-hand, #settle")


def _outcome(names: list[str], hand: dict[str, Any]) -> Outcome:
    seat = names.index
    return Outcome(bidder=seat(hand["bidder"]), bid=hand["bid"], trump=hand["trump"],
                   high=seat(hand["high"]), low=seat(hand["low"]),
                   jack=seat(hand["jack"]) if hand["jack"] else None,
                   game=seat(hand["game"]) if hand["game"] else None,
                   swept=hand.get("swept"))


def _money_shown(page: Any) -> dict[str, int]:
    return {row.get_attribute("data-name"): int(row.get_attribute("data-cents"))
            for row in page.locator("#standings tbody tr").all()}


def _core_money(core: ScoreSheet) -> dict[str, int]:
    session = core.money
    assert session is not None
    cents = session.settle_cents()
    return {n: cents.get(n, session.payout_cents.get(n, 0)) for n in session.scores}


HANDS = [
    {"bidder": "Bob", "bid": 3, "trump": "H", "high": "Bob", "low": "Cy", "jack": "Bob",
     "game": "Bob", "expect": "made"},
    {"bidder": "Cy", "bid": 2, "trump": "S", "high": "Dee", "low": "Cy", "jack": None,
     "game": "Eve", "expect": "set"},
    {"bidder": "Dee", "bid": "moon", "trump": "D", "high": "Dee", "low": "Dee", "jack": "Dee",
     "game": "Dee", "swept": True, "expect": "moon"},
    {"bidder": "Eve", "bid": 4, "trump": "C", "high": "Eve", "low": "Ann", "jack": "Eve",
     "game": None, "expect": "set"},
]
AFTER = {"bidder": "Ann", "bid": 2, "trump": "H", "high": "Ann", "low": "Ann", "jack": "Fay",
         "game": "Bob", "expect": "made"}


def test_a_table_of_five_keeps_score_on_a_phone_and_a_second_phone_follows(browser, server):
    keeper = Player(browser, server.url, **PHONE)
    follower = Player(browser, server.url, **PHONE)
    checker = Player(browser, server.url, bypass_csp=True, **PHONE)
    try:
        page = keeper.page
        page.goto(server.url + "/score")
        page.wait_for_selector("form#new-sheet")
        assert horizontal_overflow(page) == 0
        _tap(page, "#add-player")
        for i, name in enumerate(NAMES, 1):
            page.fill(f"#player-{i}", name)
        page.select_option("#sheet-variant", "money")
        page.fill("#sheet-stake", "0.10")
        page.get_by_role("button", name="Start the sheet").tap()
        page.wait_for_url(re.compile(r".*/score/[A-Za-z0-9_-]+$"))
        sheet_id = page.url.rsplit("/", 1)[1]
        page.wait_for_selector("#next-hand")
        assert page.locator("#sheet-mode").get_attribute("data-mode") == "edit"
        token = json.loads(page.evaluate(f"localStorage.getItem('pitch.score.{sheet_id}')"))
        assert len(token["token"]) > 30

        follower.page.goto(f"{server.url}/score/{sheet_id}")
        follower.page.wait_for_selector('#sheet-mode[data-mode="follow"]')
        assert follower.page.locator("#next-hand, #undo, #settle").count() == 0
        assert follower.page.locator("#share-link").input_value().endswith(f"/score/{sheet_id}")

        rules = find_variant("money").replace(stake_per_point=parse_money("0.10", what="the stake"))
        core = ScoreSheet.new(rules, NAMES)
        names = list(NAMES)
        for number, hand in enumerate(HANDS, 1):
            _enter(page, names, hand)
            core.enter(_outcome(names, hand))
            assert _money_shown(page) == _core_money(core), f"after hand {number}"
            if number == 1:  # the second phone sees it within a few seconds
                follower.page.wait_for_selector('#history li[data-hand="1"]', timeout=30000)
                assert follower.page.locator('#history li[data-hand="1"]').inner_text() \
                    .startswith("1.")
        assert page.locator("#history li[data-hand]").count() == 4
        assert page.locator('#history li[data-hand="3"]').get_attribute("data-outcome") == "moon"

        # Dee leaves and is paid, by whom the core says.
        version = int(page.locator("body").get_attribute("data-version"))
        _tap(page, "#leave")
        _tap(page, '#leave-form button[data-value="Dee"]')
        page.wait_for_selector(f'body[data-version="{version + 1}"]')
        leave = core.leave("Dee")
        shown = page.locator('#history li[data-kind="leave"]').inner_text()
        paid = cents_text(leave.cents)[1:]
        assert shown.startswith(f"Dee leaves: {'paid' if leave.cents >= 0 else 'pays'} {paid}")
        for payment in leave.payments:
            assert payment.text() in shown
        assert page.locator("#message").inner_text() == shown
        names.remove("Dee")

        # Fay joins.
        _tap(page, "#join")
        page.fill("#join-name", "Fay")
        page.get_by_role("button", name="Seat them").tap()
        page.wait_for_selector(f'body[data-version="{version + 2}"]')
        core.join("Fay")
        names = list(core.session.names)
        assert page.locator('#history li[data-kind="join"]').count() == 1
        _enter(page, names, AFTER)
        core.enter(_outcome(names, AFTER))
        assert _money_shown(page) == _core_money(core)

        # Settle: the fewest payments, to the cent.
        _tap(page, "#settle")
        page.wait_for_selector("#settle-form")
        expected = [p.text() for p in core.settlement()]
        assert page.locator("#settle-form .payments li").all_inner_texts() == expected
        _tap(page, "#settle-confirm")
        page.wait_for_selector("#settlement li, #settlement p")
        payments = core.settle()
        assert [p.text() for p in payments] == expected
        shown_payments = page.locator("#settlement li").all()
        assert [li.inner_text() for li in shown_payments] == expected
        assert sum(int(li.get_attribute("data-cents")) for li in shown_payments) == sum(
            p.cents for p in payments)
        balances = {n: 0 for n in core.session.scores}
        for li in shown_payments:
            balances[li.get_attribute("data-payer")] -= int(li.get_attribute("data-cents"))
            balances[li.get_attribute("data-payee")] += int(li.get_attribute("data-cents"))
        owed = core.balances()
        assert {n: c for n, c in balances.items() if c} == {n: c for n, c in owed.items() if c}
        assert _money_shown(page) == _core_money(core)
        assert page.locator("#next-hand").count() == 0

        follower.page.wait_for_selector("#settlement li", timeout=30000)
        assert follower.page.locator("#settlement li").all_inner_texts() == expected
        for p in (page, follower.page):
            assert horizontal_overflow(p) == 0
        screenshot(page, "score-phone")

        # Accessibility: the new-sheet page, the sheet, the hand form, the followed sheet.
        checker.page.goto(server.url + "/score")
        checker.page.wait_for_selector("form#new-sheet")
        assert axe_violations(checker.page) == []
        checker.page.goto(f"{server.url}/score/{sheet_id}")
        checker.page.wait_for_selector("#settlement li")
        assert axe_violations(checker.page) == []
        assert keeper.errors == [] and follower.errors == [] and checker.errors == []
    finally:
        keeper.close()
        follower.close()
        checker.close()


def test_the_hand_form_back_cancel_and_points_instead(browser, server):
    """Back goes a step back, Cancel drops the hand, and the form fits the phone (axe clean);
    nothing is entered until the hand is confirmed; the points per player may be tapped
    instead of who took each point; undo asks first."""
    keeper = Player(browser, server.url, bypass_csp=True, **PHONE)
    try:
        page = keeper.page
        page.goto(server.url + "/score")
        page.wait_for_selector("form#new-sheet")
        for i, name in enumerate(["Ann", "Bob", "Cy"], 1):
            page.fill(f"#player-{i}", name)
        page.get_by_role("button", name="Start the sheet").tap()
        page.wait_for_selector("#next-hand")
        _tap(page, "#next-hand")
        # the questions shown are the server's, the scorekeeper's own (issue 28): the page
        # holds no words of its own for them
        page.wait_for_selector('#hand-form[data-step="bidder"]')
        assert page.locator("#hand-question").inner_text() == QUESTIONS["bidder"]
        _answer(page, 1)
        assert page.locator("#hand-question").inner_text() == QUESTIONS["bid"]
        _answer(page, 2)
        assert page.locator("#hand-form").get_attribute("data-step") == "trump"
        assert page.locator("#hand-question").inner_text() == QUESTIONS["trump"]
        assert "Bob bid 2" in page.locator("#hand-so-far").inner_text()
        assert axe_violations(page) == []
        assert horizontal_overflow(page) == 0
        _tap(page, "#hand-back")
        assert page.locator("#hand-form").get_attribute("data-step") == "bid"
        _tap(page, "#hand-cancel")
        page.wait_for_selector("#next-hand")
        assert page.locator("#history li").count() == 0
        assert page.locator("body").get_attribute("data-version") == "1"

        # The points per player instead of who took each: Bob bid 2 in spades and won 2, Cy 1.
        _tap(page, "#next-hand")
        for answer in (1, 2, "S", "points", 0, 2):
            _answer(page, answer)
        assert page.locator("#hand-question").inner_text() == points_question("Cy")
        _answer(page, 1)
        page.wait_for_selector('#hand-form[data-step="confirm"]')
        assert page.locator("#hand-confirm").get_attribute("data-outcome") == "made"
        assert page.locator("#hand-confirm .changes li").all_inner_texts() == [
            "Bob\n+2", "Cy\n+1"]
        _tap(page, '#hand-choices button[data-value="score"]')
        page.wait_for_selector('#history li[data-hand="1"][data-outcome="made"]')
        assert page.locator("body").get_attribute("data-version") == "2"

        # Undo asks first, naming what it takes back.
        _tap(page, "#undo")
        assert page.locator("#undo-form").inner_text().count("Hand 1: Bob bid 2") == 1
        _tap(page, "#undo-confirm")
        page.wait_for_selector('body[data-version="3"]')
        assert page.locator("#history li").count() == 0
        assert page.locator("#message").inner_text() == "Undone: hand 1"
        assert keeper.errors == []
    finally:
        keeper.close()


def test_the_form_script_holds_no_question_of_its_own():
    """The words of the hand form's questions live once, in pitchcards.score_form: the page's
    script renders the server's and restates none."""
    script = (Path(__file__).resolve().parent.parent / "src" / "pitchcards" / "server" / "web"
              / "js" / "score_form.js").read_text(encoding="utf-8")
    for step, words in QUESTIONS.items():
        assert words not in script, (step, words)
    assert "Points won" not in script and "What was the bid" not in script


def test_a_call_your_partner_hand_is_tapped_in_with_its_called_card_and_holder(browser, server):
    """Call-your-partner at /score (issue 36, CP3-CP6): after trump the form asks the called
    card (the server's list) and who held it (not the bidder, or nobody), offers no points
    instead, and the sheet scores the bidder and the partner together and says the call."""
    keeper = Player(browser, server.url, **PHONE)
    try:
        page = keeper.page
        page.goto(server.url + "/score")
        page.wait_for_selector("form#new-sheet")
        _tap(page, "#add-player")
        for i, name in enumerate(NAMES, 1):
            page.fill(f"#player-{i}", name)
        page.select_option("#sheet-variant", "call-partner")
        page.get_by_role("button", name="Start the sheet").tap()
        page.wait_for_selector("#next-hand")
        _tap(page, "#next-hand")
        page.wait_for_selector('#hand-form[data-step="bidder"]')
        for value in (1, 2):
            _answer(page, value)
        _answer(page, "H")
        assert page.locator("#hand-form").get_attribute("data-step") == "called"
        assert page.locator("#hand-question").inner_text() == QUESTIONS["called"]
        assert page.locator("#hand-choices button").count() == 52
        _answer(page, "AH")
        assert page.locator("#hand-form").get_attribute("data-step") == "partner"
        assert page.locator('#hand-choices button[data-value="1"]').count() == 0  # the bidder
        _answer(page, 3)
        assert "called A♥ (Dee)" in page.locator("#hand-so-far").inner_text()
        assert page.locator('#hand-choices button[data-value="points"]').count() == 0
        for value in (3, 2, 1, 4):  # High Dee, Low Cy, Jack Bob, Game Eve
            _answer(page, value)
        page.wait_for_selector('#hand-form[data-step="confirm"]')
        assert page.locator("#hand-confirm").get_attribute("data-outcome") == "made"
        _tap(page, '#hand-choices button[data-value="score"]')
        page.wait_for_selector("li.hand[data-hand='1']")
        detail = page.locator("li.hand[data-hand='1'] .hand-detail").inner_text()
        assert "called A♥, Dee's" in detail and "High Bob & Dee" in detail
        assert horizontal_overflow(page) == 0
    finally:
        keeper.close()
