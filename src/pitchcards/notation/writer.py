"""Writing a record: a :class:`Match` or :class:`MoneySession` as text."""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import format_cards
from ..hand import Hand
from ..match import Match
from ..money import MoneySession
from ..rules import RuleSet
from .format import (
    FORMAT_NAME,
    FORMAT_VERSION,
    _format_result,
    _format_value,
    _quote,
    result_fields,
)


# ---------------------------------------------------------------------------------- writing
def write_record(game: Match | MoneySession) -> str:
    """The record of a match or money session, finished or not (see ``docs/notation.md``)."""
    if isinstance(game, MoneySession):
        return _write_money(game)
    if isinstance(game, Match):
        return _write_match(game)
    raise TypeError(f"write_record needs a Match or a MoneySession, not {type(game).__name__}")


def _write_header(out: list[str], kind: str, rules: RuleSet) -> None:
    out.append(f"{FORMAT_NAME} {FORMAT_VERSION}")
    out.append(f"game {kind}")
    out.append(f"variant {_quote(rules.name)}")
    for name, value in rules.changes().items():
        out.append(f"option {name} {_format_value(value)}")


def _write_match(m: Match) -> str:
    out: list[str] = []
    _write_header(out, "match", m.rules)
    out.append(f"players {m.players}")
    out.append(f"dealer {m.first_dealer}")
    if any(m.starting_scores):
        out.append("scores " + " ".join(str(s) for s in m.starting_scores))
    if m.seed is not None:
        out.append(f"seed {m.seed}")
    running = list(m.starting_scores)
    for number, hand in enumerate(m.hands, 1):
        _write_hand(out, number, hand, None)
        if hand.result is not None:
            for side, d in enumerate(hand.result.deltas):
                running[side] += d
            out.append("total " + " ".join(str(s) for s in running))
    if m.winner is not None:
        out.append("")
        out.append(f"winner {m.winner}")
    return "\n".join(out) + "\n"


def _write_money(s: MoneySession) -> str:
    out: list[str] = []
    _write_header(out, "money", s.rules)
    start = [str(v) for k, v in s.events if k == "player"]
    dealer = next(v for k, v in s.events if k == "dealer")
    out.append("players " + " ".join(_quote(n) for n in start))
    out.append(f"dealer {dealer}")
    if s.seed is not None:
        out.append(f"seed {s.seed}")
    # Each player's score before their first hand (0, or the table average for a joiner in
    # snapshot mode): the final score less every delta they were dealt.
    base = dict(s.scores)
    for hand, seated in zip(s.hands, s.hand_players, strict=True):
        if hand.result is not None:
            for name, d in zip(seated, hand.result.deltas, strict=True):
                base[name] -= d
    running = {name: base[name] for name in start}
    for kind, value in s.events:
        if kind == "hand":
            index = int(value)
            hand, seated = s.hands[index], s.hand_players[index]
            _write_hand(out, index + 1, hand, seated)
            if hand.result is not None:
                for name, d in zip(seated, hand.result.deltas, strict=True):
                    running[name] += d
                out.append("total " + " ".join(str(running[n]) for n in seated))
        elif kind in ("join", "leave"):
            name = str(value)
            out.append("")
            out.append(f"{kind} {_quote(name)}")
            if kind == "join":
                running[name] = base[name]
            else:
                out.append(f"payout {_quote(name)} {s.payouts[name]}")
        elif kind == "settle":
            out.append("")
            out.append("settle")
            for name in s.players:
                out.append(f"payout {_quote(name)} {s.payouts[name]}")
    return "\n".join(out) + "\n"


def _write_hand(out: list[str], number: int, hand: Hand, seated: Sequence[str] | None) -> None:
    out.append("")
    out.append(f"hand {number} dealer {hand.dealer}")
    if seated is not None:
        out.append("seats " + " ".join(_quote(n) for n in seated))
    for seat, mask in enumerate(hand.dealt):
        out.append(f"deal {seat} {format_cards(mask)}")
    # A trick ends with its last card: note its winner in a comment after that card.
    ends = {cards[-1]: (k, winner)
            for k, (_, cards, winner) in enumerate(hand.completed_tricks(), 1)}
    for seat, action in hand.history:
        out.append(f"{seat} {action}")
        card = action.card
        end = ends.get(card) if card is not None and action.kind == "play" else None
        if end is not None:
            out.append(f"# trick {end[0]} won by seat {end[1]}")
    if hand.result is not None:
        out.append("result " + _format_result(result_fields(hand.result)))
