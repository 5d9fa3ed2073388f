"""Hints: the expert's choice for a seat, the numbers it was made on, and a short reason.

    h = hint(view)                  # structured: h.action, h.options, h.text()
    action, reason = suggest(view)  # the same as one sentence

Every candidate the expert weighed is shown in one unit, the expected net score change: your
side's points minus the best other side's, over the sampled deals (in the money game the change
against the table's mean, what the expert plays for there).  In a match the expert chooses by
its chance to win the match, so each candidate's chance is shown too, and a choice that is not
the best by points says why ("-0.2 points, but your chance to win the match goes from 41% to
48%").  The words only describe the chosen action (what a card does for High, Low, Jack and
Game, which points a suit holds): they carry no number of their own, so they cannot disagree
with the numbers that made the choice (issue 14, item 4).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from dataclasses import dataclass

from ..actions import Action
from ..cards import SUITS, card_symbol
from ..rules import RuleSet
from ..views import View
from . import ten_point
from .expert import HARD, Budget, ExpertBot
from .sampler import suit_strength
from .tables import COUNT, tables
from .utility import Utility

__all__ = ["HINT_LIMIT", "Hint", "Option", "action_label", "compare_bids", "explain", "hint",
           "suggest"]

_JACK, _TEN = 9, 8
#: The longest reason :func:`suggest` gives: the terminal game shows "Hint: <action> — <reason>"
#: on two lines of a 78-column message area (an 80-column terminal less its padding).
HINT_LIMIT = 128
#: What the numbers are, by what the expert plays for (:class:`~.utility.Utility`'s modes).
_HEADERS = {"points": "expected net score change",
            "money": "expected gain against the table",
            "match": "expected net score change (match chance)"}


@dataclass(frozen=True, slots=True)
class Option:
    """One candidate the expert weighed: its expected net score change and, in a match, its
    chance to win the match (0..1)."""

    action: Action
    label: str                    #: "bid 2", "pass", "pitch A♠", "J♠", "♠" (a trump to name)
    points: float
    chance: float | None = None

    def numbers(self) -> str:
        """"+1.1" or, in a match, "+1.1 (55%)"."""
        pct = f" ({_pct(self.chance)})" if self.chance is not None else ""
        return f"{self.points:+.1f}{pct}"

    def term(self) -> str:
        """"bid 2 +1.1" or, in a match, "bid 2 +1.1 (55%)"."""
        return f"{self.label} {self.numbers()}"


@dataclass(frozen=True, slots=True)
class Hint:
    """The expert's choice and the numbers it was made on.

    ``options`` holds every candidate weighed, the chosen one first, then the others best
    first by what the choice was made on (``basis``: "points", "money" or "match"; "forced"
    when there was no choice).  ``why`` is set when the chosen option is not the best by the
    numbers shown (a match-aware choice, or the expert keeping its usual choice because the
    difference is within the sampling noise); ``rival`` is the option it is compared with."""

    action: Action
    words: str
    options: tuple[Option, ...] = ()
    basis: str = "forced"
    why: str = ""
    rival: Option | None = None

    @property
    def chosen(self) -> Option | None:
        return self.options[0] if self.options else None

    def text(self, limit: int = HINT_LIMIT) -> str:
        """The hint in a sentence or two of at most ``limit`` characters where it can be:
        the words, then the numbers; fewer candidates are listed to fit (never fewer than two,
        a number is a reason only next to another).  When the numbers put another option above
        the chosen one, ``why`` says why, with both options' numbers."""
        if not self.options:
            return self.words
        if self.why:
            rest = [o for o in self.options[1:] if o != self.rival]
            return _fit(f"{self.words}; {self.why}", "others", rest, 0, limit)
        return _fit(self.words, _HEADERS[self.basis], list(self.options), 2, limit)


def _fit(head: str, title: str, listed: list[Option], least: int, limit: int) -> str:
    """``head``, then "<title>: <term>, <term>…" with as many of ``listed`` (up to 4, at least
    ``least``) as keep it within ``limit`` characters."""
    out = head
    for shown in range(min(4, len(listed)), least - 1, -1):
        terms = ", ".join(o.term() for o in listed[:shown])
        out = f"{head}; {title}: {terms}" if terms else head
        if len(out) <= limit:
            break
    return out


def hint(view: View, budget: Budget | None = None, seed: int | None = 0) -> Hint:
    """The expert's choice for ``view`` (it must be the seat's turn) with every candidate it
    weighed, in the numbers the choice was made on."""
    budget = budget if budget is not None else HARD
    # one seed for both analyses below, so that they sample the same deals
    seed = seed if seed is not None else random.randrange(1 << 31)
    analysis = ExpertBot(seed, budget).analyse(view)
    words = explain(view, analysis.best)
    if analysis.method == "forced":
        return Hint(analysis.best, words)
    basis = _basis(view)
    if basis == "match":
        points = analysis.points or _margins(view, budget, seed)
        return _weighed(view, analysis.best, words, basis, points, analysis.values)
    # points and money: the expert's values are already the numbers shown
    return _weighed(view, analysis.best, words, basis, analysis.values, analysis.values)


