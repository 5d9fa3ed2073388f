"""The hand-by-hand score history (issue 10, item 4) and the statistics page, as text.

Rows are collected from the Table's :class:`~pitchcards.events.HandScored` events as hands end
(:class:`HandRow`: the result, every side's score after it and, at money tables, your money
after it); a resumed game's earlier hands are rebuilt from its results, without the money
(the record keeps the ledger's end, not each step).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from rich.text import Text

from ..explain import bid_word
from ..scoring import HandResult
from .controller import money_text
from .game import TableGame
from .stats import StatsFile
from .text import suit_text
from .words import HUMAN, count

__all__ = ["HandRow", "earlier_rows", "history_text", "stats_text"]


@dataclass(frozen=True)
class HandRow:
    """One finished hand: its number (from 1), the result, the seating it was played in, each
    side's score after it, and your money after it (money tables; None: not known)."""

    number: int
    result: HandResult
    names: tuple[str, ...]
    scores: tuple[int, ...]
    money: Fraction | None = None


def earlier_rows(ctl: TableGame) -> list[HandRow]:
    """Rows for hands finished before this screen saw them (a resumed game): running scores
    from the results' deltas; at money tables by player, in the seating of each hand."""
    rows: list[HandRow] = []
    session = ctl.session
    if session is not None:
        running: dict[str, int] = {}
        for number, (result, names) in enumerate(zip(session.results, session.hand_players,
                                                     strict=False), 1):
            for name, delta in zip(names, result.deltas, strict=False):
                running[name] = running.get(name, 0) + delta
            rows.append(HandRow(number, result, tuple(names),
                                tuple(running[n] for n in names)))
        return rows
    totals: list[int] = []
    for number, result in enumerate(ctl.results, 1):
        totals = [a + b for a, b in zip(totals or [0] * len(result.deltas), result.deltas,
                                        strict=True)]
        rows.append(HandRow(number, result, tuple(ctl.seating), tuple(totals)))
    return rows


def _who(ctl: TableGame, row: HandRow, side: int | None) -> str:
    if side is None:
        return "-"
    if ctl.rules.partnership_mode:  # two teams: us and opp; three (TT1): the others by number
        if side == ctl.my_side:
            return "us"
        return "opp" if ctl.rules.teams == 2 else f"T{side + 1}"
    return row.names[side] if side < len(row.names) else f"seat {side}"


#: T7: the score sheet's heads for the ten-point family's extra points.
_EXTRA_HEADS = {"Off-jack": "OJ", "High joker": "HJ", "Low joker": "LJ", "Three": "3"}


def _extra_names(rows: list[HandRow]) -> list[str]:
    """The extra points the hands were scored with (T7; none in the four-point game)."""
    for row in rows:
        if row.result.extra:
            return [name for name, _, _ in row.result.extra]
    return []


def history_text(ctl: TableGame, rows: list[HandRow]) -> Text:
    """A table, one line per hand: the contract and whether it was made or set, who took High,
    Low, Jack and Game, then the score of each side after the hand (your money too at money
    tables).  Eight players and the money fit the 74 columns of the page."""
    out = Text()
    if not rows:
        out.append("No hand has been scored yet.", style="dim")
        return out
    last = rows[-1]
    if ctl.money:
        heads = list(last.names)
    elif ctl.rules.partnership_mode:
        heads = [_who(ctl, last, side) for side in range(len(last.scores))]
    else:
        heads = [ctl.side_name(side) for side in range(len(last.scores))]
    extras = _extra_names(rows)
    width = 5 if len(heads) <= 6 and not extras else 4  # a score column
    out.append(f"{'#':>2} {'contract':<10}{'':<5}{'H':<4}{'L':<4}{'J':<4}{'G':<4}", style="bold")
    out.append("".join(f"{_EXTRA_HEADS.get(name, name[:2]):<4}" for name in extras),
               style="bold")
    out.append("".join(f"{h.split(' & ')[0][:width - 1]:>{width}}" for h in heads),
               style="bold")
    if ctl.money:
        out.append(f"{'your $':>8}", style="bold")
    out.append("\n")
    for row in rows:
        r = row.result
        if r.thrown_in or r.pitcher is None:
            contract, made = "thrown in", ""
        else:
            bidder = row.names[r.pitcher] if r.pitcher < len(row.names) else "?"
            trump = suit_text(r.trump).plain if r.trump else ""
            contract = f"{bidder[:3]} {bid_word(ctl.rules, r.bid)}{trump}"
            made = "made" if r.made else "set"
        out.append(f"{row.number:>2} {contract[:9]:<10}")
        out.append(f"{made:<5}", style="green" if made == "made" else "red")
        for side in (r.high, r.low, r.jack, r.game):
            out.append(f"{_who(ctl, row, side)[:3]:<4}")
        took = {name: side for name, side, _ in r.extra}
        for name in extras:
            out.append(f"{_who(ctl, row, took.get(name))[:3]:<4}")
        if ctl.money and row.names != last.names:
            by_name = dict(zip(row.names, row.scores, strict=False))
            cells = [by_name.get(n) for n in last.names]
        else:
            cells = list(row.scores)
        out.append("".join(f"{'-' if v is None else v:>{width}}" for v in cells))
        if ctl.money:
            out.append(f"{money_text(row.money) if row.money is not None else '-':>8}",
                       style="bold")
        out.append("\n")
    out.append("\nH L J G: who took High, Low, Jack and Game", style="dim")
    if extras:  # T7
        out.append("; " + ", ".join(f"{_EXTRA_HEADS.get(n, n[:2])} {n.lower()}"
                                    for n in extras), style="dim")
    if ctl.rules.partnership_mode:
        out.append(" (us: your team, opp: the other)" if ctl.rules.teams == 2
                   else " (us: your team, T1-T3: the teams by number)", style="dim")
    out.append(f"; the scores after each hand. {count(len(rows), 'hand')}.", style="dim")
    return out


def stats_text(stats: StatsFile, note: str | None = None) -> Text:
    """Your statistics per variant: matches and win rate, contracts bid and made, average
    points per hand, moons; and any problem with the statistics file."""
    out = Text()
    problem = note or stats.problem or stats.save_error
    if problem:
        out.append(problem + "\n\n", style="yellow")
    if not stats.variants:
        out.append("No hands played yet: statistics start with your first scored hand.\n",
                   style="dim")
        out.append(f"\nKept in {stats.path}", style="dim")
        return out
    out.append(f"{'variant':<17}{'matches':>8}{'won':>6}{'hands':>7}{'pts/hand':>9}"
               f"{'bids':>6}{'made':>6}{'moons':>6}\n", style="bold")
    for name, s in sorted(stats.variants.items()):
        rate = f"{100 * s.wins / s.matches:.0f}%" if s.matches else "-"
        avg = f"{s.points / s.hands:+.2f}" if s.hands else "-"
        made = f"{100 * s.made / s.bids:.0f}%" if s.bids else "-"
        out.append(f"{name[:16]:<17}{s.matches:>8}{rate:>6}{s.hands:>7}{avg:>9}{s.bids:>6}"
                   f"{made:>6}{s.moons:>6}\n")
    out.append(f"\nwon: matches won (money: sessions paid out above zero); bids: contracts "
               f"{HUMAN.lower()} bid, made: of them.\nKept in {stats.path}", style="dim")
    return out
