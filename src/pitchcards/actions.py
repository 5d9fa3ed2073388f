"""Actions: dense integer ids with a text form that ``Hand.push`` reads back.

Ids follow OpenSpiel's habit of numbering card actions first, then bids, so one fixed-size mask
covers every action (the RL adapters use it as is):

========  ==========================  =================
id        action                      text
========  ==========================  =================
0..51     play a card                 ``"play QH"``
52..103   pitch a card (bid 4 + lead) ``"pitch QH"``
104       pass                        ``"pass"``
105..108  bid 1..4                    ``"bid 2"``
109       bid the moon / smudge       ``"bid moon"``
110, 111  play a joker (T1)           ``"play LJ"``
112..165  discard a card (T4)         ``"discard QH"``
166..169  name trump C D H S (T5)     ``"trump H"``
170..175  bid 5..10 (T8)              ``"bid 7"``
176..229  call a card (CP3)           ``"call AS"``
========  ==========================  =================

The ten-point family's actions come after the four-point game's 110, so the four-point ids (in
records, RL checkpoints, clients) never move: :data:`NUM_ACTIONS` is still 110, the size of the
four-point game's action space, :data:`MAX_ACTIONS` (176) the ten-point family's, and
call-your-partner's calls (CP3) come after those: :data:`ALL_ACTIONS` (230) covers every
rule set, and :func:`action_count` gives a rule set's own.  A joker's play action is
``PLAY[52]`` / ``PLAY[53]`` (ids 110 / 111) and its :attr:`Action.card` is the card, 52 or 53.

:class:`Action` is an ``int`` subclass, so ids compare, hash and index like ints; every action
object is created once (``ACTIONS[id]``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import DECK_SIZE, MAX_CARDS, SUITS, card_name, parse_card
from .errors import InvalidActionError, shown
from .rules import MOON

if TYPE_CHECKING:
    from .rules import RuleSet

__all__ = [
    "ACTIONS",
    "ALL_ACTIONS",
    "BID",
    "BIDS",
    "BID_BASE",
    "CALL",
    "DISCARD",
    "MAX_ACTIONS",
    "NUM_ACTIONS",
    "PASS",
    "PASS_ID",
    "PITCH",
    "PITCH_BASE",
    "PLAY",
    "TRUMP",
    "Action",
    "action_count",
    "parse_action",
]

PITCH_BASE = DECK_SIZE            # 52
PASS_ID = 2 * DECK_SIZE           # 104
BID_BASE = PASS_ID                # bid v has id BID_BASE + v (v = 1..5)
NUM_ACTIONS = BID_BASE + MOON + 1  # 110: the four-point game's action space
JOKER_PLAY_BASE = NUM_ACTIONS     # 110, 111: play LJ, play BJ (T1)
DISCARD_BASE = JOKER_PLAY_BASE + MAX_CARDS - DECK_SIZE  # 112..165: discard card 0..53 (T4)
TRUMP_BASE = DISCARD_BASE + MAX_CARDS  # 166..169: name trump C, D, H, S (T5)
HIGH_BID_BASE = TRUMP_BASE + 4 - 5     # bid v (5..10) has id HIGH_BID_BASE + v: 170..175 (T8)
MAX_ACTIONS = HIGH_BID_BASE + 10 + 1   # 176: the ten-point family's action space
CALL_BASE = MAX_ACTIONS                # 176..229: call card 0..53 (CP3)
ALL_ACTIONS = CALL_BASE + MAX_CARDS    # 230: every action of every rule set


class Action(int):
    """One action.  ``str(action)`` is its text; ``int(action)`` its dense id."""

    __slots__ = ()

    def __new__(cls, value: int) -> Action:
        # Every Action is made once, in ACTIONS; refusing other ids here keeps a stray
        # Action(200) out of push, at no cost on the hot path.
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < ALL_ACTIONS:
            raise InvalidActionError(f"{shown(value)} is not an action id "
                                     f"(0..{ALL_ACTIONS - 1}); see pitchcards.ACTIONS")
        return super().__new__(cls, value)

    def __str__(self) -> str:
        return _TEXT[self]

    def __repr__(self) -> str:
        return f"Action({_TEXT[self]!r})"

    @property
    def kind(self) -> str:
        """``"play"``, ``"pitch"``, ``"pass"``, ``"bid"``, ``"discard"``, ``"trump"`` or
        ``"call"``."""
        return _KIND[self]

    @property
    def card(self) -> int | None:
        """The card played, pitched, discarded or called, else None."""
        return _CARD[self]

    @property
    def bid(self) -> int | None:
        """The bid value (pitch = 4, moon = 5, or 5..10 for ``bid 5`` .. ``bid 10``), or None
        for a pass, a play, a discard or naming trump."""
        return _BID[self]

    @property
    def suit(self) -> int | None:
        """The suit index 0..3 a ``trump X`` action names, else None."""
        return self - TRUMP_BASE if TRUMP_BASE <= self < TRUMP_BASE + 4 else None

    @classmethod
    def from_text(cls, text: str) -> Action:
        return parse_action(text)


def _describe(i: int) -> tuple[str, str, int | None, int | None]:
    """(kind, text, card, bid value) of action id ``i``."""
    if i < PITCH_BASE:
        return "play", "play " + card_name(i), i, None
    if i < PASS_ID:
        return "pitch", "pitch " + card_name(i - PITCH_BASE), i - PITCH_BASE, 4
    if i == PASS_ID:
        return "pass", "pass", None, None
    if i < JOKER_PLAY_BASE:
        v = i - BID_BASE
        return "bid", "bid moon" if v == MOON else f"bid {v}", None, v
    if i < DISCARD_BASE:
        card = i - JOKER_PLAY_BASE + DECK_SIZE
        return "play", "play " + card_name(card), card, None
    if i < TRUMP_BASE:
        return "discard", "discard " + card_name(i - DISCARD_BASE), i - DISCARD_BASE, None
    if i < TRUMP_BASE + 4:
        return "trump", "trump " + SUITS[i - TRUMP_BASE], None, None
    if i < CALL_BASE:
        return "bid", f"bid {i - HIGH_BID_BASE}", None, i - HIGH_BID_BASE
    return "call", "call " + card_name(i - CALL_BASE), i - CALL_BASE, None


_DESCRIBED = [_describe(i) for i in range(ALL_ACTIONS)]
_KIND: tuple[str, ...] = tuple(d[0] for d in _DESCRIBED)
_TEXT: tuple[str, ...] = tuple(d[1] for d in _DESCRIBED)
_CARD: tuple[int | None, ...] = tuple(d[2] for d in _DESCRIBED)
_BID: tuple[int | None, ...] = tuple(d[3] for d in _DESCRIBED)
ACTIONS: tuple[Action, ...] = tuple(Action(i) for i in range(ALL_ACTIONS))
#: PLAY[card] for every card 0..53 (the jokers' are ids 110 and 111).
PLAY: tuple[Action, ...] = (*ACTIONS[:PITCH_BASE],
                            *ACTIONS[JOKER_PLAY_BASE:DISCARD_BASE])
PITCH: tuple[Action, ...] = ACTIONS[PITCH_BASE:PASS_ID]
PASS: Action = ACTIONS[PASS_ID]
#: BID[v] for v = 1..5 (BID[0] is unused and equals PASS; BID[5] is the moon).
BID: tuple[Action, ...] = ACTIONS[BID_BASE:JOKER_PLAY_BASE]
#: BIDS[v] for the numeric bids v = 1..10 of the ten-point family (no moon: BIDS[5] is
#: ``bid 5``, T8); BIDS[0] equals PASS.
BIDS: tuple[Action, ...] = (*BID[:5], *ACTIONS[HIGH_BID_BASE + 5:MAX_ACTIONS])
#: DISCARD[card] for every card 0..53 (T4).
DISCARD: tuple[Action, ...] = ACTIONS[DISCARD_BASE:TRUMP_BASE]
#: TRUMP[suit] names trump (T5).
TRUMP: tuple[Action, ...] = ACTIONS[TRUMP_BASE:TRUMP_BASE + 4]
#: CALL[card] calls a card, whose holder is the pitcher's secret partner (CP3).
CALL: tuple[Action, ...] = ACTIONS[CALL_BASE:ALL_ACTIONS]


def action_count(rules: RuleSet) -> int:
    """The size of a rule set's action space: 110 for the four-point game (52 cards, trump by
    the first lead, no bid above the moon), 176 (:data:`MAX_ACTIONS`) for anything of the
    ten-point family (jokers, a discard, naming trump, bids above 5), 230
    (:data:`ALL_ACTIONS`) where the pitcher calls a partner (CP3)."""
    if rules.calls_partner:
        return ALL_ACTIONS
    extended = rules.is_ten_point or rules.declares_trump or rules.max_bid > MOON
    return MAX_ACTIONS if extended else NUM_ACTIONS

_BY_TEXT = {t: a for t, a in zip(_TEXT, ACTIONS, strict=True)}
_MOON_WORDS = {"moon", "smudge", "shoot the moon", "shoot-the-moon", "5"}
_SUIT_OF_TEXT = {"c": 0, "d": 1, "h": 2, "s": 3, "♣": 0, "♦": 1, "♥": 2, "♠": 3,
                 "clubs": 0, "diamonds": 1, "hearts": 2, "spades": 3}


def parse_action(text: str) -> Action:
    """Read an action's text (case and spacing are forgiven; ``10``/suit symbols accepted).

    ``"bid 5"`` is the numeric bid of the ten-point family; a hand whose rules have a moon
    reads it as the moon (as it always did), see ``Hand.push``.
    """
    if not isinstance(text, str):
        raise InvalidActionError(
            f"cannot read action {shown(text)}: expected an Action, its id, or text such as "
            "'pass', 'bid 2', 'bid moon', 'pitch QH', 'play QH'")
    norm = " ".join(text.lower().split())
    found = _BY_TEXT.get(norm)
    if found is not None:
        return found
    verb, _, rest = norm.partition(" ")
    try:
        if verb == "call" and rest:
            return CALL[parse_card(rest)]
        if verb in ("play", "pitch", "discard") and rest:
            card = parse_card(rest)
            if verb == "pitch" and card >= DECK_SIZE:
                raise InvalidActionError(f"a joker cannot be pitched: it names no suit (T6), "
                                         f"not {shown(rest)}")
            return (PLAY if verb == "play" else PITCH if verb == "pitch" else DISCARD)[card]
    except InvalidActionError as exc:
        raise InvalidActionError(f"cannot read action {shown(text)}: {exc}") from None
    if verb == "trump" and rest in _SUIT_OF_TEXT:
        return TRUMP[_SUIT_OF_TEXT[rest]]
    if verb == "bid" and rest in _MOON_WORDS:
        return BID[MOON]
    if norm in _MOON_WORDS:
        return BID[MOON]
    raise InvalidActionError(
        f"cannot read action {shown(text)}: expected 'pass', 'bid N' (N = 1..10), 'bid moon', "
        "'pitch CARD', 'play CARD', 'discard CARD', 'call CARD' with CARD such as 'QH', '10♠' "
        "or 'BJ', or 'trump S'")
