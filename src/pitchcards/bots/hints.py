"""Hints: the expert's choice for a seat, with a short reason a person can read.

    action, reason = suggest(view)

The reason is built from the expert's analysis (how much better the choice is than the
alternatives) and from the situation: what the card does for High, Low, Jack and Game, or why a
bid looks safe.
"""

from __future__ import annotations

from ..actions import Action
from ..cards import GAME_VALUE, SUITS, card_strength, card_symbol, trick_winner
from ..views import View
from .expert import HARD, Budget, ExpertBot
from .sampler import suit_strength

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
        return compare_bids(analysis.points)
    return analysis.best, explain(view, analysis.best, analysis.values)


def compare_bids(points: dict[Action, float], shown: int = 4) -> tuple[Action, str]:
    """The candidate with the best expected net score change, and the comparison: "expected
    net score change: bid 2 +1.1, pass -0.3, bid 3 -0.8" (the best ``shown`` candidates)."""
    ranked = sorted(points, key=lambda a: (-points[a], int(a)))
    best = ranked[0]
    terms = ", ".join(f"{_bid_label(a)} {points[a]:+.1f}" for a in ranked[:shown])
    more = f" (and {len(ranked) - shown} more)" if len(ranked) > shown else ""
    return best, f"expected net score change: {terms}{more}"


def _bid_label(action: Action) -> str:
    if action.kind == "pitch":
        assert action.card is not None
        return f"pitch {card_symbol(action.card)}"
    if action.kind == "pass":
        return "pass"
    return "bid moon" if action.bid == 5 else f"bid {action.bid}"


def _trump_index(view: View) -> int:
    return SUITS.index(view.trump) if view.trump is not None else -1


def explain(view: View, action: Action, values: dict[Action, float]) -> str:
    """A short reason for ``action`` in ``view`` (``values``: the candidates' mean values)."""
    if len(view.legal_actions) == 1:
        what = card_symbol(action) if action.kind == "play" else str(action)
        return f"{what}: the only legal choice"
    if view.phase == "auction":
        return _explain_bid(view, action, values)
    return _explain_play(view, action)


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
    card = int(action)
    sym = card_symbol(card)
    suit, rank = card // 13, card % 13
    trump = _trump_index(view)
    n = view.players
    if trump < 0:
        return f"lead the {sym}: it makes {('♣', '♦', '♥', '♠')[suit]} trump, your best suit"
    is_trump = suit == trump
    dealt_trumps = ((0x1FFF << (13 * trump)) & ~view.played_mask & ~view.hand_mask)
    higher_out = dealt_trumps >> card if is_trump else 0
    if not view.trick:
        if is_trump and not higher_out:
            if view.side_of(view.seat or 0) == view.side_of(view.pitcher or 0):
                return f"lead the {sym} to fix High and draw trumps"
            return f"lead the {sym}: it is the top trump left, it cannot lose"
        if is_trump:
            return f"lead the {sym} to draw out the opponents' trumps"
        if rank == 12:
            return f"cash the {sym} while it still wins"
        if GAME_VALUE[rank] == 0:
            return f"lead the {sym}: a cheap card that gives nothing away"
        return f"lead the {sym}"
    led = view.trick[0][1] // 13
    best_seat, best = view.trick[trick_winner([c for _, c in view.trick], trump)]
    wins = card_strength(card, trump, led) > card_strength(best, trump, led)  # C7
    partner = (view.rules.partnership_mode and view.seat is not None
               and best_seat % 2 == view.seat % 2)
    on_table = sum(GAME_VALUE[c % 13] for _, c in view.trick)
    last = len(view.trick) == n - 1
    jack_on = any(c == trump * 13 + _JACK for _, c in view.trick)
    if wins:
        if jack_on:
            return f"win with the {sym} to capture the Jack"
        if is_trump and suit != led:
            return f"trump with the {sym}: the trick holds {on_table} for Game" if on_table else (
                f"trump with the {sym} to take the lead")
        if on_table:
            return f"take the trick with the {sym}: {on_table} for Game is on the table"
        return f"win with the {sym}" + (", the cheapest card that wins" if last else "")
    if partner and GAME_VALUE[rank] > 0:
        return f"give the {sym} to your partner's trick for Game"
    if rank == _TEN or (is_trump and rank == _JACK):
        return f"play the {sym}"
    keep = "; keep the counting cards" if GAME_VALUE[rank] == 0 else ""
    if partner:
        return f"play low with the {sym}: your partner has the trick{keep}"
    return f"duck with the {sym}: the trick is lost{keep}"
