"""Pitch as an OpenSpiel Python game: ``pyspiel.load_game("python_pitch")``.

Importing this module registers the game.  One OpenSpiel episode is one *hand*:

* **chance nodes** deal the cards one at a time, clockwise from the dealer's left in the
  variant's packets (C4); each outcome is an undealt card of the rule set's deck, all equally
  likely: 52 cards and six each in the four-point game, 53 or 54 (jokers, T1) and nine each in
  the ten-point family (T4);
* **decision nodes** are the engine's own: the action ids are :mod:`pitchcards.actions`' ids
  (cards first, then pitches, pass and bids), so ``num_distinct_actions() == 110`` in the
  four-point game; the ten-point family (``variant="ten-point"`` / ``"ten-point-cutthroat"``)
  adds ``play LJ``/``BJ``, ``discard X``, ``trump X`` and ``bid 5..10`` (176 actions): the
  pitcher names trump (T5), then every seat discards down to six, one card per action (T4);
* **returns** are each seat's side's score change for the hand (the
  :class:`~pitchcards.scoring.HandResult` deltas: points won, or minus the bid when set).

Parameters: ``variant`` (default ``"auction-partners"``), ``players`` (default 4, or the
variant's only size), ``dealer`` (default 0).  :meth:`PitchGame.from_rules` builds a game from
any :class:`~pitchcards.rules.RuleSet` (options changed).

Information-state and observation strings and tensors are made from the seat's
:class:`~pitchcards.views.View` (:mod:`.encoding`); while the deal is still running, only the
seat's own cards dealt so far.  Another seat's discards are in none of them (T4): a discard is
seen only as that seat's card count going down.  ``resample_from_infostate`` draws a deal
uniformly among those consistent with the seat's view (hard evidence: own cards, cards played,
proven voids; see :mod:`pitchcards.bots.sampler`), so OpenSpiel's ISMCTS (C++
``pyspiel.ISMCTSBot`` or ``open_spiel.python.algorithms.ismcts``) runs on it as is.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel

from ..actions import ACTIONS
from ..bots.sampler import sample_worlds
from ..cards import card_name, cards_of
from ..hand import Hand, deal_order
from ..rules import RuleSet, find_variant
from ..views import View, view_of
from .encoding import Encoder, infostate_string, max_auction_length, observation_string

__all__ = ["GAME_NAME", "PitchGame", "PitchObserver", "PitchState", "state_from_hand"]

GAME_NAME = "python_pitch"
_DEFAULTS: dict[str, Any] = {"variant": "auction-partners", "players": 4, "dealer": 0}

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Pitch (pitchcards)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=8,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


class _Spec:
    """The table a game is played at; shared (never deep-copied) by every state."""

    def __init__(self, rules: RuleSet, players: int, dealer: int) -> None:
        rules.check_players(players)
        if not 0 <= dealer < players:
            raise ValueError(f"dealer {dealer} is not a seat (0..{players - 1})")
        self.rules = rules
        self.players = players
        self.dealer = dealer
        self.encoder = Encoder(rules, players)
        #: the seat receiving each dealt card, in order (C4; nine each in ten-point, T4): the
        #: engine's own order
        self.order = deal_order(players, dealer, rules.deal_batch, rules.hand_size)
        self.max_auction = max_auction_length(rules, players)
        #: the cards of the deck (52, or 53 / 54 with the jokers, T1), ids 0..deck-1
        self.deck = rules.deck

    def __deepcopy__(self, memo: dict[int, Any]) -> _Spec:
        return self


def _game_info(spec: _Spec) -> pyspiel.GameInfo:
    rules, n = spec.rules, spec.players
    # Set: minus the bid (up to 10 in ten-point, T8) or the moon's failure points.
    loss = max(rules.moon_fail_points if rules.moon != "none" else rules.max_bid, 4)
    # T4: one action per discarded card; T5: naming trump.
    extra = n * (rules.hand_size - 6) + int(rules.declares_trump)
    return pyspiel.GameInfo(
        num_distinct_actions=spec.encoder.actions,
        max_chance_outcomes=spec.deck,
        num_players=n,
        min_utility=-float(loss),
        max_utility=float(max(rules.points_total, rules.moon_value)),
        utility_sum=None,
        max_game_length=rules.hand_size * n + spec.max_auction + extra + 6 * n,
    )


class PitchGame(pyspiel.Game):  # type: ignore[misc]
    """One hand of Pitch at a table of ``players`` with a given dealer."""

    def __init__(self, params: dict[str, Any] | None = None, *,
                 spec: _Spec | None = None) -> None:
        p = {**_DEFAULTS, **(params or {})}
        if spec is None:
            rules = find_variant(str(p["variant"]))
            players = int(p["players"])
            low, high = rules.player_range
            if low == high:
                players = low
            spec = _Spec(rules, players, int(p["dealer"]))
        self.spec = spec
        p = {"variant": spec.rules.name, "players": spec.players, "dealer": spec.dealer}
        super().__init__(_GAME_TYPE, _game_info(spec), p)

    @classmethod
    def from_rules(cls, rules: RuleSet, players: int, dealer: int = 0) -> PitchGame:
        """A game for any rule set (named variants with options changed, too)."""
        return cls(spec=_Spec(rules, players, dealer))

    def new_initial_state(self) -> PitchState:
        return PitchState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> PitchObserver:
        perfect = iig_obs_type is not None and iig_obs_type.perfect_recall
        return PitchObserver(self.spec, perfect)


class _Core:
    """A state's mutable part; pyspiel clones states by deep-copying their attributes, and the
    engine's own ``Hand.copy`` (rules shared, six small lists copied) is much cheaper."""

    __slots__ = ("cards_dealt", "dealt", "hand")

    def __init__(self, players: int) -> None:
        self.dealt = [0] * players
        self.cards_dealt = 0
        self.hand: Hand | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        other = _Core.__new__(_Core)
        other.dealt = self.dealt[:]
        other.cards_dealt = self.cards_dealt
        other.hand = self.hand.copy() if self.hand is not None else None
        return other


