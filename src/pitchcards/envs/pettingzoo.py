"""Pitch as a PettingZoo AEC environment (``pip install pitchcards[rl]``).

::

    from pitchcards.envs.pettingzoo import env
    e = env(variant="auction-partners", reward="zero-sum")     # rules options as keywords, too
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        action = None if termination or truncation else \\
            e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Agents are ``player_0 ... player_{n-1}`` (seat numbers).  Each observation is a dict:
``"observation"``, a ``float32`` vector in ``[-1, 1]`` made from the seat's view only
(:class:`~pitchcards.envs.encoding.Encoder`: own cards, current trick, trump, auction, cards
seen, tricks won, scores; in the ten-point family also own discards and every seat's card count),
and ``"action_mask"``, an ``int8`` vector over the rule set's engine actions, all zeros when it
is not the agent's turn: 110 in the four-point game (cards 0-51, pitches 52-103, pass 104, bids
105-109), 176 in the ten-point family (``variant="ten-point"`` or ``"ten-point-cutthroat"``:
also ``play LJ``/``BJ`` 110/111, ``discard X`` 112-165, ``trump X`` 166-169, ``bid 5``-``10``
170-175).
Rewards are zero-sum per hand with a match-win bonus (``reward="zero-sum"``, the default), the
side's own points per hand (``reward="points"``) or per match (``reward="win"``): see
:mod:`pitchcards.envs.table`.  ``reset(seed=...)`` fixes the first dealer and every deal.
``action_masks(agent)`` is an agent's legal-action mask as booleans (from its view); when the
episode ends every agent's ``info["result"]`` holds the episode's results
(:meth:`.table.Table.results`).

``env()`` wraps :class:`raw_env` like PettingZoo's classic games: an illegal action ends the
episode with reward -1 for the agent that took it.
"""

from __future__ import annotations

import operator
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..rules import RuleSet
from ..views import View
from .encoding import Encoder, legal_mask
from .spaces import action_space, observation_space
from .table import Table

__all__ = ["env", "raw_env"]


def env(**kwargs: Any) -> AECEnv:
    """:class:`raw_env` wrapped as PettingZoo's classic games are (illegal moves end the game).

    The wrappers are PettingZoo's own (``TerminateIllegalWrapper``, ``AssertOutOfBoundsWrapper``,
    ``OrderEnforcingWrapper``), each with the attributes an AEC loop reads every step as
    properties reading them on the raw env (:func:`_read_through`): nothing else changes.
    """
    e: AECEnv = raw_env(**kwargs)
    e = _TerminateIllegal(e, illegal_reward=-1)
    e = _AssertOutOfBounds(e)
    return _OrderEnforcing(e)


#: What an AEC loop (``agent_iter``, ``last``) and the wrappers' own ``step`` and ``observe`` read
#: on every step.  They live on the raw env: a PettingZoo wrapper finds them through
#: ``BaseWrapper.__getattr__``, which runs only after the normal lookup failed (an
#: ``AttributeError`` raised and caught) and then asks the next wrapper, which fails the same
#: way: some 40 such misses a step, three wrappers deep, took half the time of a step of
#: ``env()`` (issue 35, ``benchmarks/bench_envs.py``).
_PER_STEP = ("agents", "agent_selection", "terminations", "truncations", "rewards", "infos",
             "_cumulative_rewards")


def _read_through(cls: type[Any]) -> type[Any]:
    """PettingZoo's wrapper ``cls`` with :data:`_PER_STEP` as read-only properties of the raw
    env (what ``BaseWrapper.__getattr__`` returns, found without a miss), each an
    ``operator.attrgetter``: a C function, no Python frame (they are read some 25 times a step).

    ``OrderEnforcingWrapper``'s refusal before ``reset()`` holds: the raw env sets none of them
    before its first reset, so a property's ``AttributeError`` sends Python to the wrapper's
    ``__getattr__``, which raises its "cannot be accessed before reset"."""

    def read(name: str) -> property:
        return property(operator.attrgetter(f"_raw.{name}"), doc=f"the raw env's ``{name}``")

    def __init__(self: Any, env: AECEnv, *args: Any, **kwargs: Any) -> None:
        cls.__init__(self, env, *args, **kwargs)
        self._raw = env.unwrapped  # the env under every wrapper: it never changes

    return type(cls.__name__, (cls,), {"__doc__": cls.__doc__, "__module__": __name__,
                                       "__init__": __init__,
                                       **{name: read(name) for name in _PER_STEP}})


