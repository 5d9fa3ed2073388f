"""Evaluate a policy: seeded matches of one learning seat against a bot level.

::

    from pitchcards.envs.evaluate import evaluate
    result = evaluate(lambda obs, mask: int(mask.nonzero()[0][0]), opponents="expert", matches=100)
    print(result.win_rate, result.points_per_hand)

    # a Stable-Baselines3 / sb3-contrib model:
    evaluate(lambda obs, mask: int(model.predict(obs, action_masks=mask, deterministic=True)[0]))

Each match is one episode of :class:`~pitchcards.envs.gymnasium.PitchEnv` (``episode="match"``),
reset with seed ``seed + i`` for match ``i``, so two policies evaluated with the same arguments
meet the same deals and the same seeded opponents.  ``hard`` and ``expert`` opponents are slow
(tens of decisions per second): evaluate against them, train against ``random``, ``easy`` or
``heuristic``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..bots import Bot, make_bot
from ..rules import RuleSet
from .gymnasium import PitchEnv

__all__ = ["Evaluation", "Policy", "evaluate"]

#: A policy: the learner's observation dict and its boolean legal-action mask -> an action id.
Policy = Callable[[dict[str, np.ndarray[Any, Any]], np.ndarray[Any, Any]], int]


@dataclass(frozen=True)
class Evaluation:
    """What :func:`evaluate` measured, for the learning seat's side."""

    matches: int    #: matches played
    wins: int       #: matches the learner's side won
    truncated: int  #: matches stopped at ``max_hands`` without a winner (not wins)
    hands: int      #: hands played, over all matches
    points: int     #: the side's final scores, summed over all matches

    @property
    def win_rate(self) -> float:
        """Matches won / matches played."""
        return self.wins / self.matches if self.matches else 0.0

    @property
    def points_per_hand(self) -> float:
        """The side's score change per hand (points taken, minus the bid when set)."""
        return self.points / self.hands if self.hands else 0.0


def _bot_policy(env: PitchEnv, bot: Bot) -> Policy:
    """``bot`` as a policy of the env's learning seat (it decides from that seat's view)."""
    def choose(obs: dict[str, np.ndarray[Any, Any]], mask: np.ndarray[Any, Any]) -> int:
        return int(bot.choose(env.table.view(env.seat)))
    return choose


def evaluate(policy: Policy | str, variant: str | RuleSet = "auction-partners",
             players: int | None = None, *, opponents: str | Sequence[str] = "expert",
             matches: int = 100, seed: int = 0, seat: int = 0, max_hands: int | None = None,
             **options: Any) -> Evaluation:
    """Play ``matches`` seeded matches of ``policy`` at ``seat`` against ``opponents`` (a bot name
    for every other seat, the partner included, or one name per other seat).

    ``policy`` is a :data:`Policy` callable or a bot name (to measure a bot the same way: the
    baseline a learner should beat).  An illegal action from the policy raises
    :class:`~pitchcards.errors.IllegalActionError`.  Other keywords are rules options.
    """
    if matches < 1:
        raise ValueError(f"matches must be positive, not {matches!r}")
    env = PitchEnv(variant, players, seat=seat, opponents=opponents, episode="match",
                   reward="points", max_hands=max_hands, illegal="raise", **options)
    wins = truncated = hands = points = 0
    for i in range(matches):
        obs, _ = env.reset(seed=seed + i)
        choose = _bot_policy(env, make_bot(policy, seed + i)) if isinstance(policy, str) \
            else policy
        info: dict[str, Any] = {}
        done = False
        while not done:
            action = int(choose(obs, env.action_masks()))
            obs, _, terminated, truncated_now, info = env.step(action)
            done = terminated or truncated_now
        result = info["result"]
        side = env.table.hand.side_of(seat)
        wins += result["winner"] == side
        truncated += result["truncated"]
        hands += result["hands"]
        points += result["scores"][side]
    return Evaluation(matches=matches, wins=wins, truncated=truncated, hands=hands, points=points)
