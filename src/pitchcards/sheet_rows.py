"""The rows of a real table's score sheet: one model that every face lays out its own way.

A :class:`~pitchcards.scoresheet.ScoreSheet` is read here into plain data — its columns (each
player who ever sat, or each side), one row per hand, join, leave and settlement in the order
they happened, and the standings — so that ``pitch score`` in the terminal
(:mod:`pitchcards.tui.score_sheet`) formats them as text and the server's scorekeeper
(:mod:`pitchcards.server.scores`) serialises them as JSON, and neither works them out again.
Standard library only; nothing here is worded for a screen but the sides' names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .money import cents_text
from .scoresheet import Leave, ScoreSheet

if TYPE_CHECKING:
    from .rules import RuleSet

__all__ = ["HandLine", "JoinLine", "LeaveLine", "SettleLine", "SheetLine", "Side", "Standing",
           "columns", "hand_line", "leave_sentence", "sheet_lines", "standings"]

#: A column of the sheet: one player, or a team's two players (partnerships, A-R2.2).
Side = tuple[str, ...]
#: The points of a hand, in the order a row says who took them.
POINTS = ("high", "low", "jack", "game")


@dataclass(frozen=True, slots=True)
class HandLine:
    """One hand: who dealt, who bid what in which suit, how it ended, who took each point and
    each side's change."""

    number: int                 #: counted from 1
    dealer: str
    bidder: str | None          #: the pitcher; None: everyone passed and it was thrown in
    bid: int | str | None       #: the contract: 1..4, "moon", 0 (no contract), None (none)
    trump: str | None
    outcome: str                #: "made", "set", "moon" or "thrown in"
    sides: tuple[Side, ...]     #: who scored in this hand, in seat order
    changes: tuple[int, ...]    #: each of those sides' change, in the same order
    takers: dict[str, Side | None]  #: high, low, jack, game -> the side that took it
    #: call-your-partner (CP3, CP5): the card called, as text ("AS"), else None
    called: str | None = None
    #: the player who held it (the bidder: alone by its own card); None: nobody was dealt it
    partner: str | None = None

    def change_of(self, side: Side) -> int | None:
        """A column's change in this hand; None if it did not sit in it."""
        return self.changes[self.sides.index(side)] if side in self.sides else None


@dataclass(frozen=True, slots=True)
class JoinLine:
    """A player sat down (money, A-R8.3), at this score."""

    name: str
    score: int


@dataclass(frozen=True, slots=True)
class LeaveLine:
    """A player left and was paid out (money, A-R7.5), by these payments."""

    leave: Leave


@dataclass(frozen=True, slots=True)
class SettleLine:
    """The session was settled (money)."""


SheetLine = HandLine | JoinLine | LeaveLine | SettleLine


@dataclass(frozen=True, slots=True)
class Standing:
    """A column's totals: the score; in the money game its stars and cents."""

    side: Side
    score: int
    seated: bool = True         #: (money) still at the table
    winner: bool = False        #: (a match) the side that won it
    stars: int | None = None    #: (money) moons made
    cents: int | None = None    #: (money) against the average: owed now, or paid out
    to_settle: int | None = None  #: (money) still to change hands, after what leavers took


def leave_sentence(leave: Leave, subject: str | None = None) -> str:
    """A leave in words, as every face writes it: ``Dee leaves: paid $1.20 — Ann pays Dee
    $1.20`` (A-R7.5; "pays" when the leaver owes).  ``subject`` replaces ``Dee leaves`` (the
    terminal's verbs agree with "You")."""
    amount = cents_text(leave.cents)[1:]
    paid = f"paid {amount}" if leave.cents >= 0 else f"pays {amount}"
    how = ", ".join(p.text() for p in leave.payments)
    who = subject if subject is not None else f"{leave.name} leaves"
    return f"{who}: {paid}" + (f" — {how}" if how else "")


