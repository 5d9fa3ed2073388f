"""The Money Game session (rule set A): scores, stars and an exact money ledger (A-R7, A-R8).

Money is kept in ``fractions.Fraction`` dollars.  :func:`round_cents` rounds a whole group to
cents by largest remainder so the group total is kept (A-R7.6).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from .actions import Action
from .errors import IllegalActionError
from .hand import ActionLike, Hand
from .match import Deal, deal_rng, first_dealer
from .rules import RuleSet
from .scoring import HandResult

if TYPE_CHECKING:
    from .views import View

__all__ = ["MoneySession", "round_cents", "round_half_away"]

MAX_SEATS = 8


def round_half_away(amount: Fraction) -> int:
    """Whole cents of a dollar amount, half away from zero (A-R7.6, a single leaver)."""
    cents = amount * 100
    whole = abs(cents.numerator) * 2 + cents.denominator
    magnitude = whole // (2 * cents.denominator)
    return magnitude if cents >= 0 else -magnitude


def round_cents(amounts: Mapping[str, Fraction], order: Sequence[str] | None = None
                ) -> dict[str, int]:
    """Whole cents per player by largest remainder, keeping the rounded group total (A-R7.6).

    Each amount is floored to a cent; the cents still owed to reach the rounded total go one each
    to the largest remainders, ties in ``order`` (seat order from the dealer's left; E25).
    """
    names = list(order) if order is not None else list(amounts)
    missing = set(amounts) - set(names)
    names += sorted(missing)
    exact = {n: amounts[n] * 100 for n in names if n in amounts}
    floors = {n: v.numerator // v.denominator for n, v in exact.items()}
    total = round_half_away(sum(amounts.values(), Fraction(0)))
    owed = total - sum(floors.values())
    rank = sorted(exact, key=lambda n: (-(exact[n] - floors[n]), names.index(n)))
    out = dict(floors)
    if owed >= 0:
        for n in rank[:owed]:
            out[n] += 1
    else:  # cannot happen with floors, kept for safety of the invariant
        for n in rank[::-1][:-owed]:
            out[n] -= 1
    return out


class MoneySession:
    """A Money Game session: 2-8 players, no target, settled in money against the average.

    ``players`` are names in seat order; seat ``i`` of the current hand is ``players[i]``.
    """

    def __init__(self, rules: RuleSet, players: Sequence[str], dealer: int | None = 0,
                 seed: int | None = None) -> None:
        if rules.money == "none":
            raise IllegalActionError(f"{rules.name!r} is not played for money (money='none'); "
                                     "use the 'money' variant or set money=",
                                     reason="bad_setup", phase="setup")
        names = list(players)
        if len(set(names)) != len(names) or not all(isinstance(n, str) and n for n in names):
            raise IllegalActionError(f"player names must be distinct non-empty strings: {names}",
                                     reason="bad_setup", phase="setup")
        low, high = rules.player_range
        if not low <= len(names) <= high:
            raise IllegalActionError(f"{len(names)} players cannot play {rules.name!r}: it "
                                     f"allows {low} to {high} (E1)", reason="bad_setup",
                                     phase="setup")
        self.rules = rules
        self.seed = seed
        self._rng = random.Random(seed)
        if dealer is None:
            dealer = first_dealer(rules, len(names), self._rng)  # A-R2.1
        if not 0 <= dealer < len(names):
            raise IllegalActionError(f"dealer {dealer} is not a seat (0..{len(names) - 1})",
                                     reason="bad_setup", phase="setup")
        self.players: list[str] = names
        self.next_dealer = dealer
        self.scores: dict[str, int] = {n: 0 for n in names}
        self.stars: dict[str, int] = {n: 0 for n in names}
        self._points_money: dict[str, Fraction] = {n: Fraction(0) for n in names}
        self._moon_money: dict[str, Fraction] = {n: Fraction(0) for n in names}
        self.payouts: dict[str, Fraction] = {}   #: what each player who left or settled got
        self.results: list[HandResult] = []
        self.hand_players: list[list[str]] = []  #: who sat in each hand, in seat order
        self.hands: list[Hand] = []
        self.hand: Hand | None = None
        self.finished = False
        self.last_dealer: int | None = None
        #: What happened, in order, for game records to replay: first the starting table,
        #: ``("player", name)`` per seat and ``("dealer", seat)``; then ``("hand", index into
        #: hands)``, ``("join", name)``, ``("leave", name)`` and ``("settle", "")``.
        self.events: list[tuple[str, str | int]] = [("player", n) for n in names]
        self.events.append(("dealer", dealer))

    # ------------------------------------------------------------------ the money
    @property
    def ledger(self) -> dict[str, Fraction]:
        """Dollars each seated player would receive if paid now (A-R7.3 / A-R7.4)."""
        if self.rules.average_mode == "snapshot":
            return self._snapshot(self.players)
        return {n: self._points_money[n] + self._moon_money[n] for n in self.players}

    def _snapshot(self, group: Sequence[str]) -> dict[str, Fraction]:
        # A-R7.4: stake * (score - mean of the group's scores) + moon money.
        mean = Fraction(sum(self.scores[n] for n in group), len(group)) if group else Fraction(0)
        stake = self.rules.stake_per_point
        return {n: stake * (self.scores[n] - mean) + self._moon_money[n] for n in group}

    @property
    def pot(self) -> Fraction:
        """What the payouts so far leave over (negative: paid out more than came in).

        Always 0 in ``per_hand`` mode; snapshot mode is not zero-sum once someone leaves early,
        and the difference is reported here (A-R7.4, E28).
        """
        paid = sum(self.payouts.values(), Fraction(0))
        held = sum(self.ledger.values(), Fraction(0)) if not self.finished else Fraction(0)
        return -(paid + held)

    def tie_order(self) -> list[str]:
        """Seated players from the last dealer's left: the tie order of A-R7.6."""
        n = len(self.players)
        start = ((self.last_dealer if self.last_dealer is not None else self.next_dealer - 1)
                 + 1) % n if n else 0
        return [self.players[(start + k) % n] for k in range(n)]

    # ------------------------------------------------------------------ hands
    @property
    def in_hand(self) -> bool:
        return self.hand is not None and not self.hand.is_over

    def deal(self, cards: Deal | None = None) -> Hand:
        """Deal the next hand to the seated players."""
        self._between_hands("deal")
        if cards is not None:
            hand = Hand.deal(self.rules, len(self.players), self.next_dealer, cards=cards)
        else:
            hand = Hand.deal(self.rules, len(self.players), self.next_dealer,
                             rng=deal_rng(self.seed, len(self.hands), self._rng))
        self.hand = hand
        self.hands.append(hand)
        self.hand_players.append(list(self.players))
        self.events.append(("hand", len(self.hands) - 1))
        return hand

    def push(self, action: ActionLike, seat: int | None = None) -> None:
        if self.hand is None or self.hand.is_over:
            raise IllegalActionError("no hand in progress: call deal() first"
                                     if not self.finished else "the session has ended",
                                     reason="game_over" if self.finished else "no_hand",
                                     phase="over" if self.finished else "between hands")
        self.hand.push(action, seat)
        if self.hand.result is not None:
            self._finish(self.hand.result)

    def pop(self) -> Action:
        """Undo the last action of the current hand (un-settling it if it had just ended)."""
        if self.hand is None:
            raise IllegalActionError("no hand dealt yet", reason="no_hand", phase="setup")
        if self.hand.result is not None:
            if len(self.results) != len(self.hands) or self.hand_players[-1] != self.players:
                raise IllegalActionError("cannot undo into a hand once players joined or left",
                                         reason="undo_blocked", phase="between hands")
            self._apply(self.results.pop(), self.hand_players[-1], sign=-1)
            self.next_dealer = self.hand.dealer
        return self.hand.pop()

    def _finish(self, result: HandResult) -> None:
        self.results.append(result)
        self._apply(result, self.players, sign=1)
        self.last_dealer = self.hand.dealer  # type: ignore[union-attr]
        # A-R2.2: the deal passes left.
        self.next_dealer = (self.hand.dealer + 1) % len(self.players)  # type: ignore[union-attr]

    def _apply(self, result: HandResult, seated: Sequence[str], sign: int) -> None:
        rules = self.rules
        n = len(seated)
        deltas = result.deltas
        for i, name in enumerate(seated):
            self.scores[name] += sign * deltas[i]
        # A-R7.3 (per_hand): stake * (d_i - mean d) over the players dealt in; zero-sum.
        total = sum(deltas)
        for i, name in enumerate(seated):
            if rules.money == "per_point_flat":
                share = Fraction(n * deltas[i] - total)  # every pair settles its difference
            else:
                share = Fraction(n * deltas[i] - total, n)
            self._points_money[name] += sign * rules.stake_per_point * share
        # A-R6.4, A-R7.2: a made moon earns a star and $1 from everyone else; a failed moon
        # bid pays $1 to everyone else (E27: only the players dealt in).
        if result.pitcher is None:
            return
        pitcher = seated[result.pitcher]
        if result.moon:
            self.stars[pitcher] += sign
            flow = rules.moon_payment
        elif result.bid == "moon":
            flow = -rules.moon_payment
        else:
            return
        for name in seated:
            if name != pitcher:
                self._moon_money[name] -= sign * flow
                self._moon_money[pitcher] += sign * flow

    # ------------------------------------------------------------------ joining and leaving
    def _between_hands(self, what: str) -> None:
        if self.finished:
            raise IllegalActionError(f"cannot {what}: the session has ended", reason="game_over",
                                     phase="over")
        if self.in_hand:
            raise IllegalActionError(f"cannot {what} during a hand (A-R8.1): finish it first",
                                     reason="hand_in_progress",
                                     phase=self.hand.phase)  # type: ignore[union-attr]

    def join(self, name: str) -> None:
        """Seat a new player between hands, to the right of the next dealer (A-R8.3)."""
        self._between_hands(f"join {name!r}")
        if self.rules.join_leave == "never":
            raise IllegalActionError("this rule set does not allow joining (join_leave='never')",
                                     reason="join_leave_not_allowed", phase="between hands")
        if not isinstance(name, str) or not name:
            raise IllegalActionError(f"a player needs a non-empty name, not {name!r}",
                                     reason="bad_setup", phase="between hands")
        if name in self.players or name in self.payouts:
            raise IllegalActionError(f"{name!r} is already at the table or has left; "
                                     "choose another name", reason="name_taken",
                                     phase="between hands")
        limit = min(MAX_SEATS, self.rules.player_range[1])
        if len(self.players) >= limit:
            raise IllegalActionError(f"cannot seat {name!r}: the table is full at {limit} "
                                     "(A-R8.2, E1)", reason="table_full", phase="between hands")
        score = 0
        if self.rules.average_mode == "snapshot" and self.rules.join_score == "table_average":
            mean = Fraction(sum(self.scores[n] for n in self.players), len(self.players))
            # The table mean in whole points, halves away from zero as everywhere (A-R7.6).
            score = int(mean + Fraction(1, 2)) if mean >= 0 else -int(-mean + Fraction(1, 2))
        # Seat index of the next dealer: the joiner takes it and the dealer moves one left, so
        # the joiner bids just before the dealer, last of the non-dealers (A-R8.3).
        self.players.insert(self.next_dealer, name)
        if self.last_dealer is not None and self.next_dealer <= self.last_dealer:
            # A-R7.6 / E25: the last dealer moved one seat up too (the join wrapped round to
            # index 0), so the tie order still starts at the last dealer's left.
            self.last_dealer += 1
        self.next_dealer += 1
        self.scores[name] = score
        self.stars[name] = 0
        self._points_money[name] = Fraction(0)
        self._moon_money[name] = Fraction(0)
        self.events.append(("join", name))

    def leave(self, name: str) -> Fraction:
        """A player leaves between hands and is paid out at once (A-R7.5, E28)."""
        self._between_hands(f"let {name!r} leave")
        if self.rules.join_leave == "never":
            raise IllegalActionError("this rule set does not allow leaving (join_leave='never')",
                                     reason="join_leave_not_allowed", phase="between hands")
        if name not in self.players:
            raise IllegalActionError(f"{name!r} is not seated; seated: {', '.join(self.players)}",
                                     reason="not_seated", phase="between hands")
        payout = self.ledger[name]
        self.payouts[name] = payout
        index = self.players.index(name)
        self.players.pop(index)
        # A-R8.4 / E3: if the next dealer left, the deal goes to the next seat clockwise,
        # which now sits at the same index.
        if index < self.next_dealer:
            self.next_dealer -= 1
        if self.players:
            self.next_dealer %= len(self.players)
        if self.last_dealer is not None and self.players:
            self.last_dealer = (self.next_dealer - 1) % len(self.players)
        self.events.append(("leave", name))
        if len(self.players) < 2:
            self.settle()  # A-R8.5 / E29
        return payout

    def settle(self) -> dict[str, Fraction]:
        """End the session: the payout of every seated player (A-R7.5)."""
        if self.finished:
            raise IllegalActionError("the session has already been settled", reason="game_over",
                                     phase="over")
        if self.in_hand:
            raise IllegalActionError("cannot settle during a hand: finish it first",
                                     reason="hand_in_progress",
                                     phase=self.hand.phase)  # type: ignore[union-attr]
        final = self.ledger
        self.payouts.update(final)
        self.finished = True
        self.events.append(("settle", ""))
        return final

    def settle_cents(self, amounts: Mapping[str, Fraction] | None = None) -> dict[str, int]:
        """Amounts (default: the current ledger) in whole cents, by largest remainder."""
        return round_cents(amounts if amounts is not None else self.ledger, self.tie_order())

    def view(self, seat: int | None = None) -> View:
        from .views import view_of

        if self.hand is None:
            raise IllegalActionError("no hand dealt yet", reason="no_hand", phase="setup")
        seated = self.hand_players[-1]
        return view_of(self.hand, seat, scores=[self.scores[n] for n in seated], names=seated)

    def __repr__(self) -> str:
        return (f"<MoneySession players={self.players} hands={len(self.results)} "
                f"finished={self.finished}>")
