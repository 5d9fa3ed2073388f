"""Describing a record in words: what ``pitch replay FILE`` prints."""

from __future__ import annotations

from fractions import Fraction

from ..actions import Action
from ..cards import SUIT_SYMBOLS, card_symbol, format_cards
from ..match import Match
from ..money import MoneySession, dollars_text
from ..outcome import EnteredHand
from ..rules import bid_text
from .format import EventRecord, Game, HandRecord, format_outcome, format_value
from .replay import read_and_replay


# ---------------------------------------------------------------------------------- replay text
def replay_text(text: str) -> str:
    """What ``pitch replay FILE`` prints: every hand played out, then the outcome."""
    out: list[str] = []
    def show(game: Game, item: HandRecord | EventRecord) -> None:
        if isinstance(item, HandRecord):
            out.extend(_describe_hand(game, item.number))
        elif item.kind == "join":
            out.extend(["", f"{item.name} joins"])
        elif item.kind == "leave":
            paid = game.payouts[str(item.name)]
            out.extend(["", f"{item.name} leaves and is paid {_dollars(paid)}"])
        else:
            out.extend(["", "the session is settled"])

    record, game = read_and_replay(text, on_item=show)
    rules = record.rules
    changes = ", ".join(f"{k}={format_value(v)}" for k, v in record.options.items())
    names = record.names or record.seat_names
    who = f"{record.players} players" if names is None else "players " + ", ".join(names)
    head = [f"{rules.name}{' (' + changes + ')' if changes else ''}: {who}, "
            f"first dealer seat {record.dealer}"
            + (f", seed {record.seed}" if record.seed is not None else "")]
    if record.scores is not None:
        head.append("starting scores: " + " ".join(map(str, record.scores)))
    out[:0] = head
    if isinstance(game, MoneySession):
        out.extend(_describe_money_end(game))
    else:
        out.extend(_describe_match_end(game))
    return "\n".join(out) + "\n"


def _describe_hand(game: Game, number: int) -> list[str]:
    hand = game.hands[number - 1]
    names = (game.hand_players[number - 1] if isinstance(game, MoneySession)
             else _match_names(game))

    def who(seat: int) -> str:
        return names[seat] if names[seat] == f"seat {seat}" else f"{names[seat]} (seat {seat})"

    def short(seat: int) -> str:
        return names[seat]

    def side(s: int) -> str:
        if isinstance(game, Match) and game.rules.partnership_mode:
            return _team(names, s, game.rules.teams)
        return names[s]

    out = ["", f"hand {number}: dealer {who(hand.dealer)}"]
    if isinstance(hand, EnteredHand):
        out.append(f"  entered by its outcome: {format_outcome(hand.outcome)}")
    else:
        for seat, mask in enumerate(hand.dealt):
            out.append(f"  {who(seat)}: {format_cards(mask, symbols=True)}")
    bids = [f"{who(seat)} {_symbolic(action)}" for seat, action in hand.history
            if action.kind != "play"]
    out.append("  auction: " + (", ".join(bids) or "(no bid yet)"))
    if hand.pitcher is not None:
        contract = bid_text(hand.contract) if hand.contract is not None else "-"
        trump = hand.trump_suit
        suit = SUIT_SYMBOLS[trump] if trump is not None else "-"
        out.append(f"  pitcher {who(hand.pitcher)}, contract {contract}, trump {suit}")
    n = hand.players
    tricks = hand.completed_tricks()
    for k, (leader, cards, winner) in enumerate(tricks, 1):
        played = ", ".join(f"{short((leader + i) % n)} {card_symbol(c)}"
                           for i, c in enumerate(cards))
        out.append(f"  trick {k}: {played} -> {who(winner)}")
    current = hand.current_trick()
    if current:
        played = ", ".join(f"{short(s)} {card_symbol(c)}" for s, c in current)
        out.append(f"  trick {len(tricks) + 1}: {played} ...")
    if hand.result is None:
        to_act = hand.seat_to_act
        out.append(f"  (hand in progress: {who(to_act) if to_act is not None else '-'} to act)")
        return out
    suit_index = hand.trump_suit
    symbol = SUIT_SYMBOLS[suit_index] if suit_index is not None else None
    out.append("  " + hand.result.summary(side, short, symbol))
    if isinstance(game, Match):
        out.append("  scores: " + ", ".join(f"{side(s)} {v}" for s, v in enumerate(game.scores)))
    else:
        out.append("  scores: " + ", ".join(f"{n} {game.scores[n]}" for n in names))
    return out


def _match_names(m: Match) -> list[str]:
    """A match's player names, or ``seat 0``, ``seat 1`` … when it was not told any."""
    if m.names == tuple(f"Seat {s}" for s in range(m.players)):
        return [f"seat {s}" for s in range(m.players)]
    return list(m.names)


def _team(names: list[str] | tuple[str, ...], side: int, teams: int) -> str:
    """A partnership side: ``team 0 (Ann & Cy)`` (seats 0 & 2 against 1 & 3; with three
    teams, seats t and t + 3: TT1)."""
    return f"team {side} ({names[side]} & {names[side + teams]})"


def _symbolic(action: Action) -> str:
    card = action.card
    if card is None:
        return str(action)
    return f"{action.kind} {card_symbol(card)}"


def _side_name(match: Match, side: int) -> str:
    names = _match_names(match)
    if match.rules.partnership_mode:
        return _team(names, side, match.rules.teams)
    return names[side]


def _describe_match_end(m: Match) -> list[str]:
    out = [""]
    out.append("final scores: " + ", ".join(f"{_side_name(m, s)} {v}"
                                            for s, v in enumerate(m.scores)))
    if m.winner is not None:
        out.append(f"winner: {_side_name(m, m.winner)} after {_hands(len(m.results))}")
    elif m.in_hand:
        out.append(f"no winner yet: hand {len(m.hands)} is in progress")
    else:
        out.append(f"no winner yet after {_hands(len(m.results))}")
    return out


def _hands(n: int) -> str:
    return "1 hand" if n == 1 else f"{n} hands"


def _describe_money_end(s: MoneySession) -> list[str]:
    everyone = list(s.scores)
    out = ["", "session settled" if s.finished else
           ("session in progress: hand in play" if s.in_hand else "session in progress")]
    out.append("scores: " + ", ".join(f"{n} {s.scores[n]}" for n in everyone))
    out.append("stars: " + ", ".join(f"{n} {s.stars[n]}" for n in everyone))
    if not s.finished:
        out.append("ledger: " + ", ".join(f"{n} {_dollars(v)}" for n, v in s.ledger.items()))
    if s.payouts:
        out.append("payouts: " + ", ".join(f"{n} {_dollars(v)}" for n, v in s.payouts.items()))
    out.append(f"pot: {_dollars(s.pot)}")
    return out


def _dollars(amount: Fraction) -> str:
    """``+$0.50``, or ``-$0.07 (-1/15)`` when the amount is not a whole number of cents."""
    if amount == 0:
        return "$0.00"
    text = dollars_text(amount)
    return text if (amount * 100).denominator == 1 else f"{text} ({amount})"
