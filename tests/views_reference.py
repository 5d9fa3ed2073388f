"""``views.view_of`` as it was before issue 35 made it fast, kept as the oracle of
``tests/test_views_reference.py``: every field of the View named, through the dataclass's own
``__init__``.

The fast :func:`pitchcards.views.view_of` fills a View's slots from a tuple in field order
(``views._filled``), where a field out of place would go unnoticed by a test that compares a
view with itself; this one names each field.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from pitchcards.call_partner import is_revealed
from pitchcards.hand import Hand
from pitchcards.views import View

_AUCTION_KINDS = frozenset(("pass", "bid", "pitch"))


def reference_view_of(hand: Hand, seat: int | None, scores: Sequence[int] | None = None,
                      names: Sequence[str] | None = None, stars: Sequence[int] | None = None,
                      money: Sequence[Fraction] | None = None,
                      money_cents: Sequence[int] | None = None) -> View:
    n = hand.players
    if seat is not None and (type(seat) is not int or not 0 <= seat < n):
        seat = hand.check_seat(seat, "a view for seat")
    tricks = tuple(hand.completed_tricks())
    trick = tuple(hand.current_trick())
    played = 0
    for _, cards, _ in tricks:
        for c in cards:
            played |= 1 << c
    for _, c in trick:
        played |= 1 << c
    own = seat is not None
    called = hand.called_card
    known = called is not None and is_revealed(called, played, hand.is_over)
    return View(
        rules=hand.rules,
        seat=seat,
        players=n,
        dealer=hand.dealer,
        phase=hand.phase,
        seat_to_act=hand.seat_to_act,
        hand_mask=hand.hand_of(seat) if own else 0,  # type: ignore[arg-type]
        dealt_mask=hand.dealt[seat] if own else 0,  # type: ignore[index]
        hand_sizes=tuple(hand.hand_of(s).bit_count() for s in range(n)),
        auction=tuple((s, a) for s, a in hand.history if a.kind in _AUCTION_KINDS),
        high_bid=hand.high_bid,
        high_bidder=hand.high_bidder,
        pitched_card=hand.pitched_card,
        pitcher=hand.pitcher,
        contract=hand.contract,
        trump=hand.trump,
        tricks=tricks,
        trick=trick,
        leader=hand.leader,
        tricks_won=tuple(hand.tricks_won(s) for s in range(n)),
        played_mask=played,
        legal_actions=tuple(hand.legal_actions()) if own and seat == hand.seat_to_act else (),
        result=hand.result,
        scores=tuple(scores) if scores is not None else None,
        target=hand.rules.target,
        names=tuple(names) if names is not None else None,
        stars=tuple(stars) if stars is not None else None,
        money=tuple(money) if money is not None else None,
        money_cents=tuple(money_cents) if money_cents is not None else None,
        discarded_mask=hand.discarded(seat) if own else 0,  # type: ignore[arg-type]
        called_card=called,
        partner=hand.partner if known else None,
        partner_known=known,
    )
