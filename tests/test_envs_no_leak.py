"""The ten-point family's discards never reach another seat's observation (T4).

For seeded ten-point hands, another seat's discard is swapped for a card nobody was dealt (the same
public history, a different hidden discard).  Every observation of the observing seat - the RL
tensor, the information-state tensor, the action mask, the observation and information-state
strings, and OpenSpiel's own strings and tensors - must not change, while the discarding seat's
own observation must (so the test sees a discard where it is allowed to be, and would see a leak).
Also: the encodings' sizes per rule set, and the own-discard segment.
"""

from __future__ import annotations

import random
from functools import reduce
from operator import or_

import pytest

np = pytest.importorskip("numpy")

import pitchcards as pc  # noqa: E402
from pitchcards.actions import DISCARD, MAX_ACTIONS, NUM_ACTIONS  # noqa: E402
from pitchcards.cards import cards_of  # noqa: E402
from pitchcards.envs.encoding import (  # noqa: E402
    Encoder,
    action_mask,
    action_size,
    infostate_string,
    is_classic,
    observation_string,
)
from pitchcards.hand import Hand  # noqa: E402
from pitchcards.views import View, view_of  # noqa: E402

TEN_POINT_TABLES = [("ten-point", 4), ("ten-point-cutthroat", 3), ("ten-point-cutthroat", 5)]


def _swap_discard(hand: Hand, seat: int, rng: random.Random) -> tuple[Hand, int] | None:
    """``hand`` replayed with one discard of a seat other than ``seat`` replaced by a card
    nobody was dealt (and that seat dealt it instead); the seat whose discard changed."""
    others = [t for t in range(hand.players) if t != seat and hand.discarded(t)]
    if not others:
        return None
    t = rng.choice(others)
    x = rng.choice(list(cards_of(hand.discarded(t))))
    undealt = hand.model.mask & ~reduce(or_, hand.dealt)
    y = rng.choice(list(cards_of(undealt)))
    dealt = list(hand.dealt)
    dealt[t] ^= (1 << x) | (1 << y)
    other = Hand(hand.rules, dealt, hand.dealer)
    for s, action in hand.history:
        other.push(DISCARD[y] if s == t and action == DISCARD[x] else action)
    assert other.discarded(t) != hand.discarded(t)
    return other, t


def _everything(enc: Encoder, view: View) -> tuple[bytes, bytes, bytes, str, str]:
    return (enc.encode(view).tobytes(), enc.encode_infostate(view).tobytes(),
            action_mask(view).tobytes(), observation_string(view), infostate_string(view))


def _ten_point_positions(variant: str, players: int, deals: int):  # type: ignore[no-untyped-def]
    """Every position of seeded random ten-point hands from the first discard on."""
    rules = pc.find_variant(variant)
    rng = random.Random(variant + str(players))
    for deal in range(deals):
        hand = Hand.deal(rules, players, dealer=deal % players, seed=deal)
        while hand.seat_to_act is not None:
            if any(hand.discarded(s) for s in range(players)):
                yield hand, rng
            hand.push(rng.choice(hand.legal_actions()))
        yield hand, rng  # the hand over, too


@pytest.mark.parametrize("variant,players", TEN_POINT_TABLES)
def test_another_seats_discard_changes_no_observation(variant: str, players: int) -> None:
    enc = Encoder(pc.find_variant(variant), players)
    compared = seen_by_owner = 0
    for hand, rng in _ten_point_positions(variant, players, deals=6):
        for seat in range(players):
            swapped = _swap_discard(hand, seat, rng)
            if swapped is None:
                continue
            other, t = swapped
            assert _everything(enc, view_of(hand, seat, (7, 9))) == \
                _everything(enc, view_of(other, seat, (7, 9))), f"seat {seat} sees {t}'s discard"
            compared += 1
            # The discarding seat sees its own discard (tensor and strings), so the comparison
            # above is between different hidden states.
            mine, theirs = _everything(enc, view_of(hand, t)), _everything(enc, view_of(other, t))
            unmasked = (0, 1, 3, 4)  # not the mask: t may not be the seat to act
            seen_by_owner += all(mine[i] != theirs[i] for i in unmasked)
    assert compared > 100
    assert seen_by_owner == compared


