"""A real table's score sheet: hands entered by their outcome, players coming and going, and the
cash that settles it (issue 16).

:class:`ScoreSheet` wraps a :class:`~pitchcards.MoneySession` (or a :class:`~pitchcards.Match`,
for a table playing to a target) and adds what a table with real money needs: who hands a
leaving player their payout (:func:`~pitchcards.settlement.leaver_payments`) and, at the end,
the fewest payments that settle everyone (:func:`~pitchcards.settlement.fewest_payments`).

It is data a server can keep: its JSON is its game record (docs/notation.md, hands as
``outcome`` lines), and everything else — scores, stars, the ledger, the payments made when
players left — is rebuilt by replaying it.  Undo takes back the last thing entered (a hand, a
join, a leave or the settlement) by replaying the record without it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .errors import DataError, IllegalActionError, shown
from .match import Match
from .money import MoneySession
from .notation import EventRecord, HandRecord, Record, parse_record, write_record
from .notation.replay import replay_each
from .outcome import EnteredHand, Outcome
from .rules import RuleSet
from .session import GameSession
from .session_kinds import new_session
from .settlement import Cashbook, Leave, Payment

__all__ = ["FORMAT", "Leave", "ScoreSheet"]

#: The ``format`` of a score sheet's JSON.
FORMAT = "pitchcards-scoresheet"
VERSION = 1


class ScoreSheet:
    """The score of a table playing with real cards, and the cash that settles it."""

    def __init__(self, session: GameSession) -> None:
        if not isinstance(session, MoneySession | Match):
            raise IllegalActionError(f"a score sheet keeps a MoneySession or a Match, not "
                                     f"{shown(session)}", reason="bad_setup", phase="setup")
        if session.rules.is_ten_point or session.rules.points_total != 4:
            raise IllegalActionError(
                f"{session.rules.name!r} is a ten-point game (T7): a score sheet enters hands by "
                "who took High, Low, Jack and Game, the four-point game's points; play it "
                "instead", reason="bad_setup", phase="setup")
        self.session: MoneySession | Match = session
        #: the cash handed over as players left (settlement.Cashbook)
        self.book = Cashbook()

    @property
    def cash(self) -> dict[str, int]:
        """Cents each player has received (negative: paid) in the payments made so far."""
        return self.book.cash

    @property
    def leaves(self) -> list[Leave]:
        """The players who left, in order, with what they were paid and by whom."""
        return self.book.leaves

    @classmethod
    def new(cls, rules: RuleSet, names: Sequence[str], dealer: int = 0) -> ScoreSheet:
        """A fresh sheet: a money session when the rules play for money, else a match."""
        return cls(new_session(rules, names, dealer=dealer))

    # ------------------------------------------------------------------ entering
    @property
    def money(self) -> MoneySession | None:
        """The money session, or None for a match played to a target."""
        return self.session if isinstance(self.session, MoneySession) else None

    def enter(self, outcome: Outcome) -> EnteredHand:
        """Enter the next hand by its outcome (``MoneySession.enter`` / ``Match.enter``)."""
        return self.session.enter(outcome)

    def join(self, name: str) -> None:
        """A player sits down between hands (A-R8.3)."""
        self._money("join").join(name)

    def leave(self, name: str) -> Leave:
        """A player leaves between hands and is paid out at once (A-R7.5): by whom."""
        session = self._money("leave")
        session.leave(name)
        return self._paid_out(name)

    def settle(self) -> list[Payment]:
        """End the session; the fewest payments that settle everyone."""
        self._money("settle").settle()
        return self.settlement()

    def _money(self, what: str) -> MoneySession:
        if self.money is None:
            raise IllegalActionError(f"a match played to a target has no money: nobody can "
                                     f"{what}", reason="join_leave_not_allowed",
                                     phase="between hands")
        return self.money

    def _paid_out(self, name: str) -> Leave:
        return self.book.paid_out(self._money("leave"), name)

    # ------------------------------------------------------------------ the money
    def balances(self) -> dict[str, int]:
        """Cents each seated player is still owed (negative: owes), were the session settled
        now (or as it was settled), less what they paid or received when others left."""
        return self.book.balances(self._money("settle"))

    def settlement(self) -> list[Payment]:
        """The fewest payments that settle everyone seated, now or at the settlement."""
        return self.book.settlement(self._money("settle"))

    # ------------------------------------------------------------------ undo, JSON
    def record(self) -> str:
        """The sheet's game record (docs/notation.md)."""
        return write_record(self.session)

    def undo(self) -> str:
        """Take back the last thing entered (a hand, a join, a leave or the settlement), by
        replaying the record without it; what was taken back, in words."""
        record = parse_record(self.record())
        if not record.items:
            raise IllegalActionError("nothing to undo: nothing has been entered yet",
                                     reason="nothing_to_undo", phase="between hands")
        last = record.items.pop()
        sheet = _replayed(record)
        if isinstance(last, EventRecord) and last.kind == "settle" and sheet.session.is_over:
            last = record.items.pop()  # a leave that left one player settled: undo it too
            sheet = _replayed(record)
        self.session, self.book = sheet.session, sheet.book
        if isinstance(last, HandRecord):
            return f"hand {last.number}"
        return f"{last.name} {last.kind}s" if last.name else "the settlement"

    def to_json(self) -> dict[str, Any]:
        """The sheet as JSON: its record."""
        return {"format": FORMAT, "version": VERSION, "record": self.record()}

    @classmethod
    def from_json(cls, data: object) -> ScoreSheet:
        """The sheet :meth:`to_json` gave (:class:`DataError` if it is not one; the record's
        own errors if it does not replay)."""
        if (not isinstance(data, dict) or data.get("format") != FORMAT
                or data.get("version") != VERSION or not isinstance(data.get("record"), str)):
            raise DataError(f"not a {FORMAT} version {VERSION}: {shown(data)}")
        return cls.from_record(data["record"])

    @classmethod
    def from_record(cls, text: str) -> ScoreSheet:
        """The sheet of a game record, replayed (payments at each leave included)."""
        return _replayed(parse_record(text))


def _replayed(record: Record) -> ScoreSheet:
    """Replay a parsed record into a sheet, making each leaver's payments as they happened."""
    sheets: list[ScoreSheet] = []

    def seen(game: Match | MoneySession, item: HandRecord | EventRecord) -> None:
        if not sheets:
            sheets.append(ScoreSheet(game))
        if isinstance(item, EventRecord) and item.kind == "leave" and item.name:
            sheets[0]._paid_out(item.name)

    game = replay_each(record, seen)
    return sheets[0] if sheets else ScoreSheet(game)

