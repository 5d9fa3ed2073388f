"""The heuristic's ten-point family knowledge: bidding, naming trump, discarding (T1-T8).

**Estimate** (:func:`estimate`): for a suit as trump, the chance that the bidder's side takes
each of the points the rules score (T7): High and Low (the holder of the top / bottom trump in
play), the Jack, Game, and - with ``extra_points`` - the off-jack, each joker and the three of
trumps (3 points), from the seat's cards in the trump order of the deck model (T3: the jokers
and the off-jack are trumps).  Each unseen card is with a given other seat with probability
``hand_size / unseen``; a card the seat holds is kept when no unseen trump is above it or when
enough of its own trumps guard it; a card it does not hold is caught more easily with long,
high trumps.  The point distribution (a Poisson-binomial with the three worth 3) gives each
bid's expected score change, as in the four-point game's bidding.

**Naming trump** (T5): the suit with the best estimate.  **Discarding** (T4): keep every trump
(point trumps above all), then side aces and the count cards that can win a trick; throw the
lowest side cards first; a trump is thrown only when more than six are held, the lowest one
that scores nothing (the bottom trump is kept for Low).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..actions import DISCARD, PASS, TRUMP, Action
from ..deck import deck_model
from ..rules import RuleSet
from .hand_features import ours_first
from .tables import COUNT, Tables, tables

__all__ = ["best_suit", "choose_bid", "choose_discard", "choose_trump", "estimate", "opening_lead",
           "point_cards"]

_KEEP = 6  # T4: every seat discards down to six


def estimate(hand: int, suit: int, rules: RuleSet, players: int) -> list[tuple[int, float]]:
    """(points, chance) of each point of the hand if ``hand``'s side names ``suit`` trump."""
    tb = tables(rules, suit)
    order = tb.model.trump_order[suit]
    mine = [i for i, c in enumerate(order) if hand >> c & 1]
    partners = rules.partnership_mode
    opponents = players - 2 if partners else players - 1  # TT1: 4 with three teams
    unseen = tb.full.bit_count() - hand.bit_count()
    q = min(rules.hand_size * opponents / unseen, 0.95)
    qp = rules.hand_size / unseen if partners else 0.0
    k = min(len(mine), _KEEP)
    if not mine:
        # Only what is caught from the others: no High, no Low, no Game.
        return [(1, 0.0), (1, 0.0), *[(w, q * 0.15) for _, w in _point_cards(tb)], (1, 0.0)]
    top, bottom = mine[-1], mine[0]
    out = [(1, ours_first(len(order) - 1 - top, qp, q))]  # High
    low = ours_first(bottom, qp, q)
    out.append((1, low if rules.low_to == "holder" else low * (0.55 + 0.08 * k)))
    for card, w in _point_cards(tb):
        place = order.index(card)
        if hand >> card & 1:
            guards = sum(1 for i in mine if i > place)
            sure = ours_first(len(order) - 1 - place - guards, qp, q)
            risk = 1.0 if k == 1 else max(0.04, 0.5 - 0.12 * guards - 0.06 * (k - 2))
            out.append((w, 1.0 - (1.0 - sure) * risk))
        else:
            higher = sum(1 for i in mine if i > place)
            catch = min(0.8, 0.12 + 0.1 * k + 0.06 * higher)
            out.append((w, q * catch + qp * 0.8))
    count = sum(COUNT[order[i]] for i in mine)
    side = hand & ~tb.tmask
    aces = sum(1 for c in range(52) if side >> c & 1 and c % 13 == 12)
    game = 0.05 + 0.09 * k + 0.012 * min(count, 14) + 0.04 * aces - (0.04 * (opponents - 2))
    out.append((1, min(0.95, max(0.03, game))))
    return out


def _point_cards(tb: Tables) -> list[tuple[int, int]]:
    """The capture point cards in the deck (T7), with their points."""
    return [(c, w) for c, w in enumerate(tb.worth) if w and tb.full >> c & 1]


def point_cards(rules: RuleSet, trump: int) -> list[tuple[int, int]]:
    """The cards whose capture scores with ``trump`` trump (T7), in :func:`estimate`'s order
    (after High and Low, before Game)."""
    return _point_cards(tables(rules, trump))


