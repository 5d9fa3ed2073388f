"""The hand-history viewer's data: each finished hand of a table's public record, step by step
— the deal, then every action — with the public view after each step and the cards each seat
still held.  A finished hand hides nothing any more, so every seat's cards are shown; the hand
in play is not in a public record at all (docs/notation.md, ``public``), and a hand thrown in
is there by its bids alone (its cards were never played: none is shown)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..actions import Action, parse_action
from ..cards import card_name, cards_of, mask_of, parse_cards
from ..hand import Hand
from ..notation import read_record
from ..outcome import EnteredHand
from ..views import result_to_dict

__all__ = ["HANDS_PAGE", "finished_hands", "played_by_hand"]

#: The most hands one answer of ``GET …/hands`` carries (issue 31): each step carries a view,
#: so a long money table's every hand would be megabytes built in one request.
HANDS_PAGE = 100


def finished_hands(record_text: str, names: list[str] | None = None,
                   before: int | None = None, page: int | None = None, *,
                   played_only: bool = False) -> dict[str, Any]:
    """``GET /api/tables/{id}/hands``: ``{"hands": [{number, dealer, names, result, total,
    partner_words, steps: [{seat, action, view, hands}]}], "earlier": n | None}``, the first
    step of each hand being its deal (``partner_words``: who held the called card, CP5).

    ``names``: the seats' names at a match (a money record names the seats of each hand).
    At most ``page`` (``HANDS_PAGE``) hands, the newest numbered below ``before`` (all: the newest);
    ``earlier`` is the ``before`` that asks for the hands ahead of them (None: no more).
    ``played_only`` (a stranger's, once the game is over): each step shows only the cards of a
    seat that it went on to play in that hand — a card never played is never public (issue 31,
    finding 9), whatever the record holds."""
    if page is None:
        page = HANDS_PAGE
    record = read_record(record_text)
    finished = [rec for rec in record.hands  # (a public record holds only finished hands)
                if rec.result is not None and (before is None or rec.number < before)]
    shown = finished[-page:] if page > 0 else []
    out = []
    for rec in shown:
        hand: Hand
        if rec.outcome is not None:
            # A thrown-in hand is public by its bids alone (no card of it was played): its
            # steps are the passes, every seat's cards unknown ([]).
            count = len(rec.seats) if rec.seats is not None else record.players
            hand = EnteredHand.blank(record.rules, count, rec.dealer)
            actions: list[tuple[int | None, Action]] = [
                (None, parse_action(str(b))) for b in rec.outcome.bids or ()]
        else:
            hand = Hand(record.rules, [mask_of(parse_cards(c)) for c in rec.cards], rec.dealer)
            actions = list(rec.actions)
        shown_cards = _played(actions) if played_only else None
        steps = [_step(hand, None, None, shown_cards)]
        for given, action in actions:
            seat = hand.seat_to_act if given is None else given
            hand.push(action, seat)
            steps.append(_step(hand, seat, str(action), shown_cards))
        assert hand.result is not None
        seats = rec.seats if rec.seats is not None else names
        out.append({"number": rec.number, "dealer": rec.dealer, "names": seats,
                    "result": result_to_dict(hand.result), "total": rec.total,
                    "partner_words": _partner_words(hand, seats), "steps": steps})
    earlier = shown[0].number if shown and len(shown) < len(finished) else None
    return {"hands": out, "earlier": earlier}


def _partner_words(hand: Hand, names: list[str] | None) -> str | None:
    """CP4, CP5: who held the called card, in words, once the hand is over: its holder's name,
    "alone" (the pitcher's own card) or "not dealt"; None without a call."""
    result = hand.result
    if result is None or result.called is None:
        return None
    if result.partner is None:
        return "not dealt"
    if result.partner == result.pitcher:
        return "alone"
    return names[result.partner] if names else f"Seat {result.partner + 1}"


def played_by_hand(record_text: str) -> dict[int, int]:
    """Each finished hand of a public record, by number -> the mask of the cards played in it
    (0 for a hand thrown in): the only cards of it that are public (issue 31, finding 9)."""
    return {rec.number: _played(rec.actions) if rec.outcome is None else 0
            for rec in read_record(record_text).hands if rec.result is not None}


def _played(actions: Iterable[tuple[int | None, Action]]) -> int:
    """The mask of the cards played (or pitched: played face up) in a hand's actions."""
    mask = 0
    for _seat, action in actions:
        if action.kind in ("play", "pitch") and action.card is not None:
            mask |= 1 << action.card
    return mask


def _step(hand: Hand, seat: int | None, action: str | None,
          shown: int | None = None) -> dict[str, Any]:
    """One step: the public view, and each seat's cards still held (only those in ``shown``,
    a mask, when given)."""
    return {"seat": seat, "action": action, "view": hand.view(None).to_dict(),
            "hands": [[card_name(c) for c in cards_of(hand.hand_of(s)
                                                      & (-1 if shown is None else shown))]
                      for s in range(len(hand.dealt))]}
