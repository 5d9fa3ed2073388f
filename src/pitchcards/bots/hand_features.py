"""Features of a hand that several bots share: what a suit is worth as trump.

The heuristic bids on :func:`estimate_points` (its per-point chances, :func:`suit_estimate`),
the sampler weighs hidden hands by :func:`suit_strength`, and the fitted bid model reads all of
them; each of those imports this module rather than another bot.  Four-point games only (the
ten-point family's estimates are in :mod:`.ten_point`).
"""

from __future__ import annotations

import functools

from ..cards import SUIT_MASKS
from .tables import COUNT

__all__ = ["POINT_CARDS", "estimate_points", "game_of", "holding_strengths", "ours_first",
           "suit_estimate", "suit_strength"]

_SUIT = SUIT_MASKS
_COUNT = COUNT  # C9: game count of each card (jokers 0)
_TEN, _JACK, _QUEEN, _KING, _ACE = 8, 9, 10, 11, 12
_RANK_BITS = [1 << r for r in range(13)]
#: the cards that can score a point or count for game in their suit: A K Q J 10 and the 2
POINT_CARDS = sum(1 << (13 * s + r) for s in range(4) for r in (0, 8, 9, 10, 11, 12))


def ours_first(m: int, mine: float, theirs: float) -> float:
    """Chance that, going through ``m`` unseen cards in order, my side's card comes first.

    Each card is with my side (partner) with probability ``mine``, with an opponent with
    ``theirs``, else not dealt; the first dealt card decides (High and Low-to-holder).
    """
    gone = 1.0 - mine - theirs
    return mine * (1.0 - gone ** m) / (1.0 - gone) + gone ** m if gone < 1.0 else 1.0


#: Game chance by trump length (index = number of trumps, 6 = six) with no count cards, then
#: per count point in trumps and in side aces/kings/queens/jacks, and per side ten: a linear fit
#: to forced pitches played out by the heuristic (cutthroat 3-6 players; partnerships).
_GAME_BASE = ((0.0, 0.0, 0.1, 0.36, 0.56, 0.7, 0.8), (0.0, 0.3, 0.39, 0.54, 0.68, 0.78, 0.86))
_GAME_TRUMP_COUNT = (0.024, 0.016)
_GAME_SIDE_COUNT = (0.035, 0.027)
_GAME_SIDE_TEN = (-0.05, -0.01)


def suit_estimate(hand: int, suit: int, players: int, partners: bool,
                  low_holder: bool) -> tuple[float, float, float, float]:
    """Chances that the side holding ``hand`` takes High, Low, Jack and Game if it pitches ``suit``.

    High (and Low to the holder) is exact given that each unseen card is with an opponent with
    probability 6·opponents/46 (with the partner 6/46); the rest are models fitted to forced
    pitches played out by the heuristic itself (every seat and table size of the variants):

    * Low to the capturer: kept when it is ours and we can win a trick with it - easier with more
      trumps and a top trump (A or K) - or caught from the others when we lead top trumps;
    * Jack: held, it is lost mainly when bare or with one guard; not held, the A may catch it;
    * Game: trump length first (tricks), then count in trumps; side aces and kings help, side tens
      are liabilities (they are caught more often than they are brought home).
    """
    trumps = hand >> (13 * suit) & 0x1FFF
    if not trumps:
        return (0.0, 0.0, 0.0, 0.0)
    k = trumps.bit_count()
    opponents = players - 2 if partners else players - 1  # 2 in 2x2, 4 in 3x2 (TT1)
    q = 6 * opponents / 46  # a given unseen card is with an opponent
    qp = 6 / 46 if partners else 0.0  # ... with my partner
    top = trumps.bit_length() - 1
    low = (trumps & -trumps).bit_length() - 1
    p_high = ours_first(12 - top, qp, q)
    hi = top >= 11  # holds the A or K of trumps
    crowd = 1.0 - 0.06 * (opponents - 3)  # more opponents, more trumps to fight
    # Low.
    if low_holder:
        p_low = ours_first(low, qp, q)
    else:
        lowest = (1.0 - q - qp) ** low  # no one else holds a lower trump
        if k == 1:
            keep = p_high
        elif partners:
            keep = 0.83 + 0.05 * (k - 2) if hi else 0.59 + 0.23 * (k - 2)
        else:
            keep = (0.78 + 0.06 * (k - 2) if hi else 0.45 + 0.37 * (k - 2)) * crowd
        if low:
            keep *= 0.75  # it may not be Low: the seat cannot nurse it as well as a 2
        if partners:
            catch = 0.78 + 0.05 * (k - 2) if hi else 0.47 + 0.08 * (k - 2)
        else:
            catch = ((0.55 + 0.08 * (k - 2)) * crowd if hi
                     else (0.12 + 0.12 * (k - 2)) * 3 / max(opponents, 1))
        p_low = lowest * min(keep, 0.97) + (1.0 - lowest) * min(max(catch, 0.02), 0.9)
    # Jack.
    if trumps >> _JACK & 1:
        guards = (trumps >> 10).bit_count()  # the Q, K, A held
        sure = ours_first(3 - guards, qp, q)
        risk = 1.0 if k == 1 else 0.32 - 0.1 * guards if k == 2 else 0.09 - 0.05 * guards
        p_jack = 1.0 - (1.0 - sure) * max(risk, 0.01)
    else:
        if partners:
            catch = 0.35 + 0.1 * (k - 1) if top == _ACE else 0.25
        else:
            catch = 0.25 + 0.09 * (k - 1) if top == _ACE else 0.1
        p_jack = q * min(catch, 0.7) + qp * 0.8
    # Game.
    trump_count = game_of(trumps << (13 * suit))
    side = hand & ~_SUIT[suit]
    side_tens = sum(side >> (13 * s + _TEN) & 1 for s in range(4))
    g = (_GAME_BASE[partners][min(k, 6)] + _GAME_TRUMP_COUNT[partners] * min(trump_count, 14)
         + _GAME_SIDE_COUNT[partners] * (game_of(side) - 10 * side_tens)
         + _GAME_SIDE_TEN[partners] * side_tens
         - (0.0 if partners else 0.035 * (opponents - 3)))
    p_game = min(0.97, max(0.02, g))
    return (p_high, p_low, p_jack, p_game)


