"""The scorekeeper at five and six (issue 36): three teams of two (TT1-TT8) and call-your-partner
(CP3-CP7) — hands entered by their outcome, the terminal's hand form, the sheet's rows, the
record's outcome line and the server's sheet API.  Cheap: no cards dealt but one chosen hand,
one in-process server for the module."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

import pitchcards as pc
from pitchcards.bots import make_bot
from pitchcards.errors import IllegalActionError
from pitchcards.hand import Hand
from pitchcards.notation.format import _parse_outcome, format_outcome
from pitchcards.outcome import EnteredHand, Outcome
from pitchcards.score_form import HandForm, partner_choices
from pitchcards.scoresheet import ScoreSheet
from pitchcards.sheet_rows import hand_line
from server_helpers import QUICK_LIMITS, app_fixture

pytestmark = pytest.mark.timeout(120)

server = app_fixture(extra=QUICK_LIMITS)

FIVE = ["Ann", "Bob", "Cy", "Dee", "Eve"]
SIX = ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo"]
CALL = pc.find_variant("call-partner")
TEAMS = pc.find_variant("three-teams")


def _enter(rules: pc.RuleSet, outcome: Outcome, players: int = 5) -> EnteredHand:
    return EnteredHand.enter(rules, players, 0, outcome)


# ------------------------------------------------------------------ three teams (TT1-TT8)
def test_three_teams_score_per_team_and_partners_share_the_column() -> None:
    sheet = ScoreSheet.new(TEAMS, SIX)
    # Bob (team 1: Bob & Eve) bids 3; Eve takes Jack, Cy (team 2) Low: 3 - set? No: made 3.
    sheet.enter(Outcome(bidder=1, bid=3, trump="H", high=1, low=2, jack=4, game=1))
    assert sheet.session.side_scores() == [0, 3, 1]
    line = hand_line(sheet)
    assert line.sides == (("Ann", "Dee"), ("Bob", "Eve"), ("Cy", "Flo"))
    assert line.takers["jack"] == ("Bob", "Eve") and line.outcome == "made"


def test_three_teams_form_names_the_teams_and_takes_points_per_team() -> None:
    form = HandForm(TEAMS, SIX, 0)
    for key in ("b", "2", "s", "p", "1", "2", "0"):
        assert form.key(key) is None, key
    assert form.step == "confirm" and form.result is not None
    assert form.result.deltas == (1, 2, 0)
    assert "Ann&Dee 1, Bob&Eve 2, Cy&Flo 0" in form.so_far()


# ------------------------------------------------------------------ call-your-partner (CP3-CP7)
def test_a_made_call_scores_the_pitcher_and_partner_together_defenders_each() -> None:
    hand = _enter(CALL, Outcome(bidder=1, bid=2, trump="H", called="AH", partner=3,
                                high=3, low=2, jack=1, game=4))
    result = hand.result
    assert result is not None and result.made  # CP6: High (Dee) and Jack (Bob) are pooled
    assert result.deltas == (0, 2, 1, 2, 1)
    assert result.called == "AH" and result.partner == 3


def test_a_set_call_costs_both_under_both_and_only_the_pitcher_under_pitcher_only() -> None:
    outcome = Outcome(bidder=1, bid=3, trump="H", called="AH", partner=3, high=3, low=2,
                      jack=None, game=4)
    assert _enter(CALL, outcome).result.deltas == (0, -3, 1, -3, 1)  # type: ignore[union-attr]
    only = CALL.replace(call_set="pitcher_only")
    assert _enter(only, outcome).result.deltas == (0, -3, 1, 0, 1)  # type: ignore[union-attr]


def test_a_called_card_nobody_was_dealt_leaves_the_pitcher_alone() -> None:
    result = _enter(CALL, Outcome(bidder=0, bid=2, trump="S", called="KS", partner=None,
                                  high=0, low=0, jack=2, game=3)).result
    assert result is not None and result.made and result.partner is None  # CP4
    assert result.deltas == (2, 0, 1, 1, 0)


def test_pooled_defenders_each_score_the_defenders_total() -> None:
    side = CALL.replace(call_defenders="side")
    result = _enter(side, Outcome(bidder=1, bid=2, trump="H", called="AH", partner=3,
                                  high=3, low=2, jack=0, game=4)).result
    # High for the side (1 point of 2: set); Low, Jack and Game pooled by the defenders (CP6)
    assert result is not None and result.deltas == (3, -2, 3, -2, 3)


@pytest.mark.parametrize(("outcome", "said"), [
    (Outcome(bidder=1, bid=2, trump="H", high=1, low=1, jack=1, game=1), "which card"),
    (Outcome(bidder=1, bid=2, trump="H", called="ZZ", partner=2, high=1, low=1, jack=1,
             game=1), "not a card"),
    (Outcome(bidder=1, bid=2, trump="H", called="AH", partner=1, high=1, low=1, jack=1,
             game=1), "did not hold"),
    (Outcome(bidder=1, bid=2, trump="H", called="AH", partner=9, high=1, low=1, jack=1,
             game=1), "not a player"),
    (Outcome(bidder=1, bid=2, trump="H", called="AH", partner=2, points=(0, 2, 1, 0, 0)),
     "not the points"),
])
def test_a_call_outcome_that_cannot_be_is_refused_naming_what_is_wrong(
        outcome: Outcome, said: str) -> None:
    with pytest.raises(IllegalActionError, match=said) as caught:
        _enter(CALL, outcome)
    assert caught.value.reason in ("bad_outcome", "no_such_seat")


def test_a_call_in_a_game_without_one_is_refused() -> None:
    with pytest.raises(IllegalActionError, match="no call"):
        _enter(pc.find_variant("auction"), Outcome(bidder=1, bid=2, trump="H", called="AH",
                                                   partner=2, high=1, low=1, jack=1, game=1))


def test_calling_ones_own_card_is_playing_alone_under_alone_allowed() -> None:
    rules = CALL.replace(call_rule="alone_allowed")
    assert partner_choices(rules, 5, 1) == [0, 1, 2, 3, 4]
    assert partner_choices(CALL, 5, 1) == [0, 2, 3, 4]
    result = _enter(rules, Outcome(bidder=1, bid=2, trump="H", called="AH", partner=1,
                                   high=1, low=1, jack=0, game=2)).result
    assert result is not None and result.deltas == (1, 2, 1, 0, 0)


def test_the_record_line_carries_the_call_and_reads_back() -> None:
    outcome = Outcome(bidder=1, bid=2, trump="H", called="TH", partner=None, high=3, low=2,
                      jack=1, game=4)
    text = format_outcome(outcome)
    assert "called TH, partner -" in text
    assert _parse_outcome(text, 1) == outcome
    again = Outcome(bidder=1, bid=2, trump="H", called="AH", partner=3, high=3, low=2, jack=1,
                    game=4)
    assert _parse_outcome(format_outcome(again), 1) == again
    assert Outcome.from_dict(again.to_dict()) == again


def test_a_played_hand_entered_by_its_outcome_scores_the_same() -> None:
    """A chosen deal played to the end by the heuristic; its outcome, entered, gives the same
    result (who scores what by the hand's sides, CP6)."""
    bot = make_bot("heuristic", 1)
    for seed in range(40):
        hand = Hand.deal(CALL, 5, dealer=0, seed=seed)
        while hand.result is None:
            hand.push(bot.choose(hand.view(hand.seat_to_act)))
        result = hand.result
        if result.thrown_in or result.partner in (None, result.pitcher):
            continue
        outcome = Outcome.of(hand)
        assert outcome.called == result.called and outcome.partner == result.partner
        entered = EnteredHand.enter(CALL, 5, 0, outcome).result
        assert entered is not None and entered.deltas == result.deltas
        assert Outcome.of(hand, points=True) == outcome  # a call's points say no taker
        return
    pytest.fail("no hand with a partner in 40 deals")


def test_the_form_asks_the_called_card_and_its_holder_and_shows_them() -> None:
    form = HandForm(CALL, FIVE, 0)
    for key in ("b", "2", "h"):
        assert form.key(key) is None
    assert form.step == "called" and form.question() == "Which card did the bidder call?"
    assert form.key("x") is not None and form.step == "called"
    assert form.key("a") is None and form.choices().startswith("A of")
    assert form.key("backspace") is None and form.key("t") is None and form.key("h") is None
    assert form.step == "partner" and "- nobody (not dealt)" in form.choices()
    assert "2 Bob" not in form.choices()  # CP3: not the bidder's own card
    assert form.key("b") is not None  # the bidder cannot hold the card it called
    assert form.key("d") is None and form.step == "high"
    assert "p points instead" not in form.choices()
    for key in ("d", "c", "b", "e"):
        assert form.key(key) is None, key
    assert form.step == "confirm" and form.result is not None
    assert form.result.deltas == (0, 2, 1, 2, 1)
    assert "Bob bid 2 in ♥, called 10♥ (Dee)" in form.so_far()
    assert form.outcome().called == "TH" and form.outcome().partner == 3
    assert form.back() is None and form.back() is None  # Game, Jack ...
    for _ in range(3):
        form.back()
    assert form.step == "partner"
    assert form.key("-") is None and form.outcome().partner is None


def test_the_sheet_row_names_the_call_and_pools_the_takers() -> None:
    sheet = ScoreSheet.new(CALL, FIVE)
    sheet.enter(Outcome(bidder=1, bid=2, trump="H", called="AH", partner=3, high=3, low=2,
                        jack=1, game=4))
    line = hand_line(sheet)
    assert line.called == "AH" and line.partner == "Dee"
    assert line.takers["high"] == ("Bob", "Dee") and line.takers["low"] == ("Cy",)
    assert line.change_of(("Dee",)) == 2 and sheet.session.side_scores() == [0, 2, 1, 2, 1]


# ------------------------------------------------------------------ the server's /score API
def _sheet(http: httpx.Client, variant: str, players: list[str]) -> tuple[str, str]:
    reply = http.post("/api/scores", json={"players": players, "variant": variant})
    assert reply.status_code == 201, reply.text
    made = reply.json()
    return made["id"], made["token"]


def _enter_api(http: httpx.Client, sid: str, token: str, outcome: dict[str, Any],
               preview: bool = False) -> httpx.Response:
    version = http.get(f"/api/scores/{sid}").json()["version"]
    return http.post(f"/api/scores/{sid}/hands", headers={"Authorization": f"Bearer {token}"},
                     json={"version": version, "outcome": outcome, "preview": preview})


def test_the_server_sheet_asks_for_the_call_and_rows_say_it(server: Any) -> None:
    http = httpx.Client(base_url=server.url, timeout=30)
    sid, token = _sheet(http, "call-partner", FIVE)
    sheet = http.get(f"/api/scores/{sid}").json()
    assert sheet["title"] == "Auction pitch, call your partner"
    nxt = sheet["next"]
    assert nxt["points_instead"] is False and len(nxt["call"]["cards"]) == 52
    assert {"value": "TH", "label": "10♥"} in nxt["call"]["cards"]
    assert nxt["call"]["holders"][1] == [0, 2, 3, 4]
    assert nxt["call"]["nobody"] == {"label": "Nobody (not dealt)"}  # CP5, worded by the server
    assert nxt["questions"]["called"] == "Which card did the bidder call?"
    bad = _enter_api(http, sid, token, {"bidder": 1, "bid": 2, "trump": "H", "high": 1,
                                        "low": 1, "jack": 1, "game": 1})
    assert bad.status_code == 422 and bad.json()["reason"] == "bad_outcome"
    good = {"bidder": 1, "bid": 2, "trump": "H", "called": "AH", "partner": 3, "high": 3,
            "low": 2, "jack": 1, "game": 4}
    reply = _enter_api(http, sid, token, good)
    assert reply.status_code == 200, reply.text
    sheet = http.get(f"/api/scores/{sid}").json()
    row = sheet["rows"][-1]
    assert row["called"] == "AH" and row["partner"] == "Dee"
    assert row["call_text"] == "called A♥, Dee's"
    assert "Bob bid 2 ♥, called A♥, Dee's: made it" in row["text"]
    assert row["takers"]["high"] == "Bob & Dee"
    assert [s["score"] for s in sheet["standings"]] == [0, 2, 1, 2, 1]


def test_the_server_sheet_of_three_teams_has_three_columns(server: Any) -> None:
    http = httpx.Client(base_url=server.url, timeout=30)
    sid, token = _sheet(http, "three-teams", SIX)
    sheet = http.get(f"/api/scores/{sid}").json()
    assert sheet["columns"] == ["Ann & Dee", "Bob & Eve", "Cy & Flo"]
    assert sheet["next"]["sides"] == sheet["columns"] and sheet["next"]["call"] is None
    reply = _enter_api(http, sid, token, {"bidder": 1, "bid": 3, "trump": "H", "high": 1,
                                          "low": 2, "jack": 4, "game": 1})
    assert reply.status_code == 200, reply.text
    sheet = http.get(f"/api/scores/{sid}").json()
    assert [s["score"] for s in sheet["standings"]] == [0, 3, 1]
    assert sheet["rows"][-1]["takers"]["jack"] == "Bob & Eve"
