"""Hints: the expert's choice for a seat, with a short reason a person can read.

    action, reason = suggest(view)

The reason is built from the expert's analysis (how much better the choice is than the
alternatives) and from the situation: what the card does for High, Low, Jack and Game, or why a
bid looks safe.
"""

from __future__ import annotations

from ..actions import Action
from ..cards import SUITS, card_symbol
from ..rules import RuleSet
from ..views import View
from . import ten_point
from .expert import HARD, Budget, ExpertBot
from .sampler import suit_strength
from .tables import COUNT, tables

__all__ = ["compare_bids", "explain", "suggest"]

_JACK, _TEN = 9, 8


def suggest(view: View, budget: Budget | None = None, seed: int | None = 0) -> tuple[Action, str]:
    """The expert's action for ``view`` (it must be the seat's turn) and why, in a sentence.

    In the auction every candidate (each bid, passing, pitching each suit's top card) is
    measured in the same terms, the expected net score change (your side's points minus the
    best other side's, over the sampled deals), and the hint is the best of them, with the
    comparison (issue 10, item 7: a hint never argues in one unit for a bid and another for a
    pass)."""
    bot = ExpertBot(seed, budget if budget is not None else HARD)
    analysis = bot.analyse(view)
    if view.phase == "auction" and len(analysis.points) > 1:
        return compare_bids(analysis.points, rules=view.rules)
    return analysis.best, explain(view, analysis.best, analysis.values)


def compare_bids(points: dict[Action, float], shown: int = 4,
                 rules: RuleSet | None = None) -> tuple[Action, str]:
    """The candidate with the best expected net score change, and the comparison: "expected
    net score change: bid 2 +1.1, pass -0.3, bid 3 -0.8" (the best ``shown`` candidates)."""
    ranked = sorted(points, key=lambda a: (-points[a], int(a)))
    best = ranked[0]
    moon = 5 if rules is None else rules.moon_bid  # T8: no moon in the ten-point family
    terms = ", ".join(f"{_bid_label(a, moon)} {points[a]:+.1f}" for a in ranked[:shown])
    more = f" (and {len(ranked) - shown} more)" if len(ranked) > shown else ""
    return best, f"expected net score change: {terms}{more}"


def _bid_label(action: Action, moon: int | None = 5) -> str:
    if action.kind == "pitch":
        assert action.card is not None
        return f"pitch {card_symbol(action.card)}"
    if action.kind == "pass":
        return "pass"
    return "bid moon" if action.bid == moon else f"bid {action.bid}"


def _trump_index(view: View) -> int:
    return SUITS.index(view.trump) if view.trump is not None else -1


def explain(view: View, action: Action, values: dict[Action, float]) -> str:
    """A short reason for ``action`` in ``view`` (``values``: the candidates' mean values)."""
    if len(view.legal_actions) == 1:
        what = card_symbol(action.card) if action.card is not None and action.kind == "play" \
            else str(action)
        return f"{what}: the only legal choice"
    if view.phase == "auction":
        if view.rules.points_total != 4:
            return _explain_ten_bid(view, action)
        return _explain_bid(view, action, values)
    if view.phase == "declare":
        return _explain_trump(view, action)
    if view.phase == "discard":
        return _explain_discard(view, action)
    return _explain_play(view, action)


_SYMS = ("♣", "♦", "♥", "♠")
_POINT_NAMES = {1: "Three", 9: "Jack"}


def _safe_points(hand: int, rules: RuleSet, suit: int, players: int) -> tuple[list[str], float]:
    """The points that look likely (chance ≥ 0.6) with ``suit`` trump, and the expected total
    (T7: High, Low, the capture cards, Game)."""
    pts = ten_point.estimate(hand, suit, rules, players)
    names = ["High", "Low", *[_point_name(c, suit) for c, _ in ten_point.point_cards(rules, suit)],
             "Game"]
    likely = [n for n, (_, p) in zip(names, pts, strict=True) if p >= 0.6]
    return likely, sum(w * p for w, p in pts)


def _point_name(card: int, trump: int) -> str:
    if card >= 52:
        return "High joker" if card == 53 else "Low joker"
    if card // 13 != trump:
        return "Off-jack"
    return _POINT_NAMES.get(card % 13, "Jack")


def _explain_ten_bid(view: View, action: Action) -> str:
    """T8: a ten-point bid or pass, in the points the hand's best suit looks likely to take."""
    suit, _ = ten_point.best_suit(view.hand_mask, view.rules, view.players)
    likely, est = _safe_points(view.hand_mask, view.rules, suit, view.players)
    sym = _SYMS[suit]
    if action.kind == "pass":
        return (f"pass: the best suit ({sym}) is worth about {est:.1f} of "
                f"{view.rules.points_total} points, too little to risk the bid")
    what = ", ".join(likely) if likely else "no sure point"
    return f"bid {action.bid} in {sym}: {what} look likely, about {est:.1f} points expected"


