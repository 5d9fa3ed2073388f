"""Rules as data: :class:`RuleSet` (a frozen, validated dataclass) and the named variants.

Option names and values follow RULES §7 (``docs/rules.md`` lists every one with its default per
variant).  Variants are rows of data, not subclasses (python-chess's ``VARIANTS``)::

    rules = find_variant("auction").replace(low_to="holder")
"""

from __future__ import annotations

import contextlib
import dataclasses
import re
from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any, ClassVar

from .errors import IllegalActionError, OptionError, shown

__all__ = ["MOON", "VARIANTS", "RuleSet", "bid_text", "find_variant", "first_to_bid", "parse_money"]

#: Internal value of the moon / smudge bid: one step above 4.
MOON = 5
#: The longest name of a rule set (it is written into game records).
NAME_LIMIT = 40

_CHOICES: dict[str, tuple[Any, ...]] = {
    "partnership": ("off", "2x2", "3x2", "call"),
    "deal_batch": (1, 2, 3),
    "first_dealer": ("random", "cut"),
    "auction": ("single_round", "continuous"),
    "min_bid": tuple(range(1, 11)),
    "moon": ("none", "moon", "smudge", "smudge_wins"),
    "moon_fail_points": (4, 5),
    "all_pass": ("force_dealer_exact2", "force_dealer_atleast2", "redeal",
                 "eldest_pitches_no_contract"),
    "dealer_steal": ("none", "equal_below_max", "equal_any_incl_pitched"),
    "trump_selection": ("first_lead", "declare_then_lead_any", "declare_then_lead_trump"),
    "follow_rule": ("trump_anytime", "strict_follow", "follow_trump_only"),
    "low_to": ("capturer", "holder"),
    "high_to": ("holder",),
    "jack_not_dealt": ("no_point",),
    "game_tie": ("no_point", "elder_hand", "pitcher"),
    "win_rule": ("bidder_goes_out", "first_to_target_HLJG_order", "pitcher_counted_first",
                 "higher_score"),
    "money": ("none", "per_point_vs_average", "per_point_flat"),
    "average_mode": ("per_hand", "snapshot"),
    "join_leave": ("between_hands", "never"),
    "join_score": ("zero", "table_average"),
    # The ten-point family (T1–T8).
    "deck": (52, 53, 54),
    "extra_points": ("none", "off_jack_jokers", "off_jack_jokers_three"),
    "hand_size": (6, 7, 8, 9),
    # Call-your-partner (CP3, CP4, CP6).
    "call_rule": ("not_own", "alone_allowed"),
    "called_not_dealt": ("alone",),
    "call_set": ("both", "pitcher_only"),
    "call_defenders": ("each", "side"),
}
_BOOLS = ("allow_two_players", "pass_is_final", "pitch_as_bid_4", "moon_must_be_bid",
          "pitcher_set_keeps_points", "win_requires_made_bid", "off_jack")
_MONEY = ("stake_per_point", "moon_payment")
# Spellings accepted by replace() besides the canonical ones (RULES uses both in places).
_VALUE_ALIASES: dict[str, dict[Any, Any]] = {
    "partnership": {False: "off", True: "2x2", "none": "off", "on": "2x2", "partners": "2x2"},
    "join_score": {0: "zero", "0": "zero", "average": "table_average"},
    "all_pass": {"exact2": "force_dealer_exact2", "at_least2": "force_dealer_atleast2",
                 "atleast2": "force_dealer_atleast2"},
}
#: Teams per ``partnership`` value (0: each for themselves) and the table each needs (B-R1.3,
#: T10): two teams of two at four seats, three teams of two at six.  Call-your-partner has no
#: fixed teams: each seat is its own side of the match, the partner is called each hand (CP1).
_TEAMS = {"off": 0, "2x2": 2, "3x2": 3, "call": 0}
#: CP1: call-your-partner is for exactly five players.
CALL_PLAYERS = 5
_BID_VALUES = {
    "1-4": (1, "none"), "2-4": (2, "none"), "3-4": (3, "none"), "4": (4, "none"),
    "2-4+moon": (2, "moon"), "2-4+smudge": (2, "smudge"),
}