_TerminateIllegal = _read_through(wrappers.TerminateIllegalWrapper)
_AssertOutOfBounds = _read_through(wrappers.AssertOutOfBoundsWrapper)
_OrderEnforcing = _read_through(wrappers.OrderEnforcingWrapper)


class raw_env(AECEnv):  # type: ignore[misc]
    """Pitch for PettingZoo: one agent per seat, one match (or hand) per episode."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["human", "ansi"], "name": "pitch_v0",
                                          "is_parallelizable": False, "render_fps": 4}

    def __init__(self, variant: str | RuleSet = "auction-partners", players: int | None = None,
                 *, episode: str = "match", reward: str = "zero-sum",
                 max_hands: int | None = None, render_mode: str | None = None,
                 **options: Any) -> None:
        super().__init__()
        self.table = Table(variant, players, options, episode=episode, reward=reward,
                           max_hands=max_hands)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode={render_mode!r}: expected one of "
                             f"{', '.join(self.metadata['render_modes'])}")
        self.render_mode = render_mode
        n = self.table.players
        self.encoder = Encoder(self.table.rules, n)
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self._space = observation_space(self.encoder)
        self._action_space = action_space(self.encoder)
        self.observation_spaces = dict.fromkeys(self.possible_agents, self._space)
        self.action_spaces = dict.fromkeys(self.possible_agents, self._action_space)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    def _seat(self, agent: str) -> int:
        seat = self._seats.get(agent)
        return int(agent.rpartition("_")[2]) if seat is None else seat

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        view = self.table.view(self._seat(agent))
        return {"observation": self.encoder.encode(view), "action_mask": self._mask(view)}

    def _mask(self, view: View) -> np.ndarray[Any, np.dtype[np.int8]]:
        # empty once the episode is over (no seat is to act then, so the view lists none)
        return legal_mask(() if self.table.done else view.legal_actions, self.encoder.actions)

    def action_masks(self, agent: str | None = None) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """``agent``'s legal actions now (default: the agent to act), a boolean mask over the rule
        set's actions (110 or 176) from its view only; all False off its turn and once the
        episode is over.  (No observation is encoded for it, and the view ``observe`` built for
        this position is used again: issue 35.)"""
        agent = self.agent_selection if agent is None else agent
        return self._mask(self.table.view(self._seat(agent))).astype(bool)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.table.reset(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.table.seat_to_act or 0]

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert action is not None
        self._cumulative_rewards[agent] = 0.0
        table = self.table
        step_rewards = table.step(int(action))
        self.rewards = dict(zip(self.possible_agents, step_rewards, strict=True))
        if table.done:
            self.terminations = dict.fromkeys(self.agents, table.terminated)
            self.truncations = dict.fromkeys(self.agents, table.truncated)
            result = table.results()
            self.infos = {a: {"result": result} for a in self.agents}
            seat = self._seat(agent)
            self.agent_selection = self.possible_agents[(seat + 1) % len(self.possible_agents)]
        else:
            self.agent_selection = self.possible_agents[table.seat_to_act]  # type: ignore[index]
        self._accumulate_rewards()
        if self.render_mode == "human":
            print(self.render())

    def render(self) -> str | None:
        """The table as text (every hand shown: this is for a human watching, not an agent)."""
        if self.render_mode is None:
            return None
        match = self.table.match
        if match is None:
            return "no match yet: call reset()"
        return f"{match!r}\n{self.table.hand.describe()}"

    def close(self) -> None:
        pass
