"""The rollout policy the search bots (``expert``, ISMCTS) play their simulations with.

It is the heuristic bot's :func:`~pitchcards.bots.heuristic.rollout_action`: the same policy,
played straight on a determinized :class:`~pitchcards.hand.Hand` for the seat to act, reading only
what that seat could know; :func:`~pitchcards.bots.heuristic.playout` plays a whole rollout with
it, faster than one call a move.  There is no fallback: a broken policy fails loudly.
"""

from __future__ import annotations

from .heuristic import playout, rollout_action

__all__ = ["playout", "policy_name", "rollout_action"]

#: The policy's name, for benchmark reports.
policy_name = "heuristic"
