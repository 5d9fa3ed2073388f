"""The score sheet of ``pitch score`` as text, and its save files (UI-free).

The sheet is one row per hand (who dealt, who bid what in which suit, made or set, each
player's change), a line for each join and leave (``Dee leaves: paid $1.20 — Ann pays Dee
$1.20``), then the scores, stars and money against the average.  Sheets are saved as JSON in
the data folder's ``scores`` folder after every change (atomically), and the last one still
open is offered again.
"""

from __future__ import annotations

from pathlib import Path

from ..cards import SUIT_SYMBOLS, SUITS
from ..explain import bid_word
from ..match import Match
from ..money import MoneySession, cents_text, dollars_text
from ..scoresheet import Leave, ScoreSheet
from ..settlement import Payment
from . import jsonfile
from .config import data_dir, new_file
from .words import sentence

__all__ = ["SavedSheet", "latest_open", "leave_text", "load_sheet", "new_sheet_path",
           "payments_text", "save_sheet", "sheet_lines"]

#: Columns: a name is cut to this many characters.
COLUMN = 7


def _columns(sheet: ScoreSheet) -> list[str]:
    """Who gets a column: every player who ever sat (money), or each side (a match)."""
    session = sheet.session
    if isinstance(session, MoneySession):
        return list(session.scores)
    return side_names(session)


def side_names(match: Match) -> list[str]:
    names = list(match.names)
    if match.rules.partnership_mode:
        return [f"{names[0]}&{names[2]}", f"{names[1]}&{names[3]}"]
    return names


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


def _lead(columns: list[str]) -> int:
    return LEAD if len(columns) <= DEALER_COLUMNS else LEAD - 6


def sheet_lines(sheet: ScoreSheet) -> list[str]:
    """The whole sheet, a line each: the header, the hands and events, the totals."""
    session = sheet.session
    columns = _columns(sheet)
    head = f"{'#':>2} {'deal':<5} " if len(columns) <= DEALER_COLUMNS else f"{'#':>2} "
    out = [f"{head}{'bid':<11}" + "".join(_cell(c) for c in columns)]
    leaves = iter(sheet.leaves)
    if isinstance(session, MoneySession):
        for kind, value in session.events:
            if kind == "hand":
                out.append(_hand_row(sheet, int(value), columns))
            elif kind == "join":
                out.append(f"   {sentence(str(value), 'join')} (score "
                           f"{session.scores[str(value)] - _dealt_since(session, str(value))})")
            elif kind == "leave":
                out.append("   " + leave_text(next(leaves)))
            elif kind == "settle":
                out.append("   settled")
    else:
        out += [_hand_row(sheet, i, columns) for i in range(len(session.hands))]
    out.append("-" * len(out[0]))
    out += _totals(sheet, columns)
    out.append("✓ made  ✗ set  ★ moon" + ("; money against the average, in dollars"
                                         if isinstance(session, MoneySession) else ""))
    return out


def _dealt_since(session: MoneySession, name: str) -> int:
    """What a player scored in the hands since they joined (to show the score they joined at)."""
    total = 0
    for result, seated in zip(session.results, session.hand_players, strict=False):
        if name in seated:
            total += result.deltas[seated.index(name)]
    return total


def _hand_row(sheet: ScoreSheet, index: int, columns: list[str]) -> str:
    session = sheet.session
    hand = session.hands[index]
    result = hand.result
    if isinstance(session, MoneySession):
        seated = session.hand_players[index]
        names = seated
    else:
        seated = _columns(sheet)
        names = list(session.names)
    start = (f"{index + 1:>2} {names[hand.dealer][:5]:<5} " if len(columns) <= DEALER_COLUMNS
             else f"{index + 1:>2} ")
    if result is None:
        return start + "(being played)"
    if result.thrown_in:
        return start + "all passed: thrown in"
    assert result.pitcher is not None
    suit = SUIT_SYMBOLS[SUITS.index(result.trump)] if result.trump else ""
    bid = f"{names[result.pitcher][:3]} {bid_word(session.rules, result.bid)}{suit}"
    mark = MARKS["moon" if result.moon else "made" if result.made else "set"]
    cells = []
    for column in columns:
        if column in seated:
            d = result.deltas[seated.index(column)]
            cells.append(_cell(f"{d:+d}" if d else "."))
        else:
            cells.append(_cell(""))
    return start + f"{bid:<9} {mark}" + "".join(cells)


def _totals(sheet: ScoreSheet, columns: list[str]) -> list[str]:
    session = sheet.session
    pad = " " * _lead(columns)
    if isinstance(session, Match):
        out = ["score" + pad[5:] + "".join(_cell(str(s)) for s in session.scores)]
        if session.winner is not None:
            out.append(f"{columns[session.winner]} won")
        return out
    scores = [_cell(str(session.scores[n])) for n in columns]
    stars = [_cell("★" * session.stars[n] if session.stars[n] <= 3 else f"{session.stars[n]}★")
             for n in columns]
    cents = session.settle_cents()
    money = [_cell(_money(cents[n]) if n in cents else
                   _money(session.payout_cents[n]) if n in session.payout_cents else "")
             for n in columns]
    out = ["score" + pad[5:] + "".join(scores)]
    if any(session.stars.values()):
        out.append("stars" + pad[5:] + "".join(stars))
    out.append(("paid $" if session.finished else "money $") + pad[7:] + "".join(money))
    if sheet.cash and not session.finished:
        # Part of it has changed hands already, paying those who left.
        owed = sheet.balances()
        out.append("to settle $" + pad[11:] + "".join(
            _cell(_money(owed[n]) if n in owed else "") for n in columns))
    return out


def leave_text(leave: Leave) -> str:
    """``Dee leaves: paid $1.20 — Ann pays Dee $1.20``."""
    paid = ("paid " + cents_text(leave.cents)[1:] if leave.cents >= 0
            else "pays " + cents_text(leave.cents)[1:])
    how = payments_text(list(leave.payments))
    return f"{sentence(leave.name, 'leave')}: {paid}" + (f" — {how}" if how else "")


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