def _explain_trump(view: View, action: Action) -> str:
    """T5: why this suit is named trump."""
    suit = action.suit
    assert suit is not None
    tb = tables(view.rules, suit)
    held = (view.hand_mask & tb.tmask).bit_count()
    likely, est = _safe_points(view.hand_mask, view.rules, suit, view.players)
    what = (", ".join(likely) + " look likely") if likely else "no point is sure"
    return (f"name {_SYMS[suit]} trump: {held} trumps in your hand, {what}, "
            f"about {est:.1f} points expected")


def _explain_discard(view: View, action: Action) -> str:
    """T4: why this card goes (face down, out of play)."""
    card = action.card
    assert card is not None and view.trump is not None
    trump = SUITS.index(view.trump)
    tb = tables(view.rules, trump)
    sym = card_symbol(card)
    if tb.suit_of[card] == trump:
        return (f"discard the {sym}: you hold more than six trumps, and it is the lowest "
                "one that scores nothing")
    if COUNT[card]:
        return f"discard the {sym}: every card left is a trump or worth more to keep"
    return f"discard the {sym}: a low card outside trumps, it cannot win a trick or score"


def _explain_bid(view: View, action: Action, values: dict[Action, float]) -> str:
    hand = view.hand_mask
    suit = max(range(4), key=lambda s: suit_strength(hand, s, view.players))
    tmask = hand >> (13 * suit) & 0x1FFF
    est = suit_strength(hand, suit, view.players)
    parts = []
    if tmask >> 12 & 1:
        parts.append("High")
    if tmask & 0b11:
        parts.append("Low")
    if tmask >> _JACK & 1:
        parts.append("Jack")
    safe = " and ".join(parts) if parts else "no point"
    sym = ("♣", "♦", "♥", "♠")[suit]
    if action.kind == "pass":
        return (f"pass: the best suit ({sym}) is worth about {est:.1f} points, "
                "too little to risk the bid")
    bid = action.bid
    assert bid is not None
    what = "bid moon" if bid == 5 else f"bid {bid}"
    if action.kind == "pitch":
        card = action.card
        assert card is not None
        what = f"pitch the {card_symbol(card)} (a bid of 4)"
    game = " Game likely" if est >= bid + 0.5 else ""
    look = "looks safe" if len(parts) == 1 else "look safe"
    if not parts:
        return f"{what} in {sym}: about {est:.1f} points expected"
    return f"{what} in {sym}: {safe} {look}, about {est:.1f} points expected.{game}".rstrip(".")


def _explain_play(view: View, action: Action) -> str:
    card = action.card
    assert card is not None
    sym = card_symbol(card)
    trump = _trump_index(view)
    n = view.players
    if trump < 0:
        return f"lead the {sym}: it makes {_SYMS[card // 13]} trump, your best suit"
    tb = tables(view.rules, trump)  # T2, T3: suits for following, the trump order
    suit, rank = tb.suit_of[card], card % 13 if card < 52 else -1
    is_trump = suit == trump
    dealt_trumps = tb.tmask & ~view.played_mask & ~view.hand_mask
    higher_out = dealt_trumps & tb.above[card] if is_trump else 0
    if not view.trick:
        if is_trump and not higher_out:
            if view.side_of(view.seat or 0) == view.side_of(view.pitcher or 0):
                return f"lead the {sym} to fix High and draw trumps"
            return f"lead the {sym}: it is the top trump left, it cannot lose"
        if is_trump:
            return f"lead the {sym} to draw out the opponents' trumps"
        if rank == 12:
            return f"cash the {sym} while it still wins"
        if COUNT[card] == 0:
            return f"lead the {sym}: a cheap card that gives nothing away"
        return f"lead the {sym}"
    model = tb.model
    led = tb.suit_of[view.trick[0][1]]
    best_seat, best = view.trick[model.trick_winner([c for _, c in view.trick], trump)]
    wins = model.card_strength(card, trump, led) > model.card_strength(best, trump, led)  # C7
    partner = (view.rules.partnership_mode and view.seat is not None
               and best_seat % 2 == view.seat % 2)
    on_table = sum(COUNT[c] for _, c in view.trick)
    last = len(view.trick) == n - 1
    caught = [c for _, c in view.trick if tb.special >> c & 1]  # the Jack (T7: and the rest)
    if wins:
        if caught:
            return f"win with the {sym} to capture the {_point_name(caught[0], trump)}"
        if is_trump and suit != led:
            return f"trump with the {sym}: the trick holds {on_table} for Game" if on_table else (
                f"trump with the {sym} to take the lead")
        if on_table:
            return f"take the trick with the {sym}: {on_table} for Game is on the table"
        return f"win with the {sym}" + (", the cheapest card that wins" if last else "")
    if partner and tb.special >> card & 1 and card != tb.jack:
        return f"give the {sym} to your partner's trick: its point is safe there"
    if partner and COUNT[card] > 0:
        return f"give the {sym} to your partner's trick for Game"
    if rank == _TEN or (is_trump and rank == _JACK) or tb.special >> card & 1:
        return f"play the {sym}"
    keep = "; keep the counting cards" if COUNT[card] == 0 else ""
    if partner:
        return f"play low with the {sym}: your partner has the trick{keep}"
    return f"duck with the {sym}: the trick is lost{keep}"
