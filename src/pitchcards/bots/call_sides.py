"""Who a defender plays with in call-your-partner before the partner is revealed (CP5).

Until the called card is played only its holder knows the partnership (CP5).  A seat that
neither pitched nor holds the called card is a *defender* for certain, and its aim is to set
the pitcher (TricksterBots #97).  It reasons from the called card and the play, as a person at
the table would:

* a seat proven void in the called card's suit (C6: the voids the play proves) cannot hold it,
  so it is a defender too: an ally;
* a seat that gave a ten or a scoring card (the J, Low, …) to a trick the pitcher won is playing
  as the partner does (feeding its side's safe trick): a *suspect*, kept with the pitcher;
* every other seat but the pitcher is a defender as well, as far as it knows: with 30 of 52
  cards dealt the called card is more often out of play than in any one other hand (CP4), so
  a seat not yet cleared is still a defender far more often than the partner.

Allies are allies only where the defenders pool their points (``call_defenders="side"``,
CP6); under ``"each"`` every defender plays for itself but keeps a suspect with the pitcher.
The pitcher plays each seat alone until the reveal (it does not know its partner); the holder
knows (:func:`~.heuristic.known_sides`).  The heuristic bot and the rollouts of the search bots
both read :func:`defender_sides`, so the expert's defenders reason the same way in every world.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

__all__ = ["defender_sides", "suspects"]

#: the rank index of the ten (2..A as 0..12): a ten fed to a trick is Game's biggest gift (C8)
_TEN = 8


def suspects(tricks: Iterable[tuple[int, Sequence[int], int]], pitcher: int, players: int,
             worth: Sequence[int]) -> int:
    """The seats (a mask) that fed the pitcher a ten or a scoring card (``worth`` > 0: the
    capture points of :mod:`.tables`) in a trick the pitcher won, leading it or not: the play
    of the partner who knows (CP5)."""
    out = 0
    for leader, cards, winner in tricks:
        if winner != pitcher:
            continue
        for i, card in enumerate(cards):
            seat = (leader + i) % players
            if seat != pitcher and (card % 13 == _TEN or worth[card] > 0):
                out |= 1 << seat
    return out


def defender_sides(players: int, pitcher: int, seat: int, called_suit: int,
                   voids: Sequence[int], suspected: int, pooled: bool) -> list[int]:
    """Each seat's side as the defender ``seat`` sees it before the reveal (CP5): the pitcher
    and the ``suspected`` seats (:func:`suspects`) on the pitcher's side; a seat proven void
    in ``called_suit`` (the called card's suit for following, as ``voids`` count suits) is
    never a suspect (it cannot hold the card).  The other defenders are this seat's allies
    when the defenders pool their points (``pooled``: ``call_defenders="side"``, CP6), and
    each alone otherwise: under ``"each"`` a point fed to another defender is that
    defender's, not this seat's (measured: allied defenders lost 0.012 points a hand there,
    docs/bots.md)."""
    out = []
    for s in range(players):
        cleared = bool(voids[s] >> called_suit & 1)
        if s == pitcher or (s != seat and suspected >> s & 1 and not cleared):
            out.append(pitcher)
        else:
            out.append(seat if pooled else s)
    return out
