"""The score sheet of ``pitch score`` as text, and its save files (UI-free).

The sheet is one row per hand (who dealt, who bid what in which suit, made or set, each
player's change), a line for each join and leave (``Dee leaves: paid $1.20 — Ann pays Dee
$1.20``), then the scores, stars and money against the average: the core's rows
(:mod:`pitchcards.sheet_rows`, which the server's scorekeeper serialises) laid out as text.
Sheets are saved as JSON in the data folder's ``scores`` folder after every change
(atomically), and the last one still open is offered again.
"""

from __future__ import annotations

from pathlib import Path

from ..cards import SUIT_SYMBOLS, SUITS
from ..explain import bid_word
from ..money import cents_text, dollars_text
from ..scoresheet import Leave, ScoreSheet
from ..settlement import Payment
from ..sheet_rows import HandLine, JoinLine, LeaveLine, Side, columns, leave_sentence, standings
from ..sheet_rows import sheet_lines as rows_of
from . import jsonfile
from .config import data_dir, new_file
from .words import sentence

__all__ = ["SavedSheet", "latest_open", "leave_text", "load_sheet", "new_sheet_path",
           "payments_text", "save_sheet", "sheet_lines"]

#: Columns: a name is cut to this many characters.
COLUMN = 7


def _label(side: Side) -> str:
    """A column's head: a name, or a team's two ("Ann&Cy")."""
    return "&".join(side)


def _cell(text: str) -> str:
    """A right-aligned column: a name is cut to fit; numbers always fit."""
    return f"{text[:COLUMN - 1]:>{COLUMN}}"


def _money(cents: int) -> str:
    """Signed dollars without the sign of the dollar (the row says it): ``-1.14``."""
    return cents_text(cents).replace("$", "")


#: A hand's row ends its first part with one of these.
MARKS = {"made": "✓", "set": "✗", "moon": "★"}
#: The width of the first part of every row (hand number, dealer, bid, mark).
LEAD = 20
#: Beyond this many columns the dealer is left out of the rows, so that 8 players fit in 80
#: columns (the prompt still says who deals next).
DEALER_COLUMNS = 6


def _lead(sides: tuple[Side, ...]) -> int:
    return LEAD if len(sides) <= DEALER_COLUMNS else LEAD - 6


def sheet_lines(sheet: ScoreSheet) -> list[str]:
    """The whole sheet, a line each: the header, the hands and events, the totals (laid out
    from the core's rows, :mod:`pitchcards.sheet_rows`, as the server's page is)."""
    sides = columns(sheet)
    head = f"{'#':>2} {'deal':<5} " if len(sides) <= DEALER_COLUMNS else f"{'#':>2} "
    out = [f"{head}{'bid':<11}" + "".join(_cell(_label(c)) for c in sides)]
    for line in rows_of(sheet):
        if isinstance(line, HandLine):
            out.append(_hand_row(sheet, line, sides))
        elif isinstance(line, JoinLine):
            out.append(f"   {sentence(line.name, 'join')} (score {line.score})")
        elif isinstance(line, LeaveLine):
            out.append("   " + leave_text(line.leave))
        else:
            out.append("   settled")
    out.append("-" * len(out[0]))
    out += _totals(sheet, sides)
    out.append("✓ made  ✗ set  ★ moon" + ("; money against the average, in dollars"
                                         if sheet.money is not None else ""))
    return out


def _hand_row(sheet: ScoreSheet, line: HandLine, sides: tuple[Side, ...]) -> str:
    start = (f"{line.number:>2} {line.dealer[:5]:<5} " if len(sides) <= DEALER_COLUMNS
             else f"{line.number:>2} ")
    if line.outcome == "being played":
        return start + "(being played)"
    if line.bidder is None:
        return start + "all passed: thrown in"
    suit = SUIT_SYMBOLS[SUITS.index(line.trump)] if line.trump else ""
    bid = f"{line.bidder[:3]} {bid_word(sheet.session.rules, line.bid)}{suit}"
    cells = []
    for side in sides:
        d = line.change_of(side)
        cells.append(_cell("" if d is None else f"{d:+d}" if d else "."))
    return start + f"{bid:<9} {MARKS[line.outcome]}" + "".join(cells)


