"""Pitch as a single-agent Gymnasium environment: one seat learns, our bots hold the others.

::

    from pitchcards.envs.gymnasium import PitchEnv
    e = PitchEnv(variant="auction-partners", seat=0, opponents="heuristic")
    # or gymnasium.make("pitchcards/Pitch-v0", opponents="heuristic") once this module is imported
    obs, info = e.reset(seed=1)
    obs, reward, terminated, truncated, info = e.step(int(np.flatnonzero(obs["action_mask"])[0]))

Observations and the action space are the PettingZoo environment's (:mod:`.pettingzoo`): a dict
of the encoded view (``"observation"``) and the ``int8`` ``"action_mask"`` over the rule set's
engine actions (110 in the four-point game, 176 in the ten-point family);
``info["action_mask"]`` repeats the mask.  The other seats (the partner too, in partnerships)
are bots by name (:func:`pitchcards.bots.make_bot`: ``random``, ``easy``,
``heuristic``/``medium``, ``hard``, ``expert``), one name for all or one per other seat, seeded
from ``reset(seed=...)``.  The reward of a step is the learning seat's reward
(:mod:`pitchcards.envs.table`; ``reward="zero-sum"`` by default) summed over everything that
happened until its next decision.

:meth:`PitchEnv.action_masks` returns the legal-action mask as booleans: sb3-contrib's
``MaskablePPO`` finds it through Gymnasium's and Stable-Baselines3's wrappers
(``get_wrapper_attr``), so no ``ActionMasker`` is needed.  Once the episode is over, the
observation's mask (and ``action_masks()``) stay those of the learner's last decision, so a
policy never sees an empty mask; ``info["result"]`` then holds the episode's results
(:meth:`.table.Table.results`).

An illegal action (``action_mask`` 0) is refused:

* ``illegal="penalty"`` (default): nothing is played, the observation is unchanged, the reward is
  ``illegal_penalty`` (default -1.0) and ``info["illegal"]`` is the engine's reason (for example
  ``"must_follow_suit"``).  Gymnasium's and Stable-Baselines3's checkers step random actions,
  so the default must not raise.
* ``illegal="raise"``: raises the engine's :class:`~pitchcards.errors.IllegalActionError` (a
  ``ValueError`` with a ``reason``); nothing is played.
* ``illegal="random"``: the action is replaced by a uniformly random legal one (the old default);
  ``info["illegal"]`` is the reason and ``illegal_penalty`` is added to the reward.

``render_mode="ansi"`` draws the table as text.  Another mode is accepted with a warning and
draws nothing, as ``gymnasium.make`` accepts it (Stable-Baselines3's ``make_vec_env`` asks every
env for ``"rgb_array"``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np

from ..bots import Bot, make_bot
from ..errors import IllegalActionError
from ..rules import RuleSet
from .encoding import Encoder, legal_mask
from .spaces import action_space, observation_space
from .table import Table

__all__ = ["ILLEGAL", "PitchEnv"]

ILLEGAL = ("penalty", "raise", "random")

Obs = dict[str, np.ndarray[Any, Any]]


class PitchEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """One learning seat against bots; one match (or hand) per episode."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012 (gymnasium declares it so)

    def __init__(self, variant: str | RuleSet = "auction-partners", players: int | None = None,
                 *, seat: int = 0, opponents: str | Sequence[str] = "heuristic",
                 episode: str = "match", reward: str = "zero-sum",
                 max_hands: int | None = None, illegal: str = "penalty",
                 illegal_penalty: float | None = None,
                 render_mode: str | None = None, **options: Any) -> None:
        self.table = Table(variant, players, options, episode=episode, reward=reward,
                           max_hands=max_hands)
        n = self.table.players
        if not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"seat {seat!r} is not a seat (0..{n - 1})")
        names = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != n - 1:
            raise ValueError(f"opponents: one bot name for all, or {n - 1} (one per other seat)")
        for name in names:
            make_bot(name)  # fail now, naming the known bots, not at reset
        if illegal not in ILLEGAL:
            raise ValueError(f"illegal={illegal!r}: expected one of {', '.join(ILLEGAL)}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            # Gymnasium's convention (gymnasium.make warns too): Stable-Baselines3's make_vec_env
            # asks every env by id for "rgb_array" and only retries on a TypeError.
            gymnasium.logger.warn(f"render_mode={render_mode!r} is not drawn (only 'ansi'): "
                                  "render() returns None")
        self.seat = seat
        self.opponent_names = names
        self.illegal = illegal
        if illegal_penalty is None:
            illegal_penalty = -1.0 if illegal == "penalty" else 0.0
        self.illegal_penalty = float(illegal_penalty)
        self.render_mode = render_mode
        self.encoder = Encoder(self.table.rules, n)
        self.observation_space = observation_space(self.encoder)
        self.action_space = action_space(self.encoder)
        self.bots: dict[int, Bot] = {}
        self._mask = np.zeros(self.encoder.actions, np.int8)

    def _obs(self) -> Obs:
        view = self.table.view(self.seat)
        if not self.table.done:
            self._mask = legal_mask(view.legal_actions, self.encoder.actions)
        return {"observation": self.encoder.encode(view), "action_mask": self._mask.copy()}

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """The legal actions of the learning seat now, as a boolean mask over the rule set's
        actions (110 or 176), from its view only; after the episode ends, those of its last
        decision."""
        if self.table.game is not None and not self.table.done:
            self._mask = legal_mask(self.table.view(self.seat).legal_actions, self.encoder.actions)
        return self._mask.astype(bool)

    def _advance(self) -> float:
        """Let the bots play until it is the learning seat's turn or the episode ends."""
        return self.table.play_bots()[self.seat]

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        super().reset(seed=seed)
        draws = [int(x) for x in self.np_random.integers(0, 2**62, size=self.table.players + 1)]
        others = [s for s in range(self.table.players) if s != self.seat]
        self.bots = {s: make_bot(name, draws[1 + s])
                     for s, name in zip(others, self.opponent_names, strict=True)}
        self.table.reset(draws[0], self.bots)
        self._advance()  # rewards before the first decision cannot happen: hands start dealt
        obs = self._obs()
        return obs, {"action_mask": obs["action_mask"]}

    def step(self, action: Any) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        table = self.table
        if table.done:
            raise RuntimeError("the episode is over: call reset()")
        a = int(action)
        info: dict[str, Any] = {}
        reward = 0.0
        mask = self._mask  # the learner's legal actions now: its view's, kept by _obs()
        if not (0 <= a < len(mask) and mask[a]):
            try:
                table.step(a)  # refused by the engine: nothing changes
            except IllegalActionError as e:
                if self.illegal == "raise":
                    raise
                info["illegal"] = e.reason
            else:  # pragma: no cover - legal_actions and the engine agree
                raise AssertionError(f"action {a} is not in legal_actions but was accepted")
            reward += self.illegal_penalty
            if self.illegal == "penalty":
                obs = self._obs()
                info["action_mask"] = obs["action_mask"]
                return obs, reward, False, False, info
            legal = table.view(self.seat).legal_actions
            a = int(legal[int(self.np_random.integers(len(legal)))])
        reward += table.step(a)[self.seat]
        reward += self._advance()
        obs = self._obs()
        info["action_mask"] = obs["action_mask"]
        if table.done:
            info["result"] = table.results()
        return obs, reward, table.terminated, table.truncated, info

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.table.match is None:
            return None
        return f"{self.table.match!r}\n{self.table.hand.describe()}"


if "pitchcards/Pitch-v0" not in gymnasium.registry:
    gymnasium.register("pitchcards/Pitch-v0", entry_point="pitchcards.envs.gymnasium:PitchEnv")