class PitchState(pyspiel.State):  # type: ignore[misc]
    """A hand being dealt (chance nodes) or played (the engine's :class:`Hand`)."""

    def __init__(self, game: PitchGame) -> None:
        super().__init__(game)
        self.spec: _Spec = game.spec
        self._core = _Core(self.spec.players)

    @property
    def hand(self) -> Hand | None:
        """The engine's hand once the deal is complete (None while dealing)."""
        return self._core.hand

    @property
    def dealt(self) -> list[int]:
        """The cards dealt so far, one mask per seat."""
        return self._core.dealt

    # ---------------------------------------------------------------- the game
    def current_player(self) -> int:
        if self.hand is None:
            return int(pyspiel.PlayerId.CHANCE)
        seat = self.hand.seat_to_act
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else seat

    def _legal_actions(self, player: int) -> list[int]:
        assert self.hand is not None
        return sorted(int(a) for a in self.hand.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        used = 0
        for m in self.dealt:
            used |= m
        left = [c for c in range(self.spec.deck) if not used >> c & 1]
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def _apply_action(self, action: int) -> None:
        core = self._core
        if core.hand is None:
            spec = self.spec
            core.dealt[spec.order[core.cards_dealt]] |= 1 << action
            core.cards_dealt += 1
            if core.cards_dealt == len(spec.order):
                core.hand = Hand(spec.rules, core.dealt, spec.dealer)
        else:
            core.hand.push(ACTIONS[action])

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {card_name(action)}"
        return str(ACTIONS[action])

    def is_terminal(self) -> bool:
        return self.hand is not None and self.hand.is_over

    def returns(self) -> list[float]:
        n = self.spec.players
        if self.hand is None or self.hand.result is None:
            return [0.0] * n
        deltas = self.hand.result.deltas
        return [float(deltas[self.hand.side_of(s)]) for s in range(n)]

    def view(self, player: int) -> View | None:
        """``player``'s view (None while the cards are being dealt)."""
        return None if self.hand is None else view_of(self.hand, player)

    # ---------------------------------------------------------------- for ISMCTS
    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> PitchState:
        """A state with the same information state for ``player_id``, hidden cards redrawn."""
        seed = int(probability_sampler() * 2**52) if callable(probability_sampler) else None
        return self.resample(player_id, random.Random(seed))

    def resample(self, player_id: int, rng: random.Random, soft: bool = False) -> PitchState:
        """Like :meth:`resample_from_infostate`, drawing from ``rng``; ``soft`` weights deals by
        how well they explain the bids (:func:`~pitchcards.bots.sampler.sample_worlds`)."""
        game: PitchGame = self.get_game()
        if self.hand is None:
            # Dealing: the player's own cards stay, everyone else's are redrawn.
            state = game.new_initial_state()
            pool = [c for c in range(self.spec.deck) if not self.dealt[player_id] >> c & 1]
            rng.shuffle(pool)
            mine = sorted(cards_of(self.dealt[player_id]))
            for seat in self.spec.order[:self._core.cards_dealt]:
                state.apply_action(mine.pop() if seat == player_id else pool.pop())
            return state
        view = view_of(self.hand, player_id)
        world = sample_worlds(view, 1, rng, soft=soft)[0]
        return state_from_hand(game, world)

    # ---------------------------------------------------------------- text
    def information_state_string(self, player: int | None = None) -> str:
        if player is None:
            player = self.current_player()
        view = self.view(player)
        if view is None:
            return f"p{player} dealing {_dealt_text(self.dealt[player])}"
        return infostate_string(view)

    def observation_string(self, player: int | None = None) -> str:
        if player is None:
            player = self.current_player()
        view = self.view(player)
        if view is None:
            return f"p{player} dealing {_dealt_text(self.dealt[player])}"
        return observation_string(view)

    def __str__(self) -> str:
        if self.hand is None:
            return "dealing: " + " / ".join(_dealt_text(m) for m in self.dealt)
        return self.hand.describe()


def _dealt_text(mask: int) -> str:
    return "".join(card_name(c) for c in cards_of(mask)) or "-"


class PitchObserver:
    """OpenSpiel's observer protocol (``tensor``, ``dict``, ``set_from``, ``string_from``)."""

    def __init__(self, spec: _Spec, perfect_recall: bool) -> None:
        self.spec = spec
        self.perfect_recall = perfect_recall
        enc = spec.encoder
        self.tensor = np.zeros(enc.info_size if perfect_recall else enc.size, np.float32)
        self.dict: dict[str, np.ndarray[Any, Any]] = {}
        at = 0
        segments = enc.segments + (enc.history_segments if perfect_recall else ())
        for name, size in segments:
            self.dict[name] = self.tensor[at:at + size]
            at += size

    def set_from(self, state: PitchState, player: int) -> None:
        enc = self.spec.encoder
        view = state.view(player)
        if view is None:
            enc.encode_deal(player, state.dealt[player], self.tensor, info=self.perfect_recall)
        elif self.perfect_recall:
            enc.encode_infostate(view, self.tensor)
        else:
            enc.encode(view, self.tensor)

    def string_from(self, state: PitchState, player: int) -> str:
        if self.perfect_recall:
            return str(state.information_state_string(player))
        return str(state.observation_string(player))


def state_from_hand(game: PitchGame, hand: Hand) -> PitchState:
    """The OpenSpiel state of ``hand`` (its deal as chance actions, then its actions).

    ``game`` must be for the hand's rules, table size and dealer.
    """
    spec = game.spec
    if (hand.rules, hand.players, hand.dealer) != (spec.rules, spec.players, spec.dealer):
        raise ValueError("the game is for another table: "
                         f"{spec.rules.name}/{spec.players}/dealer {spec.dealer}")
    cards = [sorted(cards_of(m)) for m in hand.dealt]
    state: PitchState = game.new_initial_state()
    for seat in spec.order:
        state.apply_action(cards[seat].pop())
    for _, action in hand.history:
        # A pitch leads its card without a separate action, so the history holds it once.
        state.apply_action(int(action))
    return state


pyspiel.register_game(_GAME_TYPE, PitchGame)