def first_to_bid(dealer: int, players: int) -> int:
    """A-R4.2, B-R4.1: the player left of the dealer bids first."""
    return (dealer + 1) % players


def trick_seats(leader: int, count: int, players: int) -> list[int]:
    """C7: who played each of a trick's first ``count`` cards — play goes round to the left
    from the leader."""
    return [(leader + i) % players for i in range(count)]


def bid_text(value: int, rules: RuleSet | None = None) -> str:
    """The text of a bid value: ``"2"`` or ``"moon"``.

    Without ``rules``, 5 is the moon (the four-point game); with them, 5 is the moon only where
    there is one (in the ten-point family a bid of 5 is five points, T8).
    """
    if value == MOON and (rules is None or rules.moon != "none"):
        return "moon"
    return str(value)


@dataclasses.dataclass(frozen=True, slots=True)
class RuleSet:
    """Every option of a game of Pitch.  Frozen: change it with :meth:`replace`, which validates."""

    name: str = "custom"
    # Players and seating (A-R1, B-R1, C3).
    min_players: int = 3
    max_players: int = 7
    allow_two_players: bool = False
    partnership: str = "off"
    deal_batch: int = 3
    first_dealer: str = "random"
    # Auction (A-R4, B-R4).
    auction: str = "single_round"
    pass_is_final: bool = True
    min_bid: int = 1
    moon: str = "none"
    moon_fail_points: int = 4
    moon_must_be_bid: bool = True
    pitch_as_bid_4: bool = True
    all_pass: str = "force_dealer_atleast2"
    dealer_steal: str = "equal_below_max"
    trump_selection: str = "first_lead"
    # Play and scoring (C6, C10, A-R6, B-R6).
    follow_rule: str = "trump_anytime"
    low_to: str = "capturer"
    high_to: str = "holder"
    jack_not_dealt: str = "no_point"
    game_tie: str = "no_point"
    pitcher_set_keeps_points: bool = False
    # End of game (B-R8).
    target: int | None = 7
    win_rule: str = "bidder_goes_out"
    win_requires_made_bid: bool = True
    # Money (A-R7, A-R8).
    money: str = "none"
    stake_per_point: Fraction = Fraction(1, 10)
    moon_payment: Fraction = Fraction(1)
    average_mode: str = "per_hand"
    join_leave: str = "never"
    join_score: str = "zero"
    # The ten-point family (T1–T8): the deck, the off-jack, the extra points, nine cards.
    deck: int = 52
    off_jack: bool = False
    extra_points: str = "none"
    hand_size: int = 6
    # Call-your-partner (CP3-CP6): what may be called, an undealt call, who loses a set, how
    # the defenders score.  Read only with ``partnership="call"``.
    call_rule: str = "not_own"
    called_not_dealt: str = "alone"
    call_set: str = "both"
    call_defenders: str = "each"

    OPTION_CHOICES: ClassVar[Mapping[str, tuple[Any, ...]]] = _CHOICES

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not 0 < len(self.name) <= NAME_LIMIT or not (
                self.name.isprintable()):
            raise OptionError(f"a rule set's name must be printable text of 1 to {NAME_LIMIT} "
                              f"characters, not {shown(self.name)}")
        for name, allowed in _CHOICES.items():
            value = getattr(self, name)
            with contextlib.suppress(TypeError):  # unhashable: reported as not allowed below
                value = _VALUE_ALIASES.get(name, {}).get(value, value)
            # Numeric options take ints only (not bools): 3.0 == 3 would let a float through
            # to crash the deal (C4) or the auction (B-R4.2), or make scores non-integer.
            if (isinstance(value, bool) or not isinstance(value, type(allowed[0]))
                    or value not in allowed):
                raise OptionError(
                    f"option {name}={shown(value)} is not allowed; allowed values: "
                    + ", ".join(repr(a) for a in allowed))
            object.__setattr__(self, name, value)
        for name in _BOOLS:
            if not isinstance(getattr(self, name), bool):
                raise OptionError(f"option {name}={shown(getattr(self, name))} must be True or "
                                  "False")
        for name in _MONEY:
            object.__setattr__(self, name, _to_fraction(name, getattr(self, name)))
        for name in ("min_players", "max_players"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not 2 <= value <= 8:
                raise OptionError(f"option {name}={shown(value)} must be an integer from 2 to 8 "
                                  "(C3: 6 cards each from 52 allows at most 8 players)")
        if self.min_players > self.max_players:
            raise OptionError(f"min_players={self.min_players} is above "
                              f"max_players={self.max_players}")
        if self.target is not None and (isinstance(self.target, bool)
                                        or not isinstance(self.target, int) or self.target < 1):
            raise OptionError(f"option target={shown(self.target)} must be a positive integer "
                              "(7, 10, 11, 15, 21, 52 are usual) or None for no target")
        seats = CALL_PLAYERS if self.calls_partner else 2 * self.teams
        if seats and not self.min_players <= seats <= self.max_players:
            raise OptionError(f"partnership={self.partnership!r} needs exactly {seats} players, "
                              f"but the player limits are {self.min_players}.."
                              f"{self.max_players}")
        if self.money != "none" and self.partnership != "off":
            # P6: money is settled player against player; teams have no money rule.
            raise OptionError("money play is each for themselves: it cannot be combined with "
                              f"partnership={self.partnership!r}")
        if self.calls_partner and self.win_rule != "bidder_goes_out":
            # CP8: only the contracting side goes out, pitcher first; the point-order rules
            # would need to know which partner took each point of a pooled side.
            raise OptionError(f"partnership='call' is played with win_rule='bidder_goes_out' "
                              f"(CP8), not win_rule={self.win_rule!r}")
        self._check_ten_point()

    def _check_ten_point(self) -> None:
        """The ten-point family's options must fit together (T1–T8)."""
        if self.extra_points != "none" and not (self.off_jack or self.deck > 52):
            raise OptionError(f"extra_points={self.extra_points!r} scores the off-jack and the "
                              "jokers, but these rules have neither: set off_jack=True or "
                              "deck=53 / 54")
        if self.hand_size > 6 and self.trump_selection == "first_lead":
            raise OptionError(f"hand_size={self.hand_size} needs trump named before the discard "
                              "(T4): set trump_selection='declare_then_lead_any' or "
                              "'declare_then_lead_trump'")
        if self.pitch_as_bid_4 and self.trump_selection != "first_lead":
            raise OptionError("pitch_as_bid_4 makes the pitched card name trump, so it needs "
                              f"trump_selection='first_lead', not {self.trump_selection!r}")
        if self.moon != "none" and self.points_total != 4:
            raise OptionError(f"moon={self.moon!r} is a bid above the four points; with "
                              f"{self.points_total} points a hand (extra_points="
                              f"{self.extra_points!r}) the top bid is all {self.points_total} "
                              "points: set moon='none' (T8)")
        if self.min_bid > self.points_total:
            raise OptionError(f"min_bid={self.min_bid} is above the {self.points_total} points "
                              "a hand is worth under these rules")
        fixed = CALL_PLAYERS if self.calls_partner else 2 * self.teams
        if self.max_players * self.hand_size > self.deck and not (
                fixed and fixed * self.hand_size <= self.deck):
            raise OptionError(
                f"max_players={self.max_players} with hand_size={self.hand_size} needs "
                f"{self.max_players * self.hand_size} cards; the deck has {self.deck} (C3, T4): "
                f"at most {self.deck // self.hand_size} players")
    # ----- derived facts ---------------------------------------------------------------
    @property
    def player_range(self) -> tuple[int, int]:
        """Smallest and largest table this rule set allows (E1)."""
        if self.teams:
            return (2 * self.teams, 2 * self.teams)  # B-R1.3, T10: a full table of pairs
        if self.calls_partner:
            return (CALL_PLAYERS, CALL_PLAYERS)  # CP1: exactly five
        low = 2 if self.allow_two_players else self.min_players
        return (low, self.max_players)

    @property
    def default_players(self) -> int:
        """The table size a game starts with when none is given: four, as most play, if these
        rules allow it, else the nearest size they do."""
        low, high = self.player_range
        return min(max(4, low), high)

    def check_players(self, players: object, phase: str = "setup") -> int:
        """``players`` as a table size these rules allow, or :class:`IllegalActionError`.

        E1 / C3: an int (not a bool) within :attr:`player_range`; ``reason="bad_setup"``.
        The one statement of the seat-count rule: every table is checked here.
        """
        low, high = self.player_range
        if type(players) is int and low <= players <= high:
            return players
        raise IllegalActionError(
            f"{shown(players)} players cannot play {self.name!r}: it allows {low} to {high} "
            f"(E1; C3: {self.hand_size} cards each from {self.deck} allows at most "
            f"{self.deck // self.hand_size})", reason="bad_setup", phase=phase,
            legal=[str(n) for n in range(low, high + 1)])

    @property
    def points_total(self) -> int:
        """The points one hand is worth: 4 (High, Low, Jack, Game), plus the off-jack and each
        joker with ``extra_points``, plus 3 for the three of trumps (T7): 10 in ten-point."""
        if self.extra_points == "none":
            return 4
        extra = int(self.off_jack) + self.deck - 52
        return 4 + extra + (3 if self.extra_points == "off_jack_jokers_three" else 0)

    @property
    def max_bid(self) -> int:
        """The top bid: MOON (5) when a moon/smudge bid exists, else every point of a hand
        (4, or 10 in ten-point: T8)."""
        return MOON if self.moon != "none" else self.points_total

    @property
    def moon_bid(self) -> int | None:
        """The value of the moon / smudge bid (MOON), or None where there is none.  A numeric
        bid of 5 in the ten-point family is not a moon: test ``value == rules.moon_bid``."""
        return MOON if self.moon != "none" else None

    @property
    def bid_values(self) -> tuple[int | str, ...]:
        """The bid ladder, e.g. ``(1, 2, 3, 4)``, ``(2, 3, 4, "moon")`` (§7 ``bid_values``) or
        ``(4, 5, …, 10)`` (ten-point, T8)."""
        top = 4 if self.moon != "none" else self.points_total
        ladder: list[int | str] = list(range(self.min_bid, top + 1))
        if self.moon != "none":
            ladder.append("moon")
        return tuple(ladder)

    def bid_text(self, value: int) -> str:
        """The text of a bid value under these rules: ``"5"`` or ``"moon"`` (T8)."""
        return bid_text(value, self)

    @property
    def is_ten_point(self) -> bool:
        """The ten-point family's cards or deal are in use (jokers, off-jack or a discard)."""
        return self.deck != 52 or self.off_jack or self.hand_size != 6

    @property
    def declares_trump(self) -> bool:
        """The pitcher names trump after the auction (T5) instead of by the first lead (C5)."""
        return self.trump_selection != "first_lead"

    @property
    def moon_value(self) -> int:
        """What a made moon/smudge scores: 5 for ``smudge`` (a bid of five), else its 4 points."""
        return 5 if self.moon == "smudge" else 4

    @property
    def partnership_mode(self) -> bool:
        """Played in fixed teams of two (``2x2`` or ``3x2``), not each for themselves (nor
        with a partner called each hand, CP1: its match sides are the seats)."""
        return _TEAMS[self.partnership] > 0

    @property
    def calls_partner(self) -> bool:
        """Call-your-partner (CP1): the pitcher calls a card each hand and its holder is the
        pitcher's secret partner for that hand."""
        return self.partnership == "call"

    @property
    def teams(self) -> int:
        """How many teams of two: 2 (``2x2``), 3 (``3x2``), or 0 each for themselves."""
        return _TEAMS[self.partnership]

    def side_of(self, seat: int) -> int:
        """The scoring side of ``seat``: the seat itself, or its team.  Partners sit opposite,
        so team t is seats t and t + teams (B-R1.3: 0&2, 1&3; P1: 0&3, 1&4, 2&5).  The one
        statement of who is whose partner; ``seat`` is not checked (callers check it)."""
        teams = _TEAMS[self.partnership]
        return seat % teams if teams else seat

    def side_count(self, players: int) -> int:
        """How many scoring sides a table of ``players`` has: its teams, or its seats."""
        return _TEAMS[self.partnership] or players

    def side_seats(self, players: int) -> tuple[tuple[int, ...], ...]:
        """Each scoring side's seats in seat order (side 0 first): the partners of a team, or
        one seat each (:meth:`side_of` grouped; what faces name a side by)."""
        return tuple(tuple(s for s in range(players) if self.side_of(s) == side)
                     for side in range(self.side_count(players)))

    def options(self) -> dict[str, Any]:
        """Every option and its value (not the name)."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "name"}

    def changes(self) -> dict[str, Any]:
        """The options that differ from the named variant this rule set started from."""
        base = VARIANTS.get(self.name)
        if base is None:
            return self.options()
        return {k: v for k, v in self.options().items() if getattr(base, k) != v}

    def replace(self, **changes: Any) -> RuleSet:
        """A copy with some options changed; :class:`OptionError` names a bad option or value.

        Besides the canonical options, ``bid_values`` (``"1-4"``, ``"2-4"``, ``"2-4+moon"``,
        ``"2-4+smudge"``) and ``forced_dealer_bid`` (``"exact"`` / ``"at_least"``, A-R4.4) are
        accepted as shorthands.
        """
        changes = dict(changes)
        if "name" in changes:  # a variant is named by choosing it, never by an option
            raise OptionError(
                f"name={shown(changes['name'])} is not an option: a rule set's name is the "
                f"variant it was chosen as ({self.name!r}); choose another variant by name "
                "instead (variants: " + ", ".join(sorted(VARIANTS)) + ")")
        if "bid_values" in changes:
            raw = changes.pop("bid_values")
            key = raw if isinstance(raw, str) else _ladder_key(raw)
            if key not in _BID_VALUES:
                raise OptionError(f"option bid_values={shown(raw)} is not allowed; allowed values: "
                                  + ", ".join(repr(k) for k in _BID_VALUES))
            changes.setdefault("min_bid", _BID_VALUES[key][0])
            changes.setdefault("moon", _BID_VALUES[key][1])
        if "forced_dealer_bid" in changes:
            raw = changes.pop("forced_dealer_bid")
            forced = {"exact": "force_dealer_exact2", "at_least": "force_dealer_atleast2"}
            if not isinstance(raw, str) or raw not in forced:
                raise OptionError(f"option forced_dealer_bid={shown(raw)} is not allowed; allowed "
                                  "values: 'exact', 'at_least'")
            changes["all_pass"] = forced[raw]
        known = {f.name for f in dataclasses.fields(self)}
        unknown = sorted(set(changes) - known)
        if unknown:
            raise OptionError(
                f"unknown option{'s' if len(unknown) > 1 else ''} "
                f"{', '.join(shown(u) for u in unknown[:5])}; "
                "options are: " + ", ".join([*sorted(known - {"name"}), "bid_values",
                                            "forced_dealer_bid"]))
        return dataclasses.replace(self, **changes)


def _ladder_key(values: Any) -> str:
    """The ``bid_values`` key of a ladder as a list: ``[2, 3, 4, "moon"]`` is ``"2-4+moon"``."""
    if not isinstance(values, list | tuple) or len(values) > 6:
        return "?"
    items = [v.lower() if isinstance(v, str) else str(v) if type(v) is int and 0 < v < 5
             else "?" for v in values]
    nums = [int(v) for v in items if v in ("1", "2", "3", "4")]
    tops = [v for v in items if v not in ("1", "2", "3", "4")]
    if not nums or nums != list(range(nums[0], 5)) or len(tops) > 1:
        return "?"
    return f"{nums[0]}-4" + (f"+{tops[0]}" if tops else "") if nums[0] < 4 else "4"


#: The longest amount of money :func:`parse_money` reads, and the largest decimal exponent:
#: ``Fraction("1e99999999999")`` would hang, so the text is bounded before it is converted.
MONEY_TEXT_LIMIT = 40
MONEY_EXPONENT_LIMIT = 12
#: The most decimal digits an amount's numerator or denominator may have, whatever its type
#: (text within the limits above stays within it), so no amount is too long to print.
MONEY_DIGIT_LIMIT = 60
_MONEY_BIT_LIMIT = 200  # 2**200 has 61 digits: every number of at most 60 digits fits
_MONEY_TEXT = re.compile(
    r"(?P<num>[+-]?(?:\d+(?:\.\d*)?|\.\d+))(?:[eE](?P<exp>[+-]?\d{1,4}))?"
    r"|[+-]?\d+/\d+")


def parse_money(text: str, *, what: str, negative: bool = False) -> Fraction:
    """An exact amount of dollars from text: ``"0.25"``, ``"1/4"``, ``"2"``, ``"1e-2"``.

    The text is bounded before it is converted (at most :data:`MONEY_TEXT_LIMIT` characters
    and a decimal exponent within ±:data:`MONEY_EXPONENT_LIMIT`), so no input is slow.
    ``what`` names the value in the error (``"option stake_per_point"``, ``"payout"``);
    a negative amount is refused unless ``negative`` (a payout may be negative, a stake or a
    moon payment may not: A-R7).  :class:`OptionError` for anything else.
    """
    if not isinstance(text, str):
        raise OptionError(f"{what}={shown(text)} must be an amount of dollars as text, "
                          "e.g. '0.10'")
    t = text.strip()
    match = _MONEY_TEXT.fullmatch(t) if len(t) <= MONEY_TEXT_LIMIT else None
    if match is None or (match["exp"] is not None
                         and abs(int(match["exp"])) > MONEY_EXPONENT_LIMIT):
        raise OptionError(
            f"{what}={shown(text)} is not an amount of dollars: write a decimal or a fraction "
            f"such as '0.25', '1/4' or '2' (at most {MONEY_TEXT_LIMIT} characters, exponent "
            f"within ±{MONEY_EXPONENT_LIMIT})")
    try:
        amount = Fraction(t)
    except ZeroDivisionError:
        raise OptionError(f"{what}={shown(text)} divides by zero") from None
    return _checked_amount(amount, text, what=what, negative=negative)


def _checked_amount(amount: Fraction, value: object, *, what: str,
                    negative: bool = False) -> Fraction:
    """``amount`` if its numerator and denominator fit :data:`MONEY_DIGIT_LIMIT` digits and
    its sign is allowed; :class:`OptionError` quoting ``value`` otherwise."""
    if (abs(amount.numerator).bit_length() > _MONEY_BIT_LIMIT
            or amount.denominator.bit_length() > _MONEY_BIT_LIMIT):
        raise OptionError(f"{what}={shown(value)} is too long: an amount's numerator and "
                          f"denominator may have at most {MONEY_DIGIT_LIMIT} digits each")
    if amount < 0 and not negative:
        raise OptionError(f"{what}={shown(value)} is negative: it must be 0 or more "
                          "(a negative stake would make the winners pay, A-R7)")
    return amount


def _to_fraction(name: str, value: Any) -> Fraction:
    """An option's dollar amount from a Fraction, int, float, Decimal or text (A-R7)."""
    what = f"option {name}"
    if isinstance(value, bool):
        raise OptionError(f"{what}={value!r} must be an amount of dollars, e.g. '0.10'")
    if isinstance(value, Fraction | int):
        return _checked_amount(Fraction(value), value, what=what)
    if isinstance(value, float | Decimal):
        # repr: 0.1 means ten cents, not its binary neighbour; inf and nan are refused there.
        return parse_money(repr(value) if isinstance(value, float) else str(value), what=what)
    if isinstance(value, str):
        return parse_money(value, what=what)
    raise OptionError(f"{what}={shown(value)} must be an amount of dollars, e.g. '0.10'")


_AUCTION = RuleSet(name="auction")
_TEN_POINT = dataclasses.replace(
    _AUCTION, name="ten-point", partnership="2x2", min_players=4, max_players=4, deck=54,
    off_jack=True, extra_points="off_jack_jokers_three", hand_size=9,
    trump_selection="declare_then_lead_any", min_bid=4, pitch_as_bid_4=False,
    all_pass="force_dealer_exact2", low_to="holder", target=52)

VARIANTS: dict[str, RuleSet] = {
    # Rule set A, "Pitch: Money Game" (seed 000).
    "money": RuleSet(
        name="money", min_players=2, max_players=8, allow_two_players=True,
        auction="continuous", min_bid=2, moon="moon", moon_fail_points=4, pitch_as_bid_4=False,
        all_pass="force_dealer_exact2", dealer_steal="equal_below_max", low_to="capturer",
        target=None, money="per_point_vs_average", join_leave="between_hands"),
    # Rule set B, "Auction Pitch" (seed 001).
    "auction": _AUCTION,
    # B with the partnership option (B-R1.3): seats 0 & 2 against 1 & 3.
    "auction-partners": dataclasses.replace(
        _AUCTION, name="auction-partners", partnership="2x2", min_players=4, max_players=4),
    # B for six in three teams of two, partners opposite (TT1): seats 0&3, 1&4, 2&5.
    "three-teams": dataclasses.replace(
        _AUCTION, name="three-teams", partnership="3x2", min_players=6, max_players=6),
    # Pagat's partnership Setback: bids 2, 3, 4 and smudge (a bid of five), one round, the
    # dealer may steal by equalling, game to 21, bidder goes out.
    "setback": dataclasses.replace(
        _AUCTION, name="setback", partnership="2x2", min_players=4, max_players=4, min_bid=2,
        moon="smudge", moon_fail_points=5, pitch_as_bid_4=False, target=21),
    # The ten-point family (T1–T9): 54 cards, the off-jack, ten points, nine cards and a
    # discard to six after the pitcher names trump; bids 4 to 10, the dealer stuck at 4, Low
    # to its holder, game to 52, bidder goes out.  Partnerships, as most play it.
    "ten-point": _TEN_POINT,
    # The same game each for themselves, three to six players (54 // 9 = 6).
    "ten-point-cutthroat": dataclasses.replace(
        _TEN_POINT, name="ten-point-cutthroat", partnership="off", min_players=3,
        max_players=6),
    # B for five, the pitcher calling a card whose holder is a secret partner (CP1-CP9).
    "call-partner": dataclasses.replace(
        _AUCTION, name="call-partner", partnership="call", min_players=5, max_players=5),
}

_ALIASES = {
    "a": "money", "money-game": "money", "pitch-money": "money",
    "b": "auction", "auction-pitch": "auction", "cutthroat": "auction",
    "partners": "auction-partners", "auction-partnership": "auction-partners",
    "partnership": "auction-partners", "pagat": "setback",
    "10-point": "ten-point", "ten-point-pitch": "ten-point", "ten-point-partners": "ten-point",
    "jokers": "ten-point", "10-point-cutthroat": "ten-point-cutthroat",
    "3x2": "three-teams", "2v2v2": "three-teams", "six-partners": "three-teams",
    "auction-three-teams": "three-teams",
    "call-your-partner": "call-partner", "call": "call-partner", "five-partners": "call-partner",
}


def find_variant(name: str) -> RuleSet:
    """The named variant: ``"money"``, ``"auction"``, ``"auction-partners"``,
    ``"three-teams"``, ``"setback"``, ``"ten-point"``, ``"ten-point-cutthroat"`` or
    ``"call-partner"``."""
    if not isinstance(name, str):
        raise OptionError(f"a variant is named by text, not {shown(name)}; variants are: "
                          + ", ".join(VARIANTS))
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    key = _ALIASES.get(key, key)
    if key not in VARIANTS:
        raise OptionError(f"unknown variant {shown(name)}; variants are: " + ", ".join(VARIANTS))
    return VARIANTS[key]