@pytest.mark.parametrize("variant,players", TEN_POINT_TABLES[:2])
def test_openspiel_states_hide_another_seats_discard(variant: str, players: int) -> None:
    pytest.importorskip("pyspiel")
    from pitchcards.envs.openspiel import PitchGame, state_from_hand

    rules = pc.find_variant(variant)
    games = {d: PitchGame.from_rules(rules, players, d) for d in range(players)}
    compared = 0
    for hand, rng in _ten_point_positions(variant, players, deals=3):
        game = games[hand.dealer]
        for seat in range(players):
            swapped = _swap_discard(hand, seat, rng)
            if swapped is None:
                continue
            a, b = state_from_hand(game, hand), state_from_hand(game, swapped[0])
            assert a.history() != b.history()
            assert a.information_state_string(seat) == b.information_state_string(seat)
            assert a.observation_string(seat) == b.observation_string(seat)
            assert a.information_state_tensor(seat) == b.information_state_tensor(seat)
            assert a.observation_tensor(seat) == b.observation_tensor(seat)
            compared += 1
    assert compared > 50


@pytest.mark.parametrize("variant,players", TEN_POINT_TABLES)
def test_own_discards_are_in_the_observation(variant: str, players: int) -> None:
    enc = Encoder(pc.find_variant(variant), players)
    at = enc.offsets["discarded"]
    for hand, _ in _ten_point_positions(variant, players, deals=2):
        for seat in range(players):
            view = view_of(hand, seat)
            obs = enc.encode(view)
            got = {int(c) for c in np.flatnonzero(obs[at:at + enc.cards])}
            assert got == set(cards_of(hand.discarded(seat)))
            assert f"discarded {''.join(map(pc.cards.card_name, cards_of(view.discarded_mask)))}"\
                in infostate_string(view) or not view.discarded_mask


@pytest.mark.parametrize("variant,players,classic", [
    ("auction", 3, True), ("money", 8, True), ("setback", 4, True), ("auction-partners", 4, True),
    ("ten-point", 4, False), ("ten-point-cutthroat", 6, False)])
def test_sizes_follow_the_rules(variant: str, players: int, classic: bool) -> None:
    rules = pc.find_variant(variant)
    enc = Encoder(rules, players)
    assert is_classic(rules) == classic
    assert enc.actions == action_size(rules) == (NUM_ACTIONS if classic else MAX_ACTIONS)
    assert enc.actions == max(pc.actions.action_count(rules), enc.actions)
    cards = 52 if classic else 54
    sides = 2 if rules.partnership_mode else players
    top = 5 if classic else 10
    extra = 0 if classic else cards + players  # own discards, card counts
    phases = 3 if classic else 5
    assert enc.size == (cards * (2 + 2 * players + sides) + players * (top + 2)
                        + top + (top + 1) + 4 + phases + 6 * players + sides + extra)
    hand = Hand.deal(rules, players, seed=1)
    obs = enc.encode(view_of(hand, 0))
    assert obs.shape == (enc.size,) and obs[:cards].sum() == rules.hand_size


def test_a_52_card_rule_set_that_names_trump_gets_the_trump_actions() -> None:
    rules = pc.find_variant("auction").replace(trump_selection="declare_then_lead_any",
                                                pitch_as_bid_4=False)
    enc = Encoder(rules, 4)
    assert not is_classic(rules) and enc.actions == MAX_ACTIONS and enc.cards == 52
    hand = Hand.deal(rules, 4, seed=2)
    while hand.phase == "auction":
        hand.push(hand.legal_actions()[-1])
    view = view_of(hand, hand.seat_to_act)  # type: ignore[arg-type]
    assert view.phase == "declare"
    assert np.flatnonzero(action_mask(view)).tolist() == [166, 167, 168, 169]
    assert enc.encode(view)[enc.offsets["phase"] + 1] == 1.0  # declare
