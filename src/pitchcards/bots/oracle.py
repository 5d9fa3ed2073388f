"""The ``oracle``: a bot that cheats on purpose, to measure how much hidden information costs.

It declares ``sees_all = True``, so an arena hands it the whole :class:`~pitchcards.hand.Hand`
(:meth:`OracleBot.choose_open`): it then plays the true deal with the expert's machinery on that
single, exact world - exact open-hand search late in the hand, rollouts before that and in the
auction.  Given only a view (:meth:`choose`), it plays as the expert does.  Never use it as an
opponent for people: it is a yardstick for the headroom above the expert.
"""

from __future__ import annotations

import time
from typing import ClassVar

from ..actions import PITCH_BASE, Action
from ..hand import Hand
from .expert import EXPERT, Budget, ExpertBot, evaluate
from .utility import Utility

__all__ = ["ORACLE", "OracleBot"]

#: the oracle solves exactly from 16 cards left (trick 3 with four players)
ORACLE = Budget(worlds=1, bid_worlds=1, solve_cards=16, max_nodes=400_000,
                time_limit=EXPERT.time_limit)


class OracleBot(ExpertBot):
    """Sees every card (``sees_all``); for headroom measurements only."""

    name = "oracle"
    sees_all: ClassVar[bool] = True

    def choose_open(self, hand: Hand) -> Action:
        acts = hand.legal_actions()
        if len(acts) <= 1:
            return acts[0]
        seat = hand.seat_to_act
        assert seat is not None
        side = hand.side_of(seat)
        util = Utility(hand.rules, side, hand.players, None)
        auction = hand.phase == "auction"
        cands = acts
        if auction:
            top: dict[int, Action] = {}
            for a in acts:
                if PITCH_BASE <= a < 2 * PITCH_BASE:
                    suit = (a - PITCH_BASE) // 13
                    top[suit] = max(a, top.get(suit, a))
            cands = [a for a in acts if not PITCH_BASE <= a < 2 * PITCH_BASE]
            cands += sorted(top.values())
        return evaluate([hand.copy()], cands, util, side, auction, ORACLE,
                        time.perf_counter()).best
