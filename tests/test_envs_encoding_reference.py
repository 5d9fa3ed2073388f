"""The fast observation encoder (issue 35) writes exactly what the old one wrote.

Differential test: on seeded random hands of every named variant at each of its table sizes, at
every step and for every seat, :class:`~pitchcards.envs.encoding.Encoder` and the pre-issue-35
encoder kept in ``tests/envs_reference_encoding.py`` give the same observation tensor (also
written into a reused ``out`` array), information-state tensor and action mask, to the bit.
Scores are drawn at random per hand (negative too, and beyond the target, so the clip shows).
"""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")

import pitchcards as pc  # noqa: E402
from envs_reference_encoding import ReferenceEncoder  # noqa: E402
from envs_reference_encoding import action_mask as reference_mask  # noqa: E402
from pitchcards.envs.encoding import Encoder, action_mask, legal_mask  # noqa: E402
from pitchcards.hand import Hand  # noqa: E402
from pitchcards.views import view_of  # noqa: E402

TABLES = [(name, players) for name, rules in pc.VARIANTS.items()
          for players in range(rules.player_range[0], rules.player_range[1] + 1)]
HANDS = 6


@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_fast_encoder_matches_the_reference_at_every_step_for_every_seat(
        variant: str, players: int) -> None:
    rules = pc.find_variant(variant)
    fast, reference = Encoder(rules, players), ReferenceEncoder(rules, players)
    rng = random.Random(f"{variant}/{players}")
    out = np.full(fast.size, 7.0, np.float32)  # stale values an encoding must clear
    sides = rules.side_count(players)
    scale = rules.target or 21
    steps = 0
    for h in range(HANDS):
        hand = Hand.deal(rules, players, dealer=h % players, rng=rng)
        scores = [rng.randint(-2 * scale, 2 * scale) for _ in range(sides)]
        while True:
            for seat in range(players):
                view = view_of(hand, seat, scores=None if h == 0 else scores)
                expected = reference.encode(view)
                assert fast.encode(view).tobytes() == expected.tobytes(), (h, seat, view)
                assert fast.encode(view, out).tobytes() == expected.tobytes()
                assert fast.encode_infostate(view).tobytes() == \
                    reference.encode_infostate(view).tobytes()
                mask = reference_mask(view)
                assert action_mask(view).tobytes() == mask.tobytes()
                assert legal_mask(view.legal_actions, fast.actions).tobytes() == mask.tobytes()
                steps += 1
            if hand.seat_to_act is None:
                break
            legal = hand.legal_actions()
            hand.push(legal[rng.randrange(len(legal))])
    assert steps >= HANDS * players * 2  # the hands were played, not only dealt


def test_an_encoder_copies_and_pickles_on_either_build() -> None:
    """OpenSpiel pickles a game with its Encoder; the compiled build's layouts (issue 35) cannot
    be copied as a blank object filled in, so an Encoder is remade from its rules and size."""
    import copy
    import pickle

    rules = pc.find_variant("ten-point-cutthroat")
    encoder = Encoder(rules, 5)
    hand = Hand.deal(rules, 5, dealer=1, seed=4)
    view = view_of(hand, 2, scores=[3, -4, 5, 0, 1])
    for twin in (copy.copy(encoder), copy.deepcopy(encoder),
                 pickle.loads(pickle.dumps(encoder))):
        assert (twin.rules, twin.players, twin.size) == (rules, 5, encoder.size)
        assert twin.encode(view).tobytes() == encoder.encode(view).tobytes()