def suggest(view: View, budget: Budget | None = None, seed: int | None = 0,
            limit: int = HINT_LIMIT) -> tuple[Action, str]:
    """The expert's action for ``view`` and why, in a sentence (:func:`hint`'s text)."""
    h = hint(view, budget, seed)
    return h.action, h.text(limit)


def _basis(view: View) -> str:
    """What the expert plays for in this view: "match", "money" or "points"."""
    assert view.seat is not None
    return Utility(view.rules, view.side_of(view.seat), view.players, view.scores).mode


def _margins(view: View, budget: Budget, seed: int) -> dict[Action, float]:
    """Each candidate's expected point margin when the match-aware analysis has none (the exact
    solver ran): the same analysis, same seed and so the same deals, without the scores, so that
    the expert values hands by their point margin."""
    return ExpertBot(seed, budget).analyse(dataclasses.replace(view, scores=None)).values


def _weighed(view: View, best: Action, words: str, basis: str, points: Mapping[Action, float],
             values: Mapping[Action, float]) -> Hint:
    """The hint from each candidate's numbers (``values``: the expert's own, which it chose
    by): the chosen one first, the rest ranked."""
    match = basis == "match"
    opts = [Option(a, action_label(view, a), points[a],
                   min(max(values[a], 0.0), 1.0) if match else None) for a in values]
    chosen = next(o for o in opts if o.action == best)
    rest = sorted((o for o in opts if o.action != best), key=_rank)
    why, rival = _why(chosen, rest, values)
    return Hint(best, words, (chosen, *rest), basis, why, rival)


def _rank(o: Option) -> tuple[float, float, int]:
    """Best first: by match chance where there is one, then by points."""
    return (-(o.chance if o.chance is not None else 0.0), -o.points, int(o.action))


def _why(chosen: Option, rest: list[Option],
         values: Mapping[Action, float]) -> tuple[str, Option | None]:
    """Why ``chosen`` is the hint when the numbers shown put another option above it, and that
    option (none when they do not)."""
    if not rest:
        return "", None
    top = max(rest, key=lambda o: values[o.action])
    if values[top.action] > values[chosen.action] + 1e-9:
        # the ten-point guard (Budget.ten_point_guard): the rollout policy's choice stands
        # unless another beats it by more than the sampling noise
        return f"{chosen.term()}, {top.term()}: the gap is within the sampling noise", top
    by_points = max(rest, key=lambda o: (o.points, -int(o.action)))
    if chosen.chance is None or by_points.chance is None \
            or not _above(by_points.points, chosen.points, 1):
        return "", None
    # chosen by its match chance, which is then at least the rival's: a higher one, or the
    # same when the points it gives up only count in deals where the match is decided anyway
    before, after = _pct_pair(by_points.chance, chosen.chance)
    lead = f"{chosen.points:+.1f} points ({by_points.label} {by_points.points:+.1f}), but"
    if before == after:
        return f"{lead} the same chance to win the match ({after})", by_points
    return f"{lead} your chance to win the match goes from {before} to {after}", by_points


def _above(x: float, y: float, digits: int) -> bool:
    """Whether ``x`` shows as more than ``y`` when both are rounded to ``digits``."""
    return round(x, digits) > round(y, digits)


def _pct(chance: float, digits: int = 0) -> str:
    return f"{100 * chance:.{digits}f}%"


def _pct_pair(before: float, after: float) -> tuple[str, str]:
    """Two chances in as few digits as show them apart ("41%", "48%"; "48.0%", "48.2%"), or
    twice the same text when one decimal does not."""
    digits = 0
    while digits < 1 and _pct(before, digits) == _pct(after, digits):
        digits += 1
    return _pct(before, digits), _pct(after, digits)


def compare_bids(points: dict[Action, float], shown: int = 4,
                 rules: RuleSet | None = None) -> tuple[Action, str]:
    """The candidate with the best expected net score change, and the comparison: "expected
    net score change: bid 2 +1.1, pass -0.3, bid 3 -0.8" (the best ``shown`` candidates).
    A points-only comparison: :func:`hint` is what the expert chooses by."""
    moon = 5 if rules is None else rules.moon_bid  # T8: no moon in the ten-point family
    ranked = sorted((Option(a, _bid_label(a, moon), v) for a, v in points.items()), key=_rank)
    terms = ", ".join(o.term() for o in ranked[:shown])
    more = f" (and {len(ranked) - shown} more)" if len(ranked) > shown else ""
    return ranked[0].action, f"{_HEADERS['points']}: {terms}{more}"