def game_of(mask: int) -> int:
    total = 0
    while mask:
        low = mask & -mask
        total += _COUNT[low.bit_length() - 1]
        mask ^= low
    return total


_EST_CACHE: dict[tuple[int, int, bool, bool], tuple[int, tuple[float, float, float, float]]] = {}


def estimate_points(hand: int, players: int, partners: bool,
                    low_holder: bool) -> tuple[int, tuple[float, float, float, float]]:
    """The best suit to pitch and its (High, Low, Jack, Game) chances (cached per hand)."""
    key = (hand, players, partners, low_holder)
    found = _EST_CACHE.get(key)
    if found is not None:
        return found
    best = -1.0
    best_suit = 0
    best_probs = (0.0, 0.0, 0.0, 0.0)
    for suit in range(4):
        if not hand & _SUIT[suit]:
            continue
        probs = suit_estimate(hand, suit, players, partners, low_holder)
        value = sum(probs) + 0.01 * (hand & _SUIT[suit]).bit_count()
        if value > best:
            best, best_suit, best_probs = value, suit, probs
    if len(_EST_CACHE) > 4096:
        _EST_CACHE.clear()
    _EST_CACHE[key] = (best_suit, best_probs)
    return best_suit, best_probs


def suit_strength(mask: int, suit: int, players: int = 4) -> float:
    """A quick estimate of the points ``mask`` would take with ``suit`` as trump (0..4).

    Read from a table of every holding of one suit (:func:`holding_strengths`): the sampler asks
    this some twenty times a world."""
    return holding_strengths(players >= 4)[mask >> (13 * suit) & 0x1FFF]


@functools.cache
def holding_strengths(three_others: bool) -> tuple[float, ...]:
    """:func:`_holding_strength` of each of the 8192 holdings of one suit."""
    return tuple(_holding_strength(t, three_others) for t in range(1 << 13))


def _holding_strength(t: int, three_others: bool) -> float:
    """The estimate for the ranks ``t`` of the trump suit (bit 0 the 2), with three or more
    others at the table or fewer (a king alone is likelier High against fewer)."""
    if not t:
        return 0.0
    n = t.bit_count()
    est = 0.0
    if t & _RANK_BITS[_ACE]:
        est += 1.0
    elif t & _RANK_BITS[_KING]:
        est += 0.55 if three_others else 0.7
    elif t & _RANK_BITS[_QUEEN]:
        est += 0.3
    if t & 0b1:
        est += 0.85
    elif t & 0b10:
        est += 0.55
    elif t & 0b100:
        est += 0.3
    if t & _RANK_BITS[_JACK]:
        est += 0.45 + (0.25 if t & (_RANK_BITS[_ACE] | _RANK_BITS[_KING]) else 0.0)
    est += 0.15 + 0.1 * n + (0.15 if t & _RANK_BITS[_TEN] else 0.0)
    est += 0.15 * max(0, n - 2)
    return min(est, 4.0)