def columns(sheet: ScoreSheet) -> tuple[Side, ...]:
    """Who gets a column: everyone who ever sat (money), or each side (a match)."""
    session = sheet.session
    if sheet.money is not None:
        return tuple((name,) for name in sheet.money.scores)
    return side_members(session.names, session.rules)


def side_members(names: Sequence[str], rules: RuleSet) -> tuple[Side, ...]:
    """Each scoring side's players in seat order: a team's partners (``RuleSet.side_seats``:
    B-R1.3, TT1), or one player each."""
    return tuple(tuple(names[s] for s in seats) for seats in rules.side_seats(len(names)))


def sheet_lines(sheet: ScoreSheet) -> list[SheetLine]:
    """The sheet's rows in the order they happened (a match has hands only)."""
    money = sheet.money
    if money is None:
        return [hand_line(sheet, i) for i in range(len(sheet.session.hands))]
    out: list[SheetLine] = []
    leaves = iter(sheet.leaves)
    for kind, value in money.events:
        if kind == "hand":
            out.append(hand_line(sheet, int(value)))
        elif kind == "join":
            out.append(JoinLine(str(value), _joined_at(sheet, str(value))))
        elif kind == "leave":
            out.append(LeaveLine(next(leaves)))
        elif kind == "settle":
            out.append(SettleLine())
    return out


def _joined_at(sheet: ScoreSheet, name: str) -> int:
    """The score a player joined at: their score less what they scored since."""
    money = sheet.money
    assert money is not None
    since = sum(result.deltas[seated.index(name)] for result, seated in
                zip(money.results, money.hand_players, strict=False) if name in seated)
    return money.scores[name] - since


def hand_line(sheet: ScoreSheet, index: int = -1) -> HandLine:
    """Hand ``index`` (the last by default; it may still be in play: then it has no result and
    says so)."""
    if index < 0:
        index += len(sheet.session.hands)
    session, money = sheet.session, sheet.money
    hand = session.hands[index]
    names = money.hand_players[index] if money is not None else list(session.names)
    sides = (tuple((n,) for n in names) if money is not None
             else side_members(names, session.rules))
    result = hand.result
    if result is None:
        return HandLine(index + 1, names[hand.dealer], None, None, None, "being played", sides,
                        (), {})
    if result.thrown_in:
        return HandLine(index + 1, names[hand.dealer], None, None, None, "thrown in", sides,
                        (), {})
    assert result.pitcher is not None
    taken = (result.high, result.low, result.jack, result.game)
    partner = None if result.partner is None else names[result.partner]
    took = list(sides)
    if result.called is not None and partner not in (None, names[result.pitcher]):
        # CP6: a point the contracting side took is the bidder's and the partner's
        took[result.pitcher] = (names[result.pitcher], str(partner))
    return HandLine(
        number=index + 1, dealer=names[hand.dealer], bidder=names[result.pitcher],
        bid=result.bid, trump=result.trump,
        outcome="moon" if result.moon else "made" if result.made else "set",
        sides=sides, changes=tuple(result.deltas),
        takers={point: None if side is None else took[side]
                for point, side in zip(POINTS, taken, strict=True)},
        called=result.called, partner=partner)


def standings(sheet: ScoreSheet) -> list[Standing]:
    """Each column's totals, in the columns' order."""
    session, money = sheet.session, sheet.money
    if money is None:
        return [Standing(side, score, winner=session.winner == i)
                for i, (side, score) in enumerate(zip(columns(sheet), session.side_scores(),
                                                      strict=True))]
    cents = money.settle_cents()
    owed = sheet.balances() if sheet.cash and not money.finished else {}
    out = []
    for name in money.scores:
        paid = cents.get(name, money.payout_cents.get(name))
        out.append(Standing((name,), money.scores[name], seated=name in money.players,
                            stars=money.stars[name], cents=paid, to_settle=owed.get(name)))
    return out
