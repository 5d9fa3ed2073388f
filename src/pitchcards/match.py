"""A match: hands dealt in turn until a side wins (B-R8, §7 ``win_rule``)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction

from .actions import Action
from .errors import IllegalActionError, shown
from .hand import ActionLike, Hand, check_seed, check_table
from .outcome import EnteredHand, Outcome
from .rules import RuleSet
from .scoring import HandResult
from .session import Deal, check_names
from .views import View, view_of

__all__ = ["Match", "deal_rng", "first_dealer", "hljg_reach_order", "match_winner"]


def first_dealer(rules: RuleSet, players: int, rng: random.Random) -> int:
    """A-R2.1 / B-R2.1: a random first dealer, or by a cut (``first_dealer="cut"``).

    The cut: each seat in turn draws a card from a shuffled deck; the lowest card deals (ties in
    rank are cut again among the tied seats), as Hoyle's "draw for deal" has it.
    """
    if rules.first_dealer == "random":
        return rng.randrange(players)
    seats = list(range(players))
    while True:
        drawn = rng.sample(range(52), len(seats))
        ranks = [c % 13 for c in drawn]
        low = min(ranks)
        seats = [s for s, r in zip(seats, ranks, strict=True) if r == low]
        if len(seats) == 1:
            return seats[0]


def deal_rng(seed: int | None, hand_index: int, fallback: random.Random) -> random.Random:
    """The generator that shuffles hand ``hand_index`` of a seeded game.

    Each hand draws from its own generator derived from the game's seed and the hand's index,
    so a game rebuilt from its record (which does not carry generator state) deals the same
    next hand as the original would have.  Unseeded games draw from ``fallback``.
    """
    if seed is None:
        return fallback
    return random.Random(f"pitchcards/{seed}/{hand_index}")


def hljg_reach_order(rules: RuleSet, before: Sequence[int], result: HandResult) -> list[int]:
    """Sides in the order they reach the target when the hand is counted High-Low-Jack-Game.

    §7.7 (W1, H7): a set pitcher's loss is taken first; then each point is added in the order
    High, Low, Jack, Game, then the ten-point family's extra points in the order of
    ``result.extra`` (a made moon's extra point, if it scores 5, last).
    """
    target = rules.target
    if target is None:
        return []
    running = list(before)
    order: list[int] = []
    pside = result.pitcher_side

    def add(side: int, amount: int) -> None:
        was = running[side] >= target
        running[side] += amount
        if not was and running[side] >= target and side not in order:
            order.append(side)

    if pside is not None and not result.made:
        running[pside] += result.deltas[pside]  # the loss counts first
    points = [(side, 1) for side in (result.high, result.low, result.jack, result.game)]
    points += [(side, value) for _, side, value in result.extra]  # T7: then the extra points
    for side, value in points:
        if side is None or (side == pside and not result.made):
            continue
        add(side, value)
    if pside is not None and result.made:
        extra = result.deltas[pside] - result.points[pside]
        if extra > 0:
            add(pside, extra)
    return order


def match_winner(rules: RuleSet, before: Sequence[int], after: Sequence[int],
                 result: HandResult) -> int | None:
    """The side that wins the match on this hand, or None to play on."""
    pside = result.pitcher_side
    if pside is None:
        return None
    if rules.moon == "smudge_wins" and result.moon:
        return pside  # §5.4(b): a made smudge wins the game outright
    target = rules.target
    if target is None:
        return None
    pitcher_qualifies = after[pside] >= target and (result.made or not rules.win_requires_made_bid)
    if rules.win_rule == "bidder_goes_out":
        # B-R8.2, E30-E34: only the pitcher's side can win, at >= target, having made its bid.
        # CP8: the contracting side of call-your-partner is two seats: the pitcher first,
        # otherwise its partner.
        partner = result.partner
        if (not pitcher_qualifies and partner is not None and partner != pside
                and after[partner] >= target and (result.made or not rules.win_requires_made_bid)):
            return partner
        return pside if pitcher_qualifies else None
    if rules.win_rule == "first_to_target_HLJG_order":
        order = hljg_reach_order(rules, before, result)
        return order[0] if order else None
    if rules.win_rule == "pitcher_counted_first":
        # H3/H16: the pitcher's side is counted first; otherwise the first to reach in H-L-J-G.
        if pitcher_qualifies:
            return pside
        order = [s for s in hljg_reach_order(rules, before, result) if s != pside]
        return order[0] if order else None
    # higher_score (W2): the highest score at or past the target; the pitcher wins a tie.
    reached = [s for s, v in enumerate(after) if v >= target]
    if not reached:
        return None
    best = max(after[s] for s in reached)
    top = [s for s in reached if after[s] == best]
    if len(top) == 1:
        return top[0]
    return pside if pside in top and result.made else None


class Match:
    """Hands dealt in turn (the deal passes left, B-R2.2) until a side wins.

    ``scores`` and ``winner`` are per side: seats, or teams 0/1 (``2x2``) or 0/1/2 (``3x2``).
    """

    def __init__(self, rules: RuleSet, players: int = 4, dealer: int | None = 0,
                 seed: int | None = None, scores: Sequence[int] | None = None,
                 names: Sequence[str] | None = None) -> None:
        """A match at a table of ``players`` seats.

        ``dealer=None`` draws the first dealer (``first_dealer``, A-R2.1 / B-R2.1); ``scores``
        starts each side at a score (default 0); ``names`` names the seats in order (default
        ``"Seat 0"``, ``"Seat 1"``, …).  Bad arguments raise :class:`IllegalActionError`
        (``bad_setup``) or :class:`OptionError`, never a raw ``TypeError``.
        """
        # The same checks as Hand.deal (rules a RuleSet, E1 table size, an int dealer seat);
        # a drawn dealer (None) is checked as seat 0, which every table has.
        players = check_table(rules, players, 0 if dealer is None else dealer)
        check_seed(seed)
        nsides = rules.side_count(players)
        if scores is None:
            start = [0] * nsides
        elif (not isinstance(scores, list | tuple) or len(scores) != nsides
              or not all(type(v) is int for v in scores)):
            raise IllegalActionError(f"scores needs one int per side ({nsides}), not "
                                     f"{shown(scores)}", reason="bad_setup", phase="setup")
        else:
            start = list(scores)
        self.seat_names: tuple[str, ...] = (
            tuple(f"Seat {s}" for s in range(players)) if names is None
            else tuple(check_names(names)))
        if len(self.seat_names) != players:
            raise IllegalActionError(f"{len(self.seat_names)} names for {players} seats",
                                     reason="bad_setup", phase="setup")
        self.rules = rules
        self.players = players
        self.seed = seed
        self._rng = random.Random(seed)
        if dealer is None:
            dealer = first_dealer(rules, players, self._rng)
        self.first_dealer = dealer
        self.next_dealer = dealer
        self.starting_scores: tuple[int, ...] = tuple(start)
        self.scores: list[int] = start
        self.winner: int | None = None
        self.results: list[HandResult] = []
        self.hands: list[Hand] = []
        #: A match keeps every hand: ``hands[0]`` is always its first (GameSession).
        self.first_hand = 0
        self.hand: Hand | None = None

    # ------------------------------------------------------------------ GameSession
    @property
    def seat_count(self) -> int:
        """Seats at the table (fixed for a match): the same as :attr:`players`."""
        return self.players

    @property
    def names(self) -> tuple[str, ...]:
        """The seats' names in order (``names=`` at creation, default ``"Seat 0"``, …)."""
        return self.seat_names

    @property
    def is_over(self) -> bool:
        """A side has won the match."""
        return self.winner is not None

    @property
    def payouts(self) -> dict[str, Fraction]:
        """No one is paid in a match: always empty (money sessions pay leavers, A-R7.5)."""
        return {}

    @property
    def payout_cents(self) -> dict[str, int]:
        """No one is paid in a match: always empty."""
        return {}

    # A match keeps its seats to the end: joining, leaving and settling (A-R8, A-R7.5) are the
    # money session's; a match refuses them with ``join_leave_not_allowed`` and changes nothing.
    def join(self, name: str) -> None:
        """Refused: a match seats the same players to the end (only money sessions, A-R8)."""
        raise IllegalActionError(f"cannot seat {shown(name)}: only money sessions take "
                                 "players between hands", reason="join_leave_not_allowed",
                                 phase="between hands")

    def leave(self, name: str) -> Fraction:
        """Refused: a match seats the same players to the end (only money sessions, A-R8)."""
        raise IllegalActionError(f"{shown(name)} cannot leave: only money sessions let "
                                 "players go between hands", reason="join_leave_not_allowed",
                                 phase="between hands")

    def settle(self) -> dict[str, Fraction]:
        """Refused: a match ends when a side wins; only money sessions settle (A-R7.5)."""
        raise IllegalActionError("only money sessions settle", reason="join_leave_not_allowed",
                                 phase="between hands")

    def side_of(self, seat: int) -> int:
        """The scoring side of a seat: the seat, or its team in partnerships (TT1)."""
        if type(seat) is not int or not 0 <= seat < self.players:
            raise IllegalActionError(
                f"seat {shown(seat)} is not a seat of this {self.players}-player match "
                f"(0..{self.players - 1})", reason="no_such_seat", phase=self._phase(),
                legal=[str(s) for s in range(self.players)])
        return self.rules.side_of(seat)

    def side_scores(self) -> list[int]:
        """The running score of each side (a copy of :attr:`scores`)."""
        return list(self.scores)

    def seat_scores(self) -> list[int]:
        """The running score of each seat (a partnership's score for both partners)."""
        return [self.scores[self.side_of(s)] for s in range(self.players)]

    def _phase(self) -> str:
        if self.winner is not None:
            return "over"
        if self.hand is None:
            return "setup"
        return self.hand.phase if not self.hand.is_over else "between hands"

    @property
    def in_hand(self) -> bool:
        """A hand is dealt and not over."""
        return self.hand is not None and not self.hand.is_over

    def _between_hands(self, what: str) -> None:
        if self.winner is not None:
            raise IllegalActionError(f"the match is over: side {self.winner} won",
                                     reason="game_over", phase="over")
        if self.in_hand:
            raise IllegalActionError(f"a hand is in progress: finish it before {what}",
                                     reason="hand_in_progress",
                                     phase=self.hand.phase)  # type: ignore[union-attr]

    def deal(self, cards: Deal | None = None) -> Hand:
        """Deal the next hand (shuffled from the match's seed, or stacked) and return it."""
        self._between_hands("dealing the next")
        if cards is not None:
            hand = Hand.deal(self.rules, self.players, self.next_dealer, cards=cards)
        else:
            hand = Hand.deal(self.rules, self.players, self.next_dealer,
                             rng=deal_rng(self.seed, len(self.hands), self._rng))
        self.hand = hand
        self.hands.append(hand)
        return hand

    def enter(self, outcome: Outcome) -> EnteredHand:
        """Score the next hand by its outcome, without its cards (:mod:`pitchcards.outcome`).

        The dealer is the next by rotation; the result is applied as a played hand's is, and
        :meth:`pop` undoes the whole entry.  A refused outcome changes nothing.
        """
        self._between_hands("entering the next")
        hand = EnteredHand.enter(self.rules, self.players, self.next_dealer, outcome,
                                 self.seat_names)
        self.hand = hand
        self.hands.append(hand)
        self._finish(hand.result)  # type: ignore[arg-type]
        return hand

    def push(self, action: ActionLike, seat: int | None = None) -> None:
        """Apply an action to the current hand; score it as soon as it ends."""
        hand = self._current()
        hand.push(action, seat)
        if hand.result is not None:
            self._finish(hand.result)

    def pop(self) -> Action:
        """Undo the last action of the current hand (un-scoring it if it had just ended).

        A hand entered by its outcome is undone whole; its last bid is returned.
        """
        hand = self._current(allow_over=True)
        if isinstance(hand, EnteredHand):
            self._unfinish()
            self.hands.pop()
            self.hand = self.hands[-1] if self.hands else None
            return hand.history[-1][1]
        if hand.result is not None and len(self.results) == len(self.hands):
            self._unfinish()
        return hand.pop()

    def _current(self, allow_over: bool = False) -> Hand:
        if self.hand is None or (self.hand.is_over and not allow_over):
            phase = "over" if self.winner is not None else "between hands"
            raise IllegalActionError("no hand in progress: call deal() first"
                                     if self.winner is None else
                                     f"the match is over: side {self.winner} won",
                                     reason="no_hand" if self.winner is None else "game_over",
                                     phase=phase)
        return self.hand

    def _finish(self, result: HandResult) -> None:
        before = list(self.scores)
        for side, d in enumerate(result.deltas):
            self.scores[side] += d
        self.results.append(result)
        self.winner = match_winner(self.rules, before, self.scores, result)
        # B-R2.2 / E3: the deal passes left after every hand, made, set or thrown in.
        self.next_dealer = (self.hand.dealer + 1) % self.players  # type: ignore[union-attr]

    def _unfinish(self) -> None:
        result = self.results.pop()
        for side, d in enumerate(result.deltas):
            self.scores[side] -= d
        self.winner = None
        self.next_dealer = self.hand.dealer  # type: ignore[union-attr]

    def view(self, seat: int | None = None) -> View:
        """The current hand as ``seat`` sees it, with the match scores."""
        if self.hand is None:
            raise IllegalActionError("no hand dealt yet", reason="no_hand", phase="setup")
        return view_of(self.hand, seat, scores=self.scores, names=self.seat_names)

    def __repr__(self) -> str:
        return (f"<Match {self.rules.name} players={self.players} scores={self.scores} "
                f"hands={len(self.results)} winner={self.winner}>")
