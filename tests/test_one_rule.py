"""Each rule is stated once: where the bots and the screens need a rule, they agree with the engine.

* C6 (following): the void inference of the bots (``sampler.FOLLOW_ALLOWS``) is the engine's
  ``Hand.legal_mask`` seen from the other side: what a player holding the led suit may play.
"""

from __future__ import annotations

import pytest

import pitchcards as pc
from helpers import random_positions
from pitchcards.bots.sampler import FOLLOW_ALLOWS
from pitchcards.cards import SUIT_MASKS

FOLLOW_RULES = pc.RuleSet.OPTION_CHOICES["follow_rule"]


def test_follow_allows_covers_every_follow_rule() -> None:
    assert set(FOLLOW_ALLOWS) == set(FOLLOW_RULES)


@pytest.mark.parametrize("follow_rule", FOLLOW_RULES)
@pytest.mark.parametrize("variant,players", [("auction", 3), ("auction-partners", 4),
                                             ("money", 6)])
def test_follow_allows_is_what_the_engine_lets_a_holder_of_the_led_suit_play(
        follow_rule: str, variant: str, players: int) -> None:
    rules = pc.find_variant(variant).replace(follow_rule=follow_rule)
    checked = 0
    for seed in range(40):
        for h in random_positions(rules, players, seed):
            trick = h.trick_cards
            if h.phase != "play" or not trick:
                continue
            seat = h.seat_to_act
            assert seat is not None and h.trump_suit is not None
            mine = h.hand_of(seat)
            led = trick[0] // 13
            if not mine & SUIT_MASKS[led]:
                assert h.legal_mask() == mine  # C6: void in the led suit, any card
                continue
            allows = FOLLOW_ALLOWS[follow_rule][h.trump_suit][led]
            may = 0
            for suit in range(4):
                if allows >> suit & 1:
                    may |= SUIT_MASKS[suit]
            assert h.legal_mask() == mine & may
            checked += 1
    assert checked > 100
