"""The Money Game session (rule set A): scores, stars and an exact money ledger (A-R7, A-R8).

Money is kept in ``fractions.Fraction`` dollars.  :func:`round_cents` rounds a whole group to
cents by largest remainder so the group total is kept (A-R7.6).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from fractions import Fraction

from .actions import Action
from .errors import IllegalActionError, OptionError, shown
from .hand import ActionLike, Hand, check_seed, check_table
from .match import deal_rng, first_dealer
from .outcome import EnteredHand, Outcome
from .rules import RuleSet
from .scoring import HandResult
from .session import Deal, check_name, check_names
from .views import View, view_of

__all__ = ["MoneySession", "cents_text", "dollars_text", "round_cents", "round_half_away"]

MAX_SEATS = 8


def round_half_away(amount: Fraction, unit: Fraction = Fraction(1, 100)) -> int:
    """``amount`` in whole ``unit``s (default: dollars to cents), halves away from zero.

    A-R7.6: the one rounding rule of the money game, used for a single amount, a group's
    total and a joiner's table average (a whole point, ``unit=1``).  Away from zero, not to
    even, so a gain and the equal loss round to equal sizes.
    """
    units = amount / unit
    magnitude = (abs(units.numerator) * 2 + units.denominator) // (2 * units.denominator)
    return magnitude if units >= 0 else -magnitude


def cents_text(cents: int) -> str:
    """Whole cents as signed dollars: ``+$0.35``, ``-$1.10``, ``+$0.00``."""
    return f"{'-' if cents < 0 else '+'}${abs(cents) // 100}.{abs(cents) % 100:02d}"


def dollars_text(amount: Fraction) -> str:
    """An exact amount of dollars to the cent, halves away from zero (A-R7.6): ``+$0.35``."""
    return cents_text(round_half_away(amount))


def round_cents(amounts: Mapping[str, Fraction], order: Sequence[str] | None = None,
                total: int | None = None) -> dict[str, int]:
    """Whole cents per player by largest remainder, keeping the rounded group total (A-R7.6).

    Each amount is floored to a cent; the cents still owed to reach the total (by default the
    group's exact total rounded half away from zero; ``total`` sets it in cents) go one each to
    the largest remainders, ties in ``order`` (seat order from the dealer's left; E25).
    """
    _check_amounts(amounts, order, total)
    names = list(order) if order is not None else list(amounts)
    missing = set(amounts) - set(names)
    names += sorted(missing)
    exact = {n: amounts[n] * 100 for n in names if n in amounts}
    floors = {n: v.numerator // v.denominator for n, v in exact.items()}
    if total is None:
        total = round_half_away(sum(amounts.values(), Fraction(0)))
    owed = total - sum(floors.values())
    rank = sorted(exact, key=lambda n: (-(exact[n] - floors[n]), names.index(n)))
    out = dict(floors)
    if owed >= 0:
        for n in rank[:owed]:
            out[n] += 1
    else:  # a total below the floors (a leaver after rounding went the other way)
        for n in rank[::-1][:-owed]:
            out[n] -= 1
    return out


def _check_amounts(amounts: object, order: object, total: object) -> None:
    """round_cents' arguments: names to exact dollar amounts, names in tie order, whole cents."""
    if not isinstance(amounts, Mapping) or len(amounts) > 64 or not all(
            isinstance(n, str) and isinstance(v, Fraction | int) and not isinstance(v, bool)
            for n, v in amounts.items()):
        raise OptionError(f"amounts must map player names to exact dollars (Fractions or ints), "
                          f"not {shown(amounts)}")
    if order is not None and (not isinstance(order, list | tuple) or len(order) > 64
                              or not all(isinstance(n, str) for n in order)):
        raise OptionError(f"order must be a list of player names, not {shown(order)}")
    if total is not None and type(total) is not int:
        raise OptionError(f"total must be whole cents (an int), not {shown(total)}")


class MoneySession:
    """A Money Game session: 2-8 players, no target, settled in money against the average.

    ``players`` are names in seat order; seat ``i`` of the current hand is ``players[i]``.
    """

    def __init__(self, rules: RuleSet, players: Sequence[str], dealer: int | None = 0,
                 seed: int | None = None) -> None:
        """A session for ``players`` (names in seat order; a single string is refused).

        Bad arguments raise :class:`IllegalActionError` (``bad_setup``) or
        :class:`OptionError`, never a raw ``TypeError``.
        """
        if not isinstance(rules, RuleSet):
            raise OptionError(f"rules must be a RuleSet (e.g. find_variant('money')), not "
                              f"{shown(rules)}")
        if rules.money == "none":
            raise IllegalActionError(f"{rules.name!r} is not played for money (money='none'); "
                                     "use the 'money' variant or set money=",
                                     reason="bad_setup", phase="setup")
        names = check_names(players)
        # The same checks as Hand.deal (E1 table size, an int dealer seat); a drawn dealer
        # (None) is checked as seat 0, which every table has.
        check_table(rules, len(names), 0 if dealer is None else dealer)
        self.rules = rules
        self.seed = check_seed(seed)
        self._rng = random.Random(seed)
        if dealer is None:
            dealer = first_dealer(rules, len(names), self._rng)  # A-R2.1
        self.players: list[str] = names
        self.next_dealer = dealer
        self.scores: dict[str, int] = {n: 0 for n in names}
        self.stars: dict[str, int] = {n: 0 for n in names}
        self._points_money: dict[str, Fraction] = {n: Fraction(0) for n in names}
        self._moon_money: dict[str, Fraction] = {n: Fraction(0) for n in names}
        self.payouts: dict[str, Fraction] = {}   #: what each player who left or settled got
        #: The same in whole cents (A-R7.6): their sum is always the exact payouts' sum rounded
        #: (0 in per_hand mode), however many players leave along the way.
        self.payout_cents: dict[str, int] = {}
        self.results: list[HandResult] = []
        self.hand_players: list[list[str]] = []  #: who sat in each hand, in seat order
        self.hands: list[Hand] = []
        #: The number of the hands dealt before ``hands[0]``: :meth:`forget_hands` drops the
        #: oldest from memory (``results`` and ``hand_players`` alike), so ``hands[i]`` is hand
        #: ``first_hand + i`` of the session.
        self.first_hand = 0
        self.hand: Hand | None = None
        self.finished = False
        self.last_dealer: int | None = None
        #: What happened, in order, for game records to replay: first the starting table,
        #: ``("player", name)`` per seat and ``("dealer", seat)``; then ``("hand", index into
        #: hands)``, ``("join", name)``, ``("leave", name)`` and ``("settle", "")``; the hand
        #: numbers count from the session's first hand (see :attr:`first_hand`).
        self.events: list[tuple[str, str | int]] = [("player", n) for n in names]
        self.events.append(("dealer", dealer))
        #: The last dealer before each entered hand (by index), for undoing it exactly.
        self._entry_last_dealer: dict[int, int | None] = {}

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

    # ------------------------------------------------------------------ GameSession
    @property
    def seat_count(self) -> int:
        """Players seated now (the next hand's seats, between hands)."""
        return len(self.players)

    @property
    def names(self) -> tuple[str, ...]:
        """The seated players' names in seat order (a copy of :attr:`players`)."""
        return tuple(self.players)

    @property
    def in_hand(self) -> bool:
        """A hand is dealt and not over."""
        return self.hand is not None and not self.hand.is_over

    @property
    def is_over(self) -> bool:
        """The session is settled (A-R7.5, A-R8.5)."""
        return self.finished

    @property
    def winner(self) -> int | None:
        """Always None: a money session has no target and no winner, only payouts (A-R7)."""
        return None

    def side_of(self, seat: int) -> int:
        """Every player is their own side in the money game (no partnerships, A-R1)."""
        n = len(self.players)
        if type(seat) is not int or not 0 <= seat < n:
            hand = self.hand
            phase = ("over" if self.finished else hand.phase if hand is not None
                     and not hand.is_over else "between hands")
            raise IllegalActionError(
                f"seat {shown(seat)} is not a seat of this {n}-player table (0..{n - 1})",
                reason="no_such_seat", phase=phase, legal=[str(s) for s in range(n)])
        return seat

    def side_scores(self) -> list[int]:
        """The seated players' scores in seat order."""
        return [self.scores[n] for n in self.players]

    def seat_scores(self) -> list[int]:
        """The seated players' scores in seat order (sides are seats here)."""
        return self.side_scores()

    # ------------------------------------------------------------------ hands

    def deal(self, cards: Deal | None = None) -> Hand:
        """Deal the next hand to the seated players."""
        self._between_hands("deal")
        if cards is not None:
            hand = Hand.deal(self.rules, len(self.players), self.next_dealer, cards=cards)
        else:
            hand = Hand.deal(self.rules, len(self.players), self.next_dealer,
                             rng=deal_rng(self.seed, self.hands_dealt, self._rng))
        self._begin(hand)
        return hand

    def enter(self, outcome: Outcome) -> EnteredHand:
        """Score the next hand by its outcome, without its cards (:mod:`pitchcards.outcome`).

        Dealt in are the players seated now; the dealer is the next by rotation (A-R2.2,
        A-R8.4).  The result is applied as a played hand's is (scores, stars, the ledger), and
        :meth:`pop` undoes the whole entry.  A refused outcome changes nothing.
        """
        self._between_hands("enter a hand")
        hand = EnteredHand.enter(self.rules, len(self.players), self.next_dealer, outcome,
                                 self.players)
        self._entry_last_dealer[self.hands_dealt] = self.last_dealer
        self._begin(hand)
        self._finish(hand.result)  # type: ignore[arg-type]
        return hand

    def _begin(self, hand: Hand) -> None:
        """A hand starts, dealt or entered: to the players seated now."""
        self.hand = hand
        self.hands.append(hand)
        self.hand_players.append(list(self.players))
        self.events.append(("hand", self.hands_dealt - 1))

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
        if isinstance(self.hand, EnteredHand):
            return self._pop_entry(self.hand)
        if self.hand.result is not None:
            if len(self.results) != len(self.hands) or self.hand_players[-1] != self.players:
                raise IllegalActionError("cannot undo into a hand once players joined or left",
                                         reason="undo_blocked", phase="between hands")
            self._apply(self.results.pop(), self.hand_players[-1], sign=-1)
            self.next_dealer = self.hand.dealer
        return self.hand.pop()

    def _pop_entry(self, hand: EnteredHand) -> Action:
        """Undo a hand entered by its outcome, whole; its last bid is returned."""
        index = self.hands_dealt - 1
        if self.events[-1] != ("hand", index):
            raise IllegalActionError("cannot undo the entered hand once players joined or left "
                                     "or the session was settled", reason="undo_blocked",
                                     phase="over" if self.finished else "between hands")
        self._apply(self.results.pop(), self.hand_players[-1], sign=-1)
        self.next_dealer = hand.dealer
        self.last_dealer = self._entry_last_dealer.pop(index)
        self.hands.pop()
        self.hand_players.pop()
        self.events.pop()
        self.hand = self.hands[-1] if self.hands else None
        return hand.history[-1][1]

    @property
    def hands_dealt(self) -> int:
        """How many hands this session has dealt (or entered), kept in memory or not."""
        return self.first_hand + len(self.hands)

    def forget_hands(self, keep: int = 1) -> None:
        """Keep only the last ``keep`` hands (at least the current one) in memory, with their
        results, seatings and events: a money session has no end (A-R7), and a server table
        keeps every hand in its log, not here.  The score, stars, ledger, seating and an undo
        of the current hand are unchanged; a record (``write_record``) is refused from then
        on, since the older hands are not here to write."""
        if type(keep) is not int or keep < 0:
            raise OptionError(f"keep must be a whole number of hands >= 0, not {shown(keep)}")
        drop = len(self.hands) - max(1, keep)
        if drop <= 0:
            return
        self.first_hand += drop
        del self.hands[:drop]
        del self.hand_players[:drop]
        # results[i] is hands[i]'s (only the last hand may be unfinished)
        del self.results[:min(drop, len(self.results))]
        # the events before the first kept hand's, and the entered hands' undo marks
        start = self.events.index(("hand", self.first_hand))
        del self.events[:start]
        for index in [i for i in self._entry_last_dealer if i < self.first_hand]:
            del self._entry_last_dealer[index]

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
        self._between_hands(f"join {shown(name)}")
        if self.rules.join_leave == "never":
            raise IllegalActionError("this rule set does not allow joining (join_leave='never')",
                                     reason="join_leave_not_allowed", phase="between hands")
        check_name(name, "between hands")
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
            # D21: the table mean in whole points, halves away from zero as everywhere (A-R7.6).
            score = round_half_away(mean, unit=Fraction(1))
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
        self._between_hands(f"let {shown(name)} leave")
        if self.rules.join_leave == "never":
            raise IllegalActionError("this rule set does not allow leaving (join_leave='never')",
                                     reason="join_leave_not_allowed", phase="between hands")
        if not isinstance(name, str) or name not in self.players:
            raise IllegalActionError(f"{shown(name)} is not seated; seated: "
                                     f"{', '.join(self.players)}", reason="not_seated",
                                     phase="between hands", legal=self.players)
        payout = self.ledger[name]
        self.payout_cents[name] = self._cents_of({name: payout})[name]
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

    def leave_cents(self, name: str) -> int:
        """The whole cents ``name`` would be paid leaving now, as :meth:`leave` pays them
        (A-R7.5, reconciled by A-R7.6); negative: they would pay."""
        if not isinstance(name, str) or name not in self.players:
            raise IllegalActionError(f"{shown(name)} is not seated; seated: "
                                     f"{', '.join(self.players)}", reason="not_seated",
                                     phase="between hands", legal=self.players)
        return self._cents_of({name: self.ledger[name]})[name]

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
        self.payout_cents.update(self._cents_of(final))
        self.payouts.update(final)
        self.finished = True
        self.events.append(("settle", ""))
        return final

    def settle_cents(self, amounts: Mapping[str, Fraction] | None = None) -> dict[str, int]:
        """Amounts in whole cents, by largest remainder (A-R7.6).

        By default the seated players' cents if the session settled now, so that with what the
        leavers were paid (:attr:`payout_cents`) the session's cents sum to its exact payouts
        rounded (0 in per_hand mode); once settled, the cents they were paid.  Given
        ``amounts``, those alone, keeping their own rounded total.
        """
        if amounts is not None:
            return round_cents(amounts, self.tie_order())
        if self.finished:
            return {n: self.payout_cents[n] for n in self.players}
        return self._cents_of(self.ledger)

    def _cents_of(self, group: Mapping[str, Fraction]) -> dict[str, int]:
        """Cents for a group being paid now (a leaver, or everyone seated at the settlement).

        A-R7.6 across a whole session: the group gets the change in the rounded total of
        everything paid, so every cent paid so far plus these sums to the exact total rounded
        (a leaver rounded alone would let the cents drift from the exact ledger).
        """
        paid = sum(self.payouts.values(), Fraction(0))
        before = sum(self.payout_cents.values())
        total = round_half_away(paid + sum(group.values(), Fraction(0))) - before
        return round_cents(group, self.tie_order(), total=total)

    def view(self, seat: int | None = None) -> View:
        if self.hand is None:
            raise IllegalActionError("no hand dealt yet", reason="no_hand", phase="setup")
        seated = self.hand_players[-1]
        ledger = self.ledger
        # A player of that hand who has left since is shown with what they were paid.
        money = [ledger[n] if n in ledger else self.payouts[n] for n in seated]
        cents = self.settle_cents()  # A-R7.6: the cents as they would be paid, reconciled
        return view_of(self.hand, seat, scores=[self.scores[n] for n in seated], names=seated,
                       stars=[self.stars[n] for n in seated], money=money,
                       money_cents=[cents[n] if n in cents else self.payout_cents[n]
                                    for n in seated])

    def __repr__(self) -> str:
        return (f"<MoneySession players={self.players} hands={len(self.results)} "
                f"finished={self.finished}>")
