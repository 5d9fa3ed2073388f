"""``openspiel-ismcts``: OpenSpiel's own ISMCTS, playing Pitch in our arena from a seat's view.

The bot is an outside, generic yardstick for our bots: OpenSpiel's Python
``open_spiel.python.algorithms.ismcts.ISMCTSBot`` (single-observer ISMCTS, UCT, random
rollouts, final move by visit count) on the :mod:`.openspiel` game, with nothing
Pitch-specific but the game itself:

* the root is one deal drawn uniformly among those consistent with the seat's
  :class:`~pitchcards.views.View` (:func:`pitchcards.bots.sampler.sample_worlds` with
  ``soft=False``: hard evidence only, bids carry no information), replayed into an OpenSpiel state;
* every simulation redraws the hidden cards the same way (``resample_from_infostate``);
* values are the hand's points for the seat's side (the OpenSpiel game is one hand), not the
  match-aware utility our expert uses.

The budget is wall-clock time per decision, set to the expert's measured medians (``docs/bots.md``:
about 70 ms in the auction, 10 ms in card play), with at least ``min_simulations``; a decision with
one legal action is taken at once, as the expert does.

The C++ ``pyspiel.ISMCTSBot`` cannot be used on a Python game in open_spiel 2.0.2: it crashes
(segmentation fault) on the state returned by the Python ``resample_from_infostate``.
"""

from __future__ import annotations

import random
import time
from typing import Any

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

from ..actions import ACTIONS, Action
from ..bots.base import Bot
from ..bots.sampler import sample_worlds
from ..rules import RuleSet
from ..views import View
from .openspiel import PitchGame, PitchState, state_from_hand

__all__ = ["OpenSpielISMCTSBot", "TimedISMCTSBot"]


class TimedISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's ISMCTSBot with a wall-clock budget: simulate until ``time_limit`` seconds
    have passed (and at least ``min_simulations``, at most ``max_simulations``)."""

    def __init__(self, game: Any, evaluator: Any, uct_c: float, max_simulations: int,
                 time_limit: float, min_simulations: int = 8, **kwargs: Any) -> None:
        super().__init__(game, evaluator, uct_c, max_simulations, **kwargs)
        self.time_limit = time_limit
        self.min_simulations = min_simulations
        self.simulations = 0

    def run_search(self, state: Any) -> list[tuple[int, float]]:
        # The parent's run_search, with the clock checked between simulations.
        start = time.perf_counter()
        self.reset()
        legal = state.legal_actions()
        if len(legal) == 1:
            self.simulations = 0
            return [(legal[0], 1.0)]
        self._root_node = self.create_new_node(state)
        count = 0
        while count < self._max_simulations and (
                count < self.min_simulations or time.perf_counter() - start < self.time_limit):
            self.run_simulation(self.sample_root_state(state))
            count += 1
        self.simulations = count
        policy: list[tuple[int, float]] = self.get_final_policy(state, self._root_node)
        return policy


class OpenSpielISMCTSBot(Bot):
    """OpenSpiel's ISMCTS with a time budget per decision (see the module docstring)."""

    name = "openspiel-ismcts"

    def __init__(self, seed: int | None = None, *, auction_time: float = 0.07,
                 play_time: float = 0.01, uct_c: float = 2.0, min_simulations: int = 8,
                 max_simulations: int = 100_000, soft: bool = False) -> None:
        super().__init__(seed)
        self.auction_time = auction_time
        self.play_time = play_time
        self.uct_c = uct_c
        self.min_simulations = min_simulations
        self.max_simulations = max_simulations
        self.soft = soft
        self.np_rng = np.random.RandomState(self.rng.getrandbits(32))
        self.evaluator = mcts.RandomRolloutEvaluator(1, self.np_rng)
        self._games: dict[tuple[RuleSet, int, int], PitchGame] = {}
        #: simulations run for the last decision (0 when it was forced)
        self.last_simulations = 0

    def game_for(self, rules: RuleSet, players: int, dealer: int) -> PitchGame:
        key = (rules, players, dealer)
        game = self._games.get(key)
        if game is None:
            game = self._games[key] = PitchGame.from_rules(rules, players, dealer)
        return game

    def choose(self, view: View) -> Action:
        legal = view.legal_actions
        if len(legal) == 1:
            self.last_simulations = 0
            return legal[0]
        assert view.seat is not None
        game = self.game_for(view.rules, view.players, view.dealer)
        root = state_from_hand(game, sample_worlds(view, 1, self.rng, soft=self.soft)[0])
        rng: random.Random = self.rng
        soft = self.soft

        def resample(state: PitchState, player: int) -> PitchState:
            return state.resample(player, rng, soft)

        bot = TimedISMCTSBot(
            game, self.evaluator, self.uct_c, self.max_simulations,
            self.auction_time if view.phase == "auction" else self.play_time,
            min_simulations=self.min_simulations, random_state=self.np_rng,
            final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT)
        bot.set_resampler(resample)
        action = int(bot.step(root))
        self.last_simulations = bot.simulations
        return ACTIONS[action]