def _totals(sheet: ScoreSheet, sides: tuple[Side, ...]) -> list[str]:
    pad = " " * _lead(sides)
    table = standings(sheet)
    out = ["score" + pad[5:] + "".join(_cell(str(s.score)) for s in table)]
    money = sheet.money
    if money is None:
        out += [f"{_label(s.side)} won" for s in table if s.winner]
        return out
    if any(s.stars for s in table):
        out.append("stars" + pad[5:] + "".join(
            _cell("" if s.stars is None else "★" * s.stars if s.stars <= 3 else f"{s.stars}★")
            for s in table))
    out.append(("paid $" if money.finished else "money $") + pad[7:] + "".join(
        _cell("" if s.cents is None else _money(s.cents)) for s in table))
    if sheet.cash and not money.finished:
        # Part of it has changed hands already, paying those who left.
        out.append("to settle $" + pad[11:] + "".join(
            _cell("" if s.to_settle is None else _money(s.to_settle)) for s in table))
    return out


def leave_text(leave: Leave) -> str:
    """``Dee leaves: paid $1.20 — Ann pays Dee $1.20`` (the core's sentence, the verb agreeing
    with its subject)."""
    return leave_sentence(leave, sentence(leave.name, "leave"))


def payments_text(payments: list[Payment]) -> str:
    """``Ann pays Bob $1.20, Cy pays Bob $0.35``."""
    return ", ".join(p.text() for p in payments)


def money_line(sheet: ScoreSheet) -> str:
    """The title's words on the money: ``$0.10 a point, $1 a moon``."""
    rules = sheet.session.rules
    if rules.money == "none":
        return f"to {rules.target}" if rules.target is not None else "no target"
    stake = dollars_text(rules.stake_per_point)[1:]
    moon = dollars_text(rules.moon_payment)[1:] if rules.moon != "none" else ""
    return f"{stake} a point" + (f", {moon} a moon" if moon else "")


# ---------------------------------------------------------------------------------- saving
class SavedSheet:
    """A sheet and the file it is saved in."""

    def __init__(self, sheet: ScoreSheet, path: Path) -> None:
        self.sheet = sheet
        self.path = path

    def save(self) -> None:
        save_sheet(self.path, self.sheet)


def scores_dir() -> Path:
    return data_dir() / "scores"


def new_sheet_path() -> Path:
    """A new file for a sheet: ``scores/STAMP-sheet.json``, never one that exists."""
    return new_file("scores", "sheet", ".json")


def save_sheet(path: Path, sheet: ScoreSheet) -> None:
    """Save at once, atomically (:class:`~pitchcards.storage.SaveError` if it cannot)."""
    data = sheet.to_json()
    data["open"] = not sheet.session.is_over
    data["players"] = list(sheet.session.names)
    data["hands"] = len(sheet.session.results)
    jsonfile.save(path, data)


def load_sheet(path: Path) -> ScoreSheet:
    """The sheet saved in ``path`` (a damaged file is moved aside and refused, by
    :func:`~.jsonfile.load`; the record's own errors if it does not replay)."""
    data, problem = jsonfile.load(path)
    if problem is not None:
        raise OSError(problem)
    if not data:
        raise OSError(f"{path}: no such score sheet")
    return ScoreSheet.from_json(data)


def latest_open() -> tuple[Path, list[str], int] | None:
    """The newest sheet still open: its file, players and hands so far."""
    folder = scores_dir()
    if not folder.is_dir():
        return None
    for path in sorted(folder.glob("*.json"), reverse=True):
        data, problem = jsonfile.load(path)
        if problem is None and data.get("open") is True:
            players = [str(p) for p in data.get("players", [])]
            hands = data.get("hands")
            return path, players, hands if isinstance(hands, int) else 0
    return None