def action_label(view: View, action: Action) -> str:
    """A candidate in the list of numbers: "bid 2", "pass", "pitch A♠", "J♠", "♠"."""
    if view.phase == "auction":
        return _bid_label(action, view.rules.moon_bid)
    if action.kind == "trump":
        assert action.suit is not None
        return _SYMS[action.suit]
    assert action.card is not None
    return card_symbol(action.card)


def _bid_label(action: Action, moon: int | None = 5) -> str:
    if action.kind == "pitch":
        assert action.card is not None
        return f"pitch {card_symbol(action.card)}"
    if action.kind == "pass":
        return "pass"
    return "bid moon" if action.bid == moon else f"bid {action.bid}"


def _trump_index(view: View) -> int:
    return SUITS.index(view.trump) if view.trump is not None else -1


def explain(view: View, action: Action) -> str:
    """What ``action`` does in ``view``, in words and without numbers (the numbers are the
    hint's, :func:`hint`)."""
    if len(view.legal_actions) == 1:
        what = card_symbol(action.card) if action.card is not None and action.kind == "play" \
            else str(action)
        return f"{what}: the only legal choice"
    if view.phase == "auction":
        if view.rules.points_total != 4:
            return _explain_ten_bid(view, action)
        return _explain_bid(view, action)
    if view.phase == "declare":
        return _explain_trump(view, action)
    if view.phase == "discard":
        return _explain_discard(view, action)
    return _explain_play(view, action)


_SYMS = ("♣", "♦", "♥", "♠")
_POINT_NAMES = {1: "Three", 9: "Jack"}


def _likely_points(hand: int, rules: RuleSet, suit: int, players: int) -> str:
    """The points that look likely (chance ≥ 0.6) with ``suit`` trump, in words (T7: High, Low,
    the capture cards, Game)."""
    pts = ten_point.estimate(hand, suit, rules, players)
    names = ["High", "Low", *[_point_name(c, suit) for c, _ in ten_point.point_cards(rules, suit)],
             "Game"]
    likely = [n for n, (_, p) in zip(names, pts, strict=True) if p >= 0.6]
    if not likely:
        return "no point is sure"
    return ", ".join(likely) + (" looks" if len(likely) == 1 else " look") + " likely"


def _point_name(card: int, trump: int) -> str:
    if card >= 52:
        return "High joker" if card == 53 else "Low joker"
    if card // 13 != trump:
        return "Off-jack"
    return _POINT_NAMES.get(card % 13, "Jack")


def _explain_ten_bid(view: View, action: Action) -> str:
    """T8: a ten-point bid, with the points its best suit looks likely to take."""
    if action.kind == "pass":
        return "pass"
    suit, _ = ten_point.best_suit(view.hand_mask, view.rules, view.players)
    likely = _likely_points(view.hand_mask, view.rules, suit, view.players)
    return f"bid {action.bid} in {_SYMS[suit]}: {likely}"


def _explain_trump(view: View, action: Action) -> str:
    """T5: why this suit is named trump."""
    suit = action.suit
    assert suit is not None
    held = (view.hand_mask & tables(view.rules, suit).tmask).bit_count()
    likely = _likely_points(view.hand_mask, view.rules, suit, view.players)
    return f"name {_SYMS[suit]} trump: {held} trumps, {likely}"


def _explain_bid(view: View, action: Action) -> str:
    """A four-point bid or pitch: the suit it would be played in and the points that look safe
    there (High, Low, Jack held)."""
    if action.kind == "pass":
        return "pass"
    hand = view.hand_mask
    if action.kind == "pitch":
        assert action.card is not None  # the pitched card's suit is trump
        suit = action.card // 13
        what = f"pitch the {card_symbol(action.card)} (a bid of 4)"
    else:
        suit = max(range(4), key=lambda s: suit_strength(hand, s, view.players))
        what = f"{_bid_label(action, view.rules.moon_bid)} in {_SYMS[suit]}"
    tmask = hand >> (13 * suit) & 0x1FFF
    held = [name for name, has in (("High", tmask >> 12 & 1), ("Low", tmask & 0b11),
                                   ("Jack", tmask >> _JACK & 1)) if has]
    if not held:
        return what
    look = "looks safe" if len(held) == 1 else "look safe"
    return f"{what}: {' and '.join(held)} {look}"


def _explain_discard(view: View, action: Action) -> str:
    """T4: why this card goes (face down, out of play)."""
    card = action.card
    assert card is not None and view.trump is not None
    trump = SUITS.index(view.trump)
    tb = tables(view.rules, trump)
    sym = card_symbol(card)
    if tb.suit_of[card] == trump:
        return f"discard the {sym}: over six trumps, the lowest that scores nothing"
    if COUNT[card]:
        return f"discard the {sym}: the rest are trumps or worth more to keep"
    return f"discard the {sym}: low, outside trumps, it scores nothing"


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
               and view.side_of(best_seat) == view.side_of(view.seat))
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
