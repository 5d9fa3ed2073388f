"""Issue 8: Match and MoneySession both implement pc.GameSession, at run time and for mypy."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import TYPE_CHECKING

import pytest

import pitchcards as pc
from pitchcards.session import GameSession

if TYPE_CHECKING:
    # mypy checks this assignment (session.py holds the same check for the package itself).
    def _static(match: pc.Match, money: pc.MoneySession) -> list[GameSession]:
        return [match, money]

PROTOCOL_MEMBERS = ("rules", "seed", "hands", "results", "hand", "next_dealer", "seat_count",
                    "names", "in_hand", "is_over", "side_of", "side_scores", "seat_scores",
                    "deal", "push", "pop", "view", "winner", "payouts", "payout_cents", "join",
                    "leave", "settle", "enter", "first_hand")


def sessions() -> list[GameSession]:
    return [pc.Match(pc.find_variant("auction"), players=3, dealer=0, seed=4),
            pc.Match(pc.find_variant("auction-partners"), players=4, dealer=1, seed=5,
                     names=["N", "E", "S", "W"]),
            pc.MoneySession(pc.find_variant("money"), ["Ann", "Bob", "Cy"], dealer=2, seed=6)]


def test_protocol_members_are_the_documented_ones() -> None:
    members = {m for m in dir(GameSession) if not m.startswith("_")}
    members |= set(GameSession.__annotations__)
    assert members == set(PROTOCOL_MEMBERS)


@pytest.mark.parametrize("index", range(3))
def test_both_kinds_are_sessions_at_run_time(index: int) -> None:
    game = sessions()[index]
    assert isinstance(game, GameSession) and isinstance(game, pc.GameSession)
    for name in PROTOCOL_MEMBERS:
        assert hasattr(game, name), name
    assert not isinstance(pc.Hand.deal(pc.find_variant("auction"), 4, 0, seed=1), GameSession)


@pytest.mark.parametrize("index", range(3))
def test_one_loop_plays_any_session(index: int) -> None:
    """The loop a face runs, written once against the protocol, with no isinstance."""
    game = sessions()[index]
    rng = random.Random(index)
    assert not game.in_hand and not game.is_over and game.hand is None
    n = game.seat_count
    assert len(game.names) == n == len(game.seat_scores())
    sides = {game.side_of(s) for s in range(n)}
    assert sides == set(range(len(game.side_scores())))
    hands = 0
    while not game.is_over and hands < 12:
        hand = game.deal()
        assert game.in_hand and game.hand is hand and game.hands[-1] is hand
        while hand.seat_to_act is not None:
            seat = hand.seat_to_act
            view = game.view(seat)
            assert view.names == game.names and view.scores is not None
            game.push(rng.choice(view.legal_actions), seat=seat)
        assert not game.in_hand and len(game.results) == len(game.hands)
        hands += 1
        # seat scores follow side scores
        assert game.seat_scores() == [game.side_scores()[game.side_of(s)] for s in range(n)]
    last = game.hand
    assert last is not None
    undone = game.pop()
    assert game.in_hand and undone in last.legal_actions()
    game.push(undone)
    text = pc.write_record(game)  # notation writes the record from the protocol (issue 28)
    assert pc.write_record(pc.replay(pc.read_record(text))) == text


def test_a_match_is_over_when_won() -> None:
    m = pc.Match(pc.find_variant("auction").replace(target=1), players=3, dealer=0, seed=1)
    while m.winner is None:
        h = m.deal()
        while h.seat_to_act is not None:
            m.push(h.legal_actions()[0])
    assert m.is_over and not m.in_hand
    with pytest.raises(pc.IllegalActionError) as info:
        m.deal()
    assert info.value.reason == "game_over"


def test_match_names_default_and_validation() -> None:
    rules = pc.find_variant("auction")
    assert pc.Match(rules, players=3).names == ("Seat 0", "Seat 1", "Seat 2")
    assert pc.Match(rules, players=3, names=("a", "b", "c")).names == ("a", "b", "c")
    for names in (["a", "b"], ["a", "a", "b"], "abc", ["a", "b", 3], ["a", "b", ""]):
        with pytest.raises(pc.IllegalActionError) as info:
            pc.Match(rules, players=3, names=names)
        assert info.value.reason == "bad_setup"
    assert pc.Match(rules, players=3).players == 3          # still an int


def test_partnership_sides_and_seat_scores() -> None:
    m = pc.Match(pc.find_variant("auction-partners"), players=4, dealer=0, scores=[3, 5])
    assert [m.side_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert m.side_scores() == [3, 5] and m.seat_scores() == [3, 5, 3, 5]
    for bad in (4, -1, "0", True):
        with pytest.raises(pc.IllegalActionError) as info:
            m.side_of(bad)  # type: ignore[arg-type]
        assert info.value.reason == "no_such_seat"


def test_money_view_carries_stars_and_exact_money() -> None:
    s = pc.MoneySession(pc.find_variant("money"), ["Ann", "Bob", "Cy"], dealer=0, seed=3)
    for _ in range(5):
        h = s.deal()
        while h.seat_to_act is not None:
            s.push(h.legal_actions()[-1])
    v = s.view(0)
    ledger = s.ledger
    assert v.money == tuple(ledger[n] for n in s.players)
    assert all(isinstance(x, Fraction) for x in v.money) and sum(v.money) == 0
    assert v.stars == tuple(s.stars[n] for n in s.players)
    paid = s.leave("Bob")
    v = s.view(None)
    assert v.names == ("Ann", "Bob", "Cy") and v.money is not None and v.money[1] == paid
    assert s.names == ("Ann", "Cy") and s.seat_count == 2
    s.settle()
    assert s.is_over
