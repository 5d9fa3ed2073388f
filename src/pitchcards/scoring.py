"""Scoring one hand: High, Low, Jack and Game (C10), make or set (A-R6, B-R6), per side.

A *side* is a seat, or in partnerships a team (0 for seats 0 and 2, 1 for seats 1 and 3; with
three teams of six players, team t is seats t and t + 3: TT1).
The ten-point family (T7) adds the off-jack, the jokers and the three of trumps, found by the
deck model's trump order instead of bit positions.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Final

from ._fast import class_options
from .cards import HIGH_JOKER, LOW_JOKER, SUIT_MASKS, SUITS, card_name, game_count
from .deck import DeckModel, deck_model, off_jack_of
from .rules import RuleSet

__all__ = ["HandResult", "RuleValues", "contract_result", "extra_point_cards", "game_point",
           "rule_values", "score_hand"]

_JACK_RANK = 9

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr
globals().setdefault("mypyc_attr", class_options)  # (_fast.class_options says why)


class RuleValues:
    """The options and derived values of a :class:`RuleSet` that every hand reads, copied once
    per rule set (issue 35): a RuleSet is an interpreted frozen dataclass, so each of its
    options is a generic attribute lookup on the hot path and each derived value
    (``max_bid``, ``moon_bid`` …) an interpreted property; these are plain attributes of a
    class the compiled build compiles.  Values only, under the RuleSet's own names: every rule
    that reads them is stated where it was (``hand``, this module), and each derived value is
    the RuleSet property's own answer.  Get one with :func:`rule_values`.
    """

    __slots__ = (  # noqa: RUF023 (the RuleSet's order)
        "rules", "model", "teams", "player_range", "follow_rule", "moon", "trump_selection",
        "hand_size", "auction", "pass_is_final", "min_bid", "max_bid", "all_pass",
        "dealer_steal", "pitch_as_bid_4", "declares_trump", "calls_partner", "moon_bid",
        "moon_must_be_bid", "moon_value", "moon_fail_points", "pitcher_set_keeps_points",
        "low_to", "extra_points")

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.model: DeckModel = deck_model(rules)
        self.teams: int = rules.teams
        self.player_range: tuple[int, int] = rules.player_range
        self.follow_rule: str = rules.follow_rule
        self.moon: str = rules.moon
        self.trump_selection: str = rules.trump_selection
        self.hand_size: int = rules.hand_size
        self.auction: str = rules.auction
        self.pass_is_final: bool = rules.pass_is_final
        self.min_bid: int = rules.min_bid
        self.max_bid: int = rules.max_bid
        self.all_pass: str = rules.all_pass
        self.dealer_steal: str = rules.dealer_steal
        self.pitch_as_bid_4: bool = rules.pitch_as_bid_4
        self.declares_trump: bool = rules.declares_trump
        self.calls_partner: bool = rules.calls_partner
        #: ``rules.moon_bid``, or -1 where that is None (no contract is -1: the comparison
        #: ``contract == moon_bid`` answers the same, with no boxed None in the compiled build)
        moon_bid = rules.moon_bid
        self.moon_bid: int = -1 if moon_bid is None else moon_bid
        self.moon_must_be_bid: bool = rules.moon_must_be_bid
        self.moon_value: int = rules.moon_value
        self.moon_fail_points: int = rules.moon_fail_points
        self.pitcher_set_keeps_points: bool = rules.pitcher_set_keeps_points
        self.low_to: str = rules.low_to
        self.extra_points: str = rules.extra_points

    def __reduce__(self) -> tuple[Callable[[RuleSet], RuleValues], tuple[RuleSet]]:
        """Copied and pickled as the values of its rule set (a copy of a hand, deep or not,
        reads its own rule set's; mypyc's blank instance would run ``__init__`` without one)."""
        return rule_values, (self.rules,)


_VALUES: Final[dict[int, RuleValues]] = {}


def rule_values(rules: RuleSet) -> RuleValues:
    """The :class:`RuleValues` of ``rules``, made once per rule set (a hand is dealt and
    scored thousands of times a second in search; a RuleSet's own hash reads every option).

    Keyed by ``id(rules)``; the entry holds the rule set itself, so the id cannot be reused
    while the entry lives (and a stale id is caught by the ``is`` check).
    """
    entry = _VALUES.get(id(rules))
    if entry is None or entry.rules is not rules:
        if len(_VALUES) >= 256:
            _VALUES.clear()
        entry = RuleValues(rules)
        _VALUES[id(rules)] = entry
    return entry


# issue 35: an ordinary Python class in the compiled build too.  Compiled, it was a native class
# whose dataclass __init__ (made at run time, interpreted) set every field through the native
# class's descriptors: twice the pure build's time, the most expensive step of scoring.  (A
# compiled __init__ of its own was tried: mypyc's __new__ then runs __init__, so copy and
# pickle, which make a blank instance, failed.)
@mypyc_attr(native_class=False)
@dataclasses.dataclass(slots=True)
class HandResult:
    """The outcome of one hand.  Sides are seats, or teams in partnerships.

    Read-only by convention (not ``frozen``: a frozen dataclass costs a third of a random hand
    to build, and every hand builds one).
    """

    pitcher: int | None          #: seat of the pitcher (None: thrown in, all passed)
    bid: int | str | None        #: the contract: 1..4, "moon", 0 (no contract), None (thrown in)
    made: bool                   #: the pitcher's side made the contract
    moon: bool                   #: a moon (smudge) was made (A-R6.4: it must have been bid)
    high: int | None             #: side that scored High, Low, Jack, Game (None: nobody)
    low: int | None
    jack: int | None
    game: int | None
    points: tuple[int, ...]      #: hand points won per side (0..4)
    deltas: tuple[int, ...]      #: score change per side
    tricks: tuple[int, ...] = ()       #: tricks won per side
    game_counts: tuple[int, ...] = ()  #: C8 game count per side
    trump: str | None = None
    high_card: str | None = None
    low_card: str | None = None
    jack_card: str | None = None
    pitcher_side: int | None = None
    thrown_in: bool = False      #: everyone passed under all_pass="redeal"
    #: T7: the ten-point family's other points as (name, side or None, value), e.g.
    #: ``("Off-jack", 1, 1)``, ``("Three", None, 3)`` (None: not in play); empty otherwise.
    extra: tuple[tuple[str, int | None, int], ...] = ()
    #: CP3: the card the pitcher called (call-your-partner), else None.
    called: str | None = None
    #: CP5: the seat that held it, the pitcher's partner (the pitcher itself when it called its
    #: own card; None when nobody was dealt it, CP4, or there was no call).
    partner: int | None = None

    @classmethod
    def thrown_in_result(cls, sides: int) -> HandResult:
        zero = (0,) * sides
        return cls(pitcher=None, bid=None, made=False, moon=False, high=None, low=None,
                   jack=None, game=None, points=zero, deltas=zero, tricks=zero,
                   game_counts=zero, thrown_in=True)

    @property
    def moon_bid(self) -> bool:
        return self.bid == "moon"

    def summary(self, side_name: Callable[[int], str] | None = None,
                seat_name: Callable[[int], str] | None = None, trump: str | None = None) -> str:
        """One line: who bid what, made or set, who took each point, each side's change.

        ``side_name`` and ``seat_name`` name a side and a seat (default ``side 2``,
        ``seat 2``; sides are seats, or teams 0 and 1 in partnerships); ``trump`` is how to
        write the trump suit (default its letter)."""
        if self.thrown_in:
            return "all passed: thrown in"
        side = side_name or (lambda v: f"side {v}")
        seat = seat_name or (lambda v: f"seat {v}")
        nobody = {"High": "none", "Low": "none", "Jack": "not out", "Game": "tied"}
        got = ", ".join(f"{point} {nobody[point] if v is None else side(v)}"
                        for point, v in zip(nobody, (self.high, self.low, self.jack,
                                                     self.game), strict=True))
        for name, v, _ in self.extra:
            got += f", {name} {'not out' if v is None else side(v)}"
        outcome = "made" if self.made else "set"
        moon = " (moon!)" if self.moon else ""
        changes = ", ".join(f"{side(s)} {d:+d}" for s, d in enumerate(self.deltas))
        pitcher = seat(self.pitcher) if self.pitcher is not None else "nobody"
        return (f"{pitcher} bid {self.bid} in {trump or self.trump}: {outcome}{moon}; "
                f"{got}; {changes}")


def score_hand(rules: RuleSet, dealer: int, pitcher: int | None, contract: int | None,
               sides: Sequence[int], dealt: Sequence[int], captured: Sequence[int],
               tricks_won: Sequence[int], trump: int, model: DeckModel | None = None
               ) -> HandResult:
    """Score a finished hand from who held (was dealt and kept: T4) and who captured which
    cards."""
    assert pitcher is not None and contract is not None and trump >= 0
    # (as tuples, which the compiled build indexes without a generic lookup; a tuple is not
    # copied)
    side_of, held = tuple(sides), tuple(dealt)
    n = len(held)
    nsides = 0  # seats, or teams 0..1 (2x2) / 0..2 (3x2, TT1): the highest side + 1
    for side in side_of:  # (a loop, not max(): compiled, a call of the builtin cost more)
        if side >= nsides:
            nsides = side + 1
    points = [0] * nsides
    in_play = 0
    for m in held:
        in_play |= m
    values = rule_values(rules)
    if model is None:
        model = values.model
    if model.classic:
        trumps = in_play & SUIT_MASKS[trump]  # C9/E2: extremes among dealt trumps only
        high_card = trumps.bit_length() - 1
        low_card = (trumps & -trumps).bit_length() - 1
    else:
        # T3, T7: the highest and lowest trumps in play by the trump order (a joker or the
        # off-jack can be either when nothing beyond it is in play).
        # T4: every trump may have been discarded; then nobody scores High or Low.
        in_order = [c for c in model.trump_order[trump] if in_play >> c & 1] or [-1]
        low_card, high_card = in_order[0], in_order[-1]
    high_bit = 1 << high_card if high_card >= 0 else 0
    low_bit = 1 << low_card if low_card >= 0 else 0
    jack_card = trump * 13 + _JACK_RANK
    jack_bit = 1 << jack_card
    high = low = -1
    jack: int | None = None
    low_by_holder = values.low_to == "holder"
    counts = [0] * nsides
    side_tricks = [0] * nsides
    for s in range(n):
        side = side_of[s]
        if held[s] & high_bit:
            high = side  # C10 / B-R7.1: the holder, who is also the capturer
        pile = captured[s]
        if (held[s] if low_by_holder else pile) & low_bit:
            low = side  # B-R7.2: capturer by default, holder as an option
        if pile & jack_bit:
            jack = side  # B-R6.3 / E16: nobody scores a Jack that was not dealt
        # (``x[i] = x[i] + …``, not ``+=``: the compiled build keeps these int operations)
        counts[side] = counts[side] + game_count(pile)
        side_tricks[side] = side_tricks[side] + tricks_won[s]
    if high >= 0:
        points[high] = points[high] + 1
        points[low] = points[low] + 1
    if jack is not None:
        points[jack] = points[jack] + 1
    game = game_point(rules, counts, side_of, dealer, side_of[pitcher])
    if game is not None:
        points[game] = points[game] + 1
    extra = (() if values.extra_points == "none" else
             _extra_points(rules, trump, in_play, captured, side_of, points))

    pside = side_of[pitcher]
    return contract_result(
        rules, pitcher, contract, pside, points, side_tricks[pside] == 6,
        high if high >= 0 else None, low if low >= 0 else None, jack, game,
        tuple(side_tricks), tuple(counts), SUITS[trump],
        card_name(high_card) if high >= 0 else None,
        card_name(low_card) if low >= 0 else None,
        card_name(jack_card) if jack is not None else None, extra)


def extra_point_cards(rules: RuleSet, trump: int) -> list[tuple[str, int, int]]:
    """T7: (name, card, points) of each extra point card under these rules when ``trump`` is
    trump: the off-jack and each joker 1, the three of trumps 3; none without extra points.
    The one statement of which cards score besides the Jack (the bots read it too)."""
    if rules.extra_points == "none":
        return []
    cards: list[tuple[str, int, int]] = []
    if rules.off_jack:
        cards.append(("Off-jack", off_jack_of(trump), 1))
    if rules.deck == 53:
        cards.append(("Joker", LOW_JOKER, 1))
    elif rules.deck == 54:
        cards += [("High joker", HIGH_JOKER, 1), ("Low joker", LOW_JOKER, 1)]
    if rules.extra_points == "off_jack_jokers_three":
        cards.append(("Three", trump * 13 + 1, 3))
    return cards


def _extra_points(rules: RuleSet, trump: int, in_play: int, captured: Sequence[int],
                  sides: Sequence[int], points: list[int]
                  ) -> tuple[tuple[str, int | None, int], ...]:
    """T7: the off-jack, each joker (1 each) and the three of trumps (3) to their capturer;
    adds them to ``points`` and returns who took each (None: not in play)."""
    extra: list[tuple[str, int | None, int]] = []
    for name, card, value in extra_point_cards(rules, trump):
        taker = None
        if in_play >> card & 1:
            for s, pile in enumerate(captured):
                if pile >> card & 1:
                    taker = sides[s]
                    points[taker] += value
                    break
        extra.append((name, taker, value))
    return tuple(extra)


def contract_result(rules: RuleSet, pitcher: int, contract: int, pside: int,
                    points: Sequence[int], swept: bool, high: int | None, low: int | None,
                    jack: int | None, game: int | None, tricks: tuple[int, ...] = (),
                    game_counts: tuple[int, ...] = (), trump: str | None = None,
                    high_card: str | None = None, low_card: str | None = None,
                    jack_card: str | None = None,
                    extra: tuple[tuple[str, int | None, int], ...] = ()) -> HandResult:
    """Make or set, moon, and each side's score change, from the points each side won.

    The one place a contract is judged: a played hand (:func:`score_hand`, from its cards) and
    a hand entered by its outcome (:mod:`pitchcards.outcome`) both end here.  ``points`` are
    per side; ``swept``: the pitcher's side took all six tricks; ``high`` … ``game`` are the
    sides that took each point (None: nobody, or not known when points were entered directly).
    """
    values = rule_values(rules)  # the options below, read once per rule set (issue 35)
    moon_bid = values.moon_bid  # -1 in the ten-point family: a bid of 5 is five points (T8)
    sweep = points[pside] == 4 and swept
    # A-R6.2: a moon needs all four points and all six tricks.
    made = sweep if contract == moon_bid else points[pside] >= contract
    moon = made and (contract == moon_bid or (not values.moon_must_be_bid and sweep))
    deltas = list(points)
    if made:
        if contract == moon_bid:
            deltas[pside] = values.moon_value
    else:
        # A-R6.3 / B-R6.5 / E20: a set pitcher loses the bid and scores nothing it won.
        penalty = values.moon_fail_points if contract == moon_bid else contract
        deltas[pside] = -penalty + (points[pside] if values.pitcher_set_keeps_points else 0)
    # The fields in their order, not by name: the compiled build passes keywords to a Python
    # class through a dict, which cost more than the rest of scoring (issue 35).
    return HandResult(
        pitcher, "moon" if contract == moon_bid else contract, made, moon,  # pitcher … moon
        high, low, jack, game, tuple(points), tuple(deltas),  # high … deltas
        tricks, game_counts, trump, high_card, low_card, jack_card,  # tricks … jack_card
        pside, False, extra)  # pitcher_side, thrown_in, extra


def game_point(rules: RuleSet, counts: list[int], sides: Sequence[int], dealer: int,
                pitcher_side: int) -> int | None:
    """C10 / B-R6.2: the game point goes to a strict plurality; ties per ``game_tie``."""
    best = 0
    first = ties = 0
    for s, count in enumerate(counts):  # max(counts) and who has it, without the builtin's
        if count > best:                # call or a list of the tied in the compiled build
            best, first, ties = count, s, 1
        elif count == best:
            ties += 1
    if best == 0:
        return None  # E17: nobody holds any game count
    if ties == 1:
        return first
    tied = [s for s, c in enumerate(counts) if c == best]
    if rules.game_tie == "elder_hand":
        # H6: the elder hand (first from the dealer's left) among those tied.
        n = len(sides)
        for k in range(1, n + 1):
            side = sides[(dealer + k) % n]
            if side in tied:
                return side
    if rules.game_tie == "pitcher" and pitcher_side in tied:
        return pitcher_side
    return None
