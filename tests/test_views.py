"""Hidden information stays hidden: no view carries a card its seat could not know."""

from __future__ import annotations

import dataclasses
import json
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pitchcards as pc
from pitchcards.cards import card_name, cards_of
from pitchcards.hand import Hand
from pitchcards.views import View

CARD_TEXT = re.compile(r"\b([2-9TJQKA][SHDC])\b")


def cards_mentioned(view: View) -> set[str]:
    return set(CARD_TEXT.findall(json.dumps(view.to_dict())))


def knowable(h: Hand, seat: int | None) -> set[str]:
    """Cards ``seat`` may know: its own deal, every card played, a card pitched face up; and
    the cards named without saying where they are: a called card (CP3, public) and, to the
    pitcher calling, every card it may call."""
    known = 0
    if h.called_card is not None:
        known |= 1 << h.called_card
    if h.phase == "call" and seat == h.seat_to_act:
        known |= h.model.mask
    if seat is not None:
        known |= h.dealt[seat]
    for _, cards, _ in h.completed_tricks():
        for c in cards:
            known |= 1 << c
    for _, c in h.current_trick():
        known |= 1 << c
    for _, action in h.history:
        if action.kind == "pitch":
            known |= 1 << action.card  # type: ignore[operator]
    return {card_name(c) for c in cards_of(known)}


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(sorted(pc.VARIANTS)), st.integers(0, 2**32))
def test_no_view_mentions_a_card_its_seat_could_not_know(variant: str, seed: int) -> None:
    rules = pc.find_variant(variant)
    rng = random.Random(seed)
    players = rng.randint(*rules.player_range)
    h = Hand.deal(rules, players=players, dealer=rng.randrange(players), seed=seed)
    while True:
        for seat in [None, *range(players)]:
            view = h.view(seat)
            assert cards_mentioned(view) <= knowable(h, seat)
            if seat is None:
                assert view.hand_mask == 0 and view.dealt_mask == 0
                assert view.legal_actions == ()
            else:
                assert view.hand_mask == h.hand_of(seat)
                others = 0
                for s in range(players):
                    if s != seat:
                        others |= h.hand_of(s)
                assert view.hand_mask & others == 0
                if seat != h.seat_to_act:
                    assert view.legal_actions == ()
        if h.seat_to_act is None:
            break
        h.push(rng.choice(h.legal_actions()))


def test_a_view_holds_no_reference_to_the_hand() -> None:
    h = Hand.deal(pc.find_variant("auction"), players=4, dealer=0, seed=3)
    view = h.view(1)
    for field in dataclasses.fields(view):
        assert not isinstance(getattr(view, field.name), Hand)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.hand_mask = h.hand_of(2)  # type: ignore[misc]


def test_view_shows_own_cards_turn_and_legal_actions() -> None:
    h = Hand.deal(pc.find_variant("auction"), players=4, dealer=0,
                  cards=["AS KS 2S 9H 3D TC", "QS JS 3S 9D 4D TD", "AH KH 2H 9C 5D TH",
                         "QH JH 3H 8C 6D TS"])
    view = h.view(1)
    assert sorted(view.hand) == sorted(["QS", "JS", "3S", "9D", "4D", "TD"])
    assert view.is_my_turn
    assert "bid 1" in [str(a) for a in view.legal_actions]
    assert h.view(2).legal_actions == ()
    h.push("pitch JS")  # B-R4.3: the pitched card is public
    spectator = h.view(None)
    assert spectator.trump == "S"
    assert spectator.trick == ((1, pc.parse_card("JS")),)
    assert "JS" in cards_mentioned(spectator)
    assert "QS" not in cards_mentioned(spectator)


def test_view_of_a_bad_seat_is_a_value_error() -> None:
    h = Hand.deal(pc.find_variant("auction"), players=4, dealer=0, seed=1)
    with pytest.raises(ValueError, match="seat 7"):
        h.view(7)


def test_match_and_session_views_carry_scores_and_names() -> None:
    m = pc.Match(pc.find_variant("auction-partners"), players=4, dealer=0, seed=2,
                 scores=[3, 5])
    m.deal()
    assert m.view(0).scores == (3, 5)
    s = pc.MoneySession(pc.find_variant("money"), players=["Ann", "Bob", "Cy"], seed=2)
    s.deal()
    view = s.view(2)
    assert view.names == ("Ann", "Bob", "Cy")
    assert view.scores == (0, 0, 0)


@pytest.mark.parametrize("variant", sorted(pc.VARIANTS))
def test_the_rules_name_each_teams_seats_as_the_engine_scores_them(variant: str) -> None:
    """``teams`` in the rules' JSON (a page names partners before the first deal): each team's
    seats are the seats the engine scores for that side; None where each plays alone."""
    rules = pc.find_variant(variant)
    teams = pc.views.rules_to_dict(rules)["teams"]
    low, _ = rules.player_range
    h = Hand.deal(rules, players=low, dealer=0, seed=1)
    if not rules.partnership_mode:
        assert teams is None
        return
    assert teams == [[s for s in range(low) if h.side_of(s) == side] for side in range(rules.teams)]
