"""Settling up in cash: who pays whom, in the fewest payments (issue 16).

The money session says what each player is owed in whole cents (``MoneySession.settle_cents``,
``payout_cents``; A-R7.6 keeps them summing to the exact total).  At a real table that has to
become payments between people: :func:`fewest_payments` finds the fewest that settle everyone
(``Ann pays Bob $1.20``), and :func:`leaver_payments` who pays a player leaving early (A-R7.5).
A :class:`Cashbook` keeps the cash handed over as players leave a money session, so that the
score sheet (``ScoreSheet``) and the server's money tables say the same payments.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from .errors import OptionError, shown
from .money import cents_text

if TYPE_CHECKING:
    from .money import MoneySession

__all__ = ["POT", "Cashbook", "Leave", "Payment", "fewest_payments", "leaver_payments"]

#: The party that takes or gives what the players' balances leave over (snapshot mode is not
#: zero-sum once someone has left, A-R7.4 / E28).
POT = "the pot"
#: Beyond this many parties the exact search (2^n steps) gives way to the greedy matching.
EXACT_LIMIT = 16


@dataclasses.dataclass(frozen=True, slots=True)
class Payment:
    """``payer`` hands ``payee`` ``cents`` (> 0)."""

    payer: str
    payee: str
    cents: int

    def text(self) -> str:
        """``Ann pays Bob $1.20``."""
        return f"{self.payer} pays {self.payee} {cents_text(self.cents)[1:]}"

    def to_dict(self) -> dict[str, str | int]:
        return {"payer": self.payer, "payee": self.payee, "cents": self.cents}


@dataclasses.dataclass(frozen=True, slots=True)
class Leave:
    """A player who left with a payout of ``cents`` (negative: they paid), settled by these
    payments (less whatever they had paid or received when others left before them)."""

    name: str
    cents: int
    payments: tuple[Payment, ...]

    def to_dict(self) -> dict[str, object]:
        return {"name": self.name, "cents": self.cents,
                "payments": [p.to_dict() for p in self.payments]}


class Cashbook:
    """The cash handed over at a money session: who paid each leaver (A-R7.5), and what each
    player seated is still owed, so the settlement is the fewest payments left."""

    def __init__(self) -> None:
        #: Cents each player has received (negative: paid) in the payments made so far.
        self.cash: dict[str, int] = {}
        #: The players who left, in order, with what they were paid and by whom.
        self.leaves: list[Leave] = []

    def balances(self, session: MoneySession) -> dict[str, int]:
        """Cents each seated player is still owed (negative: owes), were the session settled
        now (or as it was settled), less what they paid or received when others left."""
        cents = session.settle_cents()
        return {n: cents[n] - self.cash.get(n, 0) for n in session.players}

    def settlement(self, session: MoneySession) -> list[Payment]:
        """The fewest payments that settle everyone seated, now or at the settlement."""
        return fewest_payments(self.balances(session), session.tie_order())

    def preview_leave(self, session: MoneySession, name: str) -> Leave:
        """What :meth:`paid_out` would say if ``name`` left now (nothing changes).  Between
        hands exactly that (the leave is tried on a copy); during a hand, the payout as the
        session stands (the hand in play changes it) and who would pay it."""
        if not session.in_hand:
            trial, book = copy.deepcopy((session, self))
            trial.leave(name)
            return book.paid_out(trial, name)
        cents = session.leave_cents(name)
        others = {n: v for n, v in self.balances(session).items() if n != name}
        return Leave(name, cents, tuple(leaver_payments(
            name, cents - self.cash.get(name, 0), others, session.tie_order())))

    def paid_out(self, session: MoneySession, name: str) -> Leave:
        """``name`` has just left ``session`` (A-R7.5): who pays them, or whom they pay."""
        cents = session.payout_cents[name]
        # What is still owed: a leaver who paid or received cash when others left has had part
        # of the payout already.
        due = cents - self.cash.get(name, 0)
        payments = tuple(leaver_payments(name, due, self.balances(session),
                                         session.tie_order()))
        for p in payments:
            self.cash[p.payer] = self.cash.get(p.payer, 0) - p.cents
            self.cash[p.payee] = self.cash.get(p.payee, 0) + p.cents
        leave = Leave(name, cents, payments)
        self.leaves.append(leave)
        return leave


def fewest_payments(balances: Mapping[str, int],
                    order: Sequence[str] | None = None) -> list[Payment]:
    """The fewest payments that bring every balance to zero.

    ``balances``: whole cents each party is owed (positive) or owes (negative); a nonzero
    total is taken up by :data:`POT`.  The fewest is the number of parties with a balance less
    the largest number of groups the balances split into that each sum to zero; each group
    settles with the largest debtor paying the largest creditor in turn.  Ties follow
    ``order`` (default: the balances' own order), so the answer is the same every time.
    """
    owed = _checked(balances)
    total = sum(owed.values())
    if total:
        owed[POT] = owed.get(POT, 0) - total
    names = [n for n in (list(order or ()) + list(owed)) if owed.get(n)]
    names = list(dict.fromkeys(names))
    payments: list[Payment] = []
    for group in _zero_sum_groups([owed[n] for n in names]):
        payments += _settle_group({names[i]: owed[names[i]] for i in group}, names)
    return payments


def leaver_payments(leaver: str, cents: int, balances: Mapping[str, int],
                    order: Sequence[str] | None = None) -> list[Payment]:
    """Who settles with a player leaving with ``cents`` (A-R7.5): those who owe the most pay a
    leaver who is owed; a leaver who owes pays those owed the most.  ``balances``: what each
    player staying is owed now; what they cannot cover is :data:`POT`'s."""
    owed = _checked(balances)
    if type(cents) is not int:
        raise OptionError(f"a leaver's payout is whole cents (an int), not {shown(cents)}")
    rank = list(dict.fromkeys(list(order or ()) + list(owed)))
    sign = 1 if cents > 0 else -1
    # The payers: the most in debt first (paying a leaver owed), or the most owed first.
    others = sorted((n for n in rank if sign * owed.get(n, 0) < 0),
                    key=lambda n: (sign * owed[n], rank.index(n)))
    left, payments = abs(cents), []
    for name in [*others, POT]:
        if not left:
            break
        share = left if name == POT else min(left, abs(owed[name]))
        left -= share
        payments.append(Payment(name, leaver, share) if sign > 0 else
                        Payment(leaver, name, share))
    return payments


def _checked(balances: object) -> dict[str, int]:
    if not isinstance(balances, Mapping) or not all(
            isinstance(n, str) and type(v) is int for n, v in balances.items()):
        raise OptionError(f"balances must map names to whole cents (ints), not {shown(balances)}")
    return dict(balances)


def _zero_sum_groups(values: list[int]) -> list[list[int]]:
    """The indices of ``values`` (summing to 0) split into as many zero-sum groups as can be.

    Order the parties so that as many prefixes as possible sum to zero: ``best[mask]`` is that
    count for the parties in ``mask`` (a prefix of some order), ``last[mask]`` the party placed
    last.  Exact for up to :data:`EXACT_LIMIT` parties, one group beyond.
    """
    n = len(values)
    if n == 0:
        return []
    if n > EXACT_LIMIT:
        return [list(range(n))]
    full = (1 << n) - 1
    sums = [0] * (full + 1)
    best = [0] * (full + 1)
    last = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = (mask & -mask).bit_length() - 1
        sums[mask] = sums[mask & (mask - 1)] + values[low]
        top = -1
        for i in range(n):
            if mask >> i & 1 and best[mask ^ (1 << i)] > top:
                top, last[mask] = best[mask ^ (1 << i)], i
        best[mask] = top + (sums[mask] == 0)
    groups: list[list[int]] = []
    mask, current = full, []
    while mask:
        i = last[mask]
        current.append(i)
        mask ^= 1 << i
        if sums[mask] == 0:  # the parties left sum to zero: the current group is closed
            groups.append(sorted(current))
            current = []
    return groups[::-1]


def _settle_group(group: dict[str, int], order: list[str]) -> list[Payment]:
    """Settle a zero-sum group: the largest debtor pays the largest creditor, until square."""
    left = dict(group)
    payments = []
    while any(left.values()):
        payer = min(left, key=lambda n: (left[n], order.index(n)))
        payee = max(left, key=lambda n: (left[n], -order.index(n)))
        amount = min(-left[payer], left[payee])
        payments.append(Payment(payer, payee, amount))
        left[payer] += amount
        left[payee] -= amount
    return payments
