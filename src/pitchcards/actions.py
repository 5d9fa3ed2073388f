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
========  ==========================  =================

:class:`Action` is an ``int`` subclass, so ids compare, hash and index like ints; every action
object is created once (``ACTIONS[id]``).
"""

from __future__ import annotations

from .cards import DECK_SIZE, card_name, parse_card
from .errors import InvalidActionError, shown
from .rules import MOON

__all__ = [
    "ACTIONS",
    "BID",
    "BID_BASE",
    "NUM_ACTIONS",
    "PASS",
    "PASS_ID",
    "PITCH",
    "PITCH_BASE",
    "PLAY",
    "Action",
    "parse_action",
]

PITCH_BASE = DECK_SIZE            # 52
PASS_ID = 2 * DECK_SIZE           # 104
BID_BASE = PASS_ID                # bid v has id BID_BASE + v (v = 1..5)
NUM_ACTIONS = BID_BASE + MOON + 1  # 110


class Action(int):
    """One action.  ``str(action)`` is its text; ``int(action)`` its dense id."""

    __slots__ = ()

    def __new__(cls, value: int) -> Action:
        # Every Action is made once, in ACTIONS; refusing other ids here keeps a stray
        # Action(200) out of push, at no cost on the hot path.
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < NUM_ACTIONS:
            raise InvalidActionError(f"{shown(value)} is not an action id "
                                     f"(0..{NUM_ACTIONS - 1}); see pitchcards.ACTIONS")
        return super().__new__(cls, value)

    def __str__(self) -> str:
        return _TEXT[self]

    def __repr__(self) -> str:
        return f"Action({_TEXT[self]!r})"

    @property
    def kind(self) -> str:
        """``"play"``, ``"pitch"``, ``"pass"`` or ``"bid"``."""
        if self < PITCH_BASE:
            return "play"
        if self < PASS_ID:
            return "pitch"
        return "pass" if self == PASS_ID else "bid"

    @property
    def card(self) -> int | None:
        """The card played or pitched, else None."""
        if self < PITCH_BASE:
            return int(self)
        if self < PASS_ID:
            return int(self) - PITCH_BASE
        return None

    @property
    def bid(self) -> int | None:
        """The bid value (pitch = 4, moon = 5), or None for a pass or a play."""
        if self < PITCH_BASE or self == PASS_ID:
            return None
        if self < PASS_ID:
            return 4
        return int(self) - BID_BASE

    @classmethod
    def from_text(cls, text: str) -> Action:
        return parse_action(text)


def _text(i: int) -> str:
    if i < PITCH_BASE:
        return "play " + card_name(i)
    if i < PASS_ID:
        return "pitch " + card_name(i - PITCH_BASE)
    if i == PASS_ID:
        return "pass"
    v = i - BID_BASE
    return "bid moon" if v == MOON else f"bid {v}"


_TEXT = tuple(_text(i) for i in range(NUM_ACTIONS))
ACTIONS: tuple[Action, ...] = tuple(Action(i) for i in range(NUM_ACTIONS))
PLAY: tuple[Action, ...] = ACTIONS[:PITCH_BASE]
PITCH: tuple[Action, ...] = ACTIONS[PITCH_BASE:PASS_ID]
PASS: Action = ACTIONS[PASS_ID]
#: BID[v] for v = 1..5 (BID[0] is unused and equals PASS).
BID: tuple[Action, ...] = ACTIONS[BID_BASE:]

_BY_TEXT = {t: a for t, a in zip(_TEXT, ACTIONS, strict=True)}
_MOON_WORDS = {"moon", "smudge", "shoot the moon", "shoot-the-moon", "5"}


def parse_action(text: str) -> Action:
    """Read an action's text (case and spacing are forgiven; ``10``/suit symbols accepted)."""
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
        if verb in ("play", "pitch") and rest:
            card = parse_card(rest)
            return PLAY[card] if verb == "play" else PITCH[card]
    except InvalidActionError as exc:
        raise InvalidActionError(f"cannot read action {shown(text)}: {exc}") from None
    if verb == "bid" and rest in _MOON_WORDS:
        return BID[MOON]
    if norm in _MOON_WORDS:
        return BID[MOON]
    raise InvalidActionError(
        f"cannot read action {shown(text)}: expected 'pass', 'bid N' (N = 1..4), 'bid moon', "
        "'pitch CARD' or 'play CARD' with CARD such as 'QH' or '10♠'")
