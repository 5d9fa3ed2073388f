"""The episode logic shared by the PettingZoo and Gymnasium environments (no third-party imports).

The game itself runs on :class:`pitchcards.table.Table`, the one game loop every face uses: it says
what happens next (a hand to deal, a bot's turn, a seat played from outside) and this module does
it, adding what an environment needs on top: episodes, truncation and rewards.

An *episode* is a match (``episode="match"``, default: hands are dealt until a side wins, or
``max_hands`` hands, after which the episode is *truncated*), or a single hand
(``episode="hand"``).

Rewards (per seat; partners share their side's reward; ``k`` is the number of sides):

* ``reward="zero-sum"`` (default): when a hand ends, every seat receives its side's score change
  for that hand minus the mean score change of the other ``k - 1`` sides
  (``d[s] - sum(d[t] for t != s) / (k - 1)``, ``d = HandResult.deltas``), so the sides' rewards
  sum to 0 every hand; when the match is won (``episode="match"``), the win bonus of
  ``reward="win"`` is added on the last step (+1 to the winners, ``-1 / (k - 1)`` to the others).
* ``reward="points"``: when a hand ends, every seat receives its side's score change for
  that hand (``HandResult.deltas``: the points it took, or minus the bid when its side was set);
  0 on every other step.
* ``reward="win"`` (``episode="match"`` only): 0 until the match ends; then +1 for the seats of the
  winning side and ``-1 / (sides - 1)`` for the others (so the rewards sum to 0); 0 for everyone
  when the match is truncated.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..hand import Hand
from ..match import Match
from ..rules import RuleSet, find_variant
from ..table import DealNext
from ..table import Table as GameTable
from ..views import View

if TYPE_CHECKING:
    from ..bots import Bot

__all__ = ["Table", "make_rules"]

EPISODES = ("match", "hand")
REWARDS = ("zero-sum", "points", "win")


def make_rules(variant: str | RuleSet, options: Mapping[str, Any] | None = None) -> RuleSet:
    """A variant by name (or a :class:`RuleSet`) with rules options changed."""
    rules = find_variant(variant) if isinstance(variant, str) else variant
    return rules.replace(**dict(options)) if options else rules


class Table:
    """A seeded :class:`~pitchcards.match.Match` on a game :class:`~pitchcards.table.Table`
    (every seat played from outside), stepped one action at a time, with rewards."""

    def __init__(self, variant: str | RuleSet = "auction-partners", players: int | None = None,
                 options: Mapping[str, Any] | None = None, *, episode: str = "match",
                 reward: str = "zero-sum", max_hands: int | None = None) -> None:
        self.rules = rules = make_rules(variant, options)
        players = rules.check_players(rules.default_players if players is None else players)
        if episode not in EPISODES:
            raise ValueError(f"episode={episode!r}: expected one of {', '.join(EPISODES)}")
        if reward not in REWARDS:
            raise ValueError(f"reward={reward!r}: expected one of {', '.join(REWARDS)}")
        if reward == "win" and (episode != "match" or rules.target is None):
            raise ValueError("reward='win' needs episode='match' and rules with a target")
        self.players = players
        self.sides = rules.side_count(players)
        self.episode = episode
        self.reward = reward
        if max_hands is None:
            max_hands = 200 if rules.target is not None else 10
        if max_hands < 1:
            raise ValueError(f"max_hands must be positive, not {max_hands!r}")
        self.max_hands = max_hands
        self.game: GameTable | None = None
        self._view_key: tuple[GameTable, int, int] | None = None  # what _view is the view of
        self._view: View | None = None
        self.terminated = False
        self.truncated = False

    @property
    def match(self) -> Match | None:
        """The match being played (None before :meth:`reset`)."""
        return None if self.game is None else self.game.session  # type: ignore[return-value]

    @property
    def hand(self) -> Hand:
        assert self.game is not None and self.game.hand is not None, "call reset() first"
        return self.game.hand

    @property
    def seat_to_act(self) -> int | None:
        return None if self.done else self.hand.seat_to_act

    @property
    def done(self) -> bool:
        return self.terminated or self.truncated

    def reset(self, seed: int | None, bots: Mapping[int, Bot] | None = None) -> None:
        """A new match, its deals (and first dealer) fixed by ``seed``, ``bots`` at their seats
        (the others are played from outside: :meth:`step`); the first hand dealt."""
        # history=False: an environment reads views, not events, and steps millions of times.
        seated: dict[int | str, Bot] = {seat: bot for seat, bot in (bots or {}).items()}
        self.game = GameTable(Match(self.rules, self.players, dealer=None, seed=seed),
                              bots=seated, history=False, auto_deal=False)
        self.terminated = self.truncated = False
        self._go_on()

    def _go_on(self) -> None:
        """Deal when the game table says a hand is to be dealt (the episode goes on)."""
        assert self.game is not None
        step = self.game.next_step()
        if isinstance(step, DealNext):
            self.game.deal()

    def play_bots(self) -> list[float]:
        """The bots play until a seat played from outside is to act or the episode ends; the
        rewards they bring to every seat, summed over the hands they end.

        The game table's own loop plays them (``GameTable.advance``, stopped at each hand's
        end for the rewards and the next deal): the turns ``next_step`` would give, without a
        ``BotTurn`` object each (issue 35)."""
        game = self.game
        assert game is not None, "call reset() first"
        total = [0.0] * self.players
        while not self.done:
            moves = game.moves
            game.advance(stop_at_hand_end=True)
            if game.moves == moves or self.hand.result is None:
                break  # a seat played from outside is to act
            total = [t + r for t, r in zip(total, self._after_action(), strict=True)]
        return total

    def view(self, seat: int) -> View:
        """``seat``'s view of the current hand, with the match scores.

        The same View again while nothing has moved (the game table's :attr:`moves`; a View is
        frozen): an env asked for the observation and then the action mask of one position
        builds the view once (issue 35)."""
        game = self.game
        assert game is not None, "call reset() first"
        key = (game, game.moves, seat)
        view = self._view
        if view is None or key != self._view_key:
            view = self._view = game.view(seat)
            self._view_key = key
        return view

    def results(self) -> dict[str, Any]:
        """The episode's results so far (the env ``info["result"]`` at the end of an episode).

        ``winner`` (winning side, or None), ``hands`` (hands played), ``scores`` (match score per
        side), ``made`` and ``set`` (per side: contracts that side bid and made, or bid and was
        set), ``terminated`` and ``truncated``.  Sides are absolute: side of seat ``s`` is
        ``s % 2`` in partnerships (``s % 3`` in three teams, TT1), else ``s``.
        """
        match = self.match
        assert match is not None, "call reset() first"
        made, was_set = [0] * self.sides, [0] * self.sides
        for r in match.results:
            if r.pitcher_side is None or r.thrown_in or r.bid in (None, 0):
                continue
            (made if r.made else was_set)[r.pitcher_side] += 1
        return {"winner": match.winner, "hands": len(match.results),
                "scores": [int(x) for x in match.scores], "made": made, "set": was_set,
                "terminated": self.terminated, "truncated": self.truncated}

    def step(self, action: int) -> list[float]:
        """Apply the seat to act's action; the rewards it brings to every seat.

        An illegal action raises the engine's :class:`~pitchcards.errors.IllegalActionError`
        (a ``ValueError`` with a ``reason``) and changes nothing.
        """
        assert self.game is not None and not self.done, "the episode is over: call reset()"
        self.game.push(action)
        return self._after_action()

    def _after_action(self) -> list[float]:
        """Every seat's reward for the action just taken; the episode's end, or the next hand
        dealt, when it ended a hand."""
        assert self.game is not None
        match: Match = self.game.session  # type: ignore[assignment]
        rewards = [0.0] * self.players
        hand = self.hand
        if hand.result is None:
            return rewards
        deltas = hand.result.deltas
        if self.reward == "points":
            rewards = [float(deltas[hand.side_of(s)]) for s in range(self.players)]
        elif self.reward == "zero-sum":
            total, others = sum(deltas), self.sides - 1
            rewards = [deltas[side] - (total - deltas[side]) / others
                       for side in map(hand.side_of, range(self.players))]
        if self.episode == "hand" or match.winner is not None:
            self.terminated = True
            if self.reward != "points" and self.episode == "match" and match.winner is not None:
                lose = -1.0 / (self.sides - 1)
                bonus = [1.0 if hand.side_of(s) == match.winner else lose
                         for s in range(self.players)]
                rewards = bonus if self.reward == "win" else \
                    [r + b for r, b in zip(rewards, bonus, strict=True)]
        elif len(match.results) >= self.max_hands:
            self.truncated = True
        else:
            self._go_on()
        return rewards