def _distribution(points: Sequence[tuple[int, float]], total: int) -> list[float]:
    """P(exactly k points), k = 0..total, for independent points worth ``w`` with chance ``p``."""
    dist = [1.0] + [0.0] * total
    for w, p in points:
        new = [0.0] * (total + 1)
        for k, v in enumerate(dist):
            if v:
                new[k] += v * (1.0 - p)
                new[min(k + w, total)] += v * p
        dist = new
    return dist


def best_suit(hand: int, rules: RuleSet, players: int) -> tuple[int, list[tuple[int, float]]]:
    """The suit to name trump (T5) and its point chances: the best expected points."""
    best, best_value, best_pts = 0, -1.0, []
    for suit in range(4):
        pts = estimate(hand, suit, rules, players)
        value = sum(w * p for w, p in pts) + 0.01 * (hand & tables(rules, suit).tmask).bit_count()
        if value > best_value:
            best, best_value, best_pts = suit, value, pts
    return best, best_pts


def choose_bid(hand: int, seat: int, players: int, dealer: int, rules: RuleSet,
               auction: Sequence[tuple[int, Action]], legal: Sequence[Action],
               aggression: float = 0.0) -> Action:
    """The heuristic bid of the ten-point family (T8): the bid with the best expected score
    change against passing; numeric bids only (no moon, no pitch)."""
    total = rules.points_total
    _, pts = best_suit(hand, rules, players)
    dist = _distribution(pts, total)
    expected = sum(w * p for w, p in pts)
    sides = rules.side_count(players)
    w = 1.0 / (sides - 1) if sides > 1 else 1.0
    others = total - expected
    high, high_seat = 0, -1
    for s, a in auction:
        if a.bid is not None:
            high, high_seat = a.bid, s
    mine = rules.side_of(seat)
    theirs = rules.side_of(high_seat) if high_seat >= 0 else -1
    if high == 0:
        pass_value = -0.5 * w
    elif theirs == mine:
        pass_value = 0.5 + 0.1 * high  # my partner holds the bid
    else:
        pass_value = -w * (1.0 + 0.3 * (high - rules.min_bid))
    may_pass = PASS in legal
    best: Action | None = None
    best_value = -1e9
    for a in legal:
        b = a.bid
        if a.kind != "bid" or b is None:
            continue
        made = sum(dist[k] * k for k in range(b, total + 1))
        miss = sum(dist[:b])
        value = made - b * miss - w * others + aggression
        if value > best_value + 1e-9:
            best, best_value = a, value
    if best is None or (may_pass and best_value <= pass_value):
        return PASS if may_pass else legal[0]
    return best


def choose_trump(hand: int, rules: RuleSet, players: int) -> Action:
    """T5: name the suit with the best estimate."""
    return TRUMP[best_suit(hand, rules, players)[0]]


def _keep_value(card: int, hand: int, rules: RuleSet, trump: int) -> float:
    """How much a card is worth keeping after trump is named (T4): trumps first."""
    tb = tables(rules, trump)
    if tb.suit_of[card] == trump:
        value = 100.0 + tb.rank[card] + 30.0 * tb.worth[card]
        trumps = hand & tb.tmask
        if not any(tb.rank[c] < tb.rank[card] for c in range(len(tb.rank)) if trumps >> c & 1):
            value += 25.0  # the bottom trump: Low to its holder
        return value
    rank = card % 13
    value = float(rank) + 2.0 * COUNT[card]
    if not tb.above[card] & ~hand:
        value += 15.0  # master of its suit
    return value


def choose_discard(hand: int, rules: RuleSet, trump: int) -> Action:
    """T4: discard the card least worth keeping (see the module docstring)."""
    cards = [c for c in range(len(tables(rules, trump).rank)) if hand >> c & 1]
    card = min(cards, key=lambda c: (_keep_value(c, hand, rules, trump), c))
    return DISCARD[card]


def opening_lead(hand: int, legal: int, rules: RuleSet, players: int, partners: bool) -> int:
    """T6 under ``first_lead``: the top card of the best suit by its printed suit (never a
    joker: it names no suit)."""
    del partners
    suit, _ = best_suit(hand & deck_model(rules).mask & ((1 << 52) - 1), rules, players)
    mine = legal & (0x1FFF << (13 * suit))
    if not mine:
        mine = legal & ((1 << 52) - 1) or legal
    return mine.bit_length() - 1
