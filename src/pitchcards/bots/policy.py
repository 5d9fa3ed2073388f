"""The rollout policy the expert's simulations use.

``rollout_action(hand) -> Action`` comes from :mod:`pitchcards.bots.heuristic` when that module
exists; until then (or if it fails to import) a cheap built-in policy stands in: bid on a quick
suit-strength estimate, lead the top trump when on the pitcher's side, otherwise win a trick with
the cheapest card that wins when it is worth it and throw the lowest card when it is not.

The policy plays in a determinized world, so it may look at the seat's own hand through the
``Hand``; it does not look at other seats' cards.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from ..actions import PASS, PITCH_BASE, Action
from ..cards import GAME_VALUE
from ..hand import Hand
from .sampler import suit_strength

__all__ = ["builtin_rollout_action", "policy_name", "rollout_action"]

_GAME = tuple(GAME_VALUE[c % 13] for c in range(52))


def builtin_rollout_action(hand: Hand) -> Action:
    """A cheap, deterministic Pitch policy (bidding and play) for rollouts."""
    acts = hand.legal_actions()
    if len(acts) == 1:
        return acts[0]
    seat = hand.seat_to_act
    assert seat is not None
    mine = hand.hand_of(seat)
    if hand.phase == "auction":
        est = max(suit_strength(mine, s, hand.players) for s in range(4))
        bids = [a for a in acts if a.kind == "bid"]
        best: Action | None = None
        for a in bids:
            b = a.bid
            assert b is not None
            if b <= 4 and est >= b - 0.35:
                best = a
        if best is not None:
            return best
        return PASS if PASS in acts else min(bids)
    trump = hand.trump_suit
    trick = hand.current_trick()
    pitcher = hand.pitcher
    assert pitcher is not None
    plays = [a for a in acts if a < PITCH_BASE]
    if trump is None:  # opening lead: top card of the best suit
        suit = max(range(4), key=lambda s: suit_strength(mine, s, hand.players))
        return max(a for a in plays if a // 13 == suit)
    if not trick:
        my_trumps = [a for a in plays if a // 13 == trump]
        on_pitch_side = hand.side_of(seat) == hand.side_of(pitcher)
        if my_trumps and on_pitch_side and max(my_trumps) % 13 >= 10:
            return max(my_trumps)
        side = [a for a in plays if a // 13 != trump]
        if side:
            return max(side, key=lambda a: (a % 13 == 12, -_GAME[a], -(a % 13)))
        return min(plays)
    led = trick[0][1] // 13

    def power(c: int) -> int:
        return 100 + c % 13 if c // 13 == trump else c % 13 if c // 13 == led else -1

    best_seat, best_card = trick[0]
    for s, c in trick[1:]:
        if power(c) > power(best_card):
            best_card, best_seat = c, s
    worth = sum(_GAME[c] for _, c in trick) + sum(
        3 for _, c in trick if c // 13 == trump and c % 13 in (0, 1, 9))
    partner_wins = hand.rules.partnership_mode and best_seat % 2 == seat % 2
    last = len(trick) == hand.players - 1
    if partner_wins and (last or power(best_card) >= 111):
        # feed the partner: the highest-counting card that is not a trump honour
        feed = [a for a in plays if a // 13 != trump or a % 13 < 9]
        if feed:
            return max(feed, key=lambda a: (_GAME[a], -(a % 13)))
    winners = [a for a in plays if power(a) > power(best_card)]
    if winners and not partner_wins:
        cheap = min(winners, key=power)
        if worth >= 1 or last or cheap // 13 != trump:
            return cheap
    # throw: the lowest non-counting card, keeping trumps
    return min(plays, key=lambda a: (_GAME[a] > 0, a // 13 == trump, a % 13))


def _load() -> tuple[Callable[[Hand], Action], str]:
    try:
        module = importlib.import_module("pitchcards.bots.heuristic")
        fn: Callable[[Hand], Action] = module.rollout_action
    except Exception:  # heuristic.py not there yet (or broken): the built-in policy
        return builtin_rollout_action, "builtin"
    return fn, "heuristic"


rollout_action, policy_name = _load()
