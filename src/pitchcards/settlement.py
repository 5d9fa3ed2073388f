"""Settling up in cash: who pays whom, in the fewest payments (issue 16).

The money session says what each player is owed in whole cents (``MoneySession.settle_cents``,
``payout_cents``; A-R7.6 keeps them summing to the exact total).  At a real table that has to
become payments between people: :func:`fewest_payments` finds the fewest that settle everyone
(``Ann pays Bob $1.20``), and :func:`leaver_payments` who pays a player leaving early (A-R7.5).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from .errors import OptionError, shown
from .money import cents_text

__all__ = ["POT", "Payment", "fewest_payments", "leaver_payments"]

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
