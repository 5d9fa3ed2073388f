"""Cards as small integers and sets of cards as bit masks.

A card is an ``int`` 0..51: ``suit * 13 + rank`` with rank 0 for the 2 up to 12 for the Ace, so
within one suit a higher bit is a higher card (C1).  A set of cards is a Python ``int`` used as a
52-bit mask (python-chess keeps bitboards the same way): ``mask >> card & 1`` tests membership,
``mask.bit_count()`` counts, and the per-suit masks below pick one suit out.

Text: rank then suit, ``"QH"``; ranks ``A K Q J T 9 ... 2`` (``10`` accepted for ``T``), suits
``S H D C`` (``♠ ♥ ♦ ♣`` accepted), case-insensitive.

The four-point game uses the 52-card deck of C1.  The ten-point family (T1) adds the jokers as
cards 52 (``LJ``, the low joker; the only one in a 53-card deck) and 53 (``BJ``, the high joker):
they have no printed suit (suit index 4) and are trumps whatever suit is trump.  How a card plays
once trump is known (the off-jack and the jokers are trumps) lives in :mod:`pitchcards.deck`.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Iterator, Sequence
from itertools import islice
from typing import Final, SupportsIndex

from .errors import InvalidCardError, shown

__all__ = [
    "DECK_SIZE",
    "FULL_DECK",
    "GAME_VALUE",
    "HIGH_JOKER",
    "LOW_JOKER",
    "MAX_CARDS",
    "RANKS",
    "STRENGTH",
    "SUITS",
    "SUIT_MASKS",
    "SUIT_SYMBOLS",
    "Card",
    "card_name",
    "card_rank",
    "card_strength",
    "card_suit",
    "card_symbol",
    "cards_of",
    "format_cards",
    "game_count",
    "highest",
    "lowest",
    "mask_of",
    "parse_card",
    "parse_cards",
    "trick_winner",
]

Card = int

#: Suit letters by suit index (C1: ♣ ♦ ♥ ♠, all equal until trump is set).
SUITS: Final = ("C", "D", "H", "S")
SUIT_SYMBOLS: Final = ("♣", "♦", "♥", "♠")
#: Rank letters by rank index, low to high (C1).
RANKS: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")
DECK_SIZE: Final = 52
FULL_DECK: Final = (1 << DECK_SIZE) - 1
SUIT_MASKS: Final = tuple(0x1FFF << (13 * s) for s in range(4))
#: T1: the jokers of the ten-point family, after the 52 cards of C1.
LOW_JOKER: Final = 52
HIGH_JOKER: Final = 53
#: Every card id any deck uses: 0..53.
MAX_CARDS: Final = 54

#: C8: the game count of each rank index (10=10, A=4, K=3, Q=2, J=1, 9..2=0).
GAME_VALUE: Final = (0, 0, 0, 0, 0, 0, 0, 0, 10, 1, 2, 3, 4)

_SUIT_OF_TEXT = {"C": 0, "D": 1, "H": 2, "S": 3, "♣": 0, "♦": 1, "♥": 2, "♠": 3,
                 "♧": 0, "♢": 1, "♡": 2, "♤": 3}
_RANK_OF_TEXT = {r: i for i, r in enumerate(RANKS)} | {"10": 8}

#: Game count of a 13-bit rank mask (one suit), precomputed so counting a pile is 4 lookups.
_GAME_OF_RANKS: Final = tuple(
    sum(GAME_VALUE[r] for r in range(13) if m >> r & 1) for m in range(1 << 13)
)

_NAMES: Final = (*(RANKS[c % 13] + SUITS[c // 13] for c in range(DECK_SIZE)), "LJ", "BJ")
_SYMBOLS = (*(RANKS[c % 13].replace("T", "10") + SUIT_SYMBOLS[c // 13]
              for c in range(DECK_SIZE)), "☆", "★")
_CARD_OF_NAME = {name: c for c, name in enumerate(_NAMES)} | {
    "JK": LOW_JOKER, "JOKER": LOW_JOKER, "☆": LOW_JOKER, "★": HIGH_JOKER}


def card_suit(card: Card) -> int:
    """Printed suit index 0..3 (C, D, H, S); 4 for a joker, which has none (T1)."""
    return card // 13


def card_rank(card: Card) -> int:
    """Rank index 0..12 (2 .. A); a joker's is 0 (LJ) or 1 (BJ) within its own 'suit' 4."""
    return card % 13


# The public functions type a card or a mask ``SupportsIndex`` and a text ``object``: they take
# anything and refuse a non-card with InvalidCardError, where the compiled build (mypyc) would
# check an ``int`` or ``str`` annotation itself and raise a bare TypeError (issue 35).
def card_name(card: SupportsIndex) -> str:
    """Canonical text, e.g. ``"QH"``, ``"TS"``, ``"BJ"``; :class:`InvalidCardError` for a
    non-card."""
    if type(card) is not int or not 0 <= card < MAX_CARDS:
        _not_a_card(card)
    return _NAMES[card]


def card_symbol(card: SupportsIndex) -> str:
    """Display text with a suit symbol, e.g. ``"Q♥"``, ``"10♠"``; ``☆`` / ``★`` for the jokers."""
    if type(card) is not int or not 0 <= card < MAX_CARDS:
        _not_a_card(card)
    return _SYMBOLS[card]


def _not_a_card(card: object) -> None:
    """Refuse a card id that is not an int 0..53 (an Action or a numpy int is fine)."""
    if not 0 <= _as_int(card) < MAX_CARDS:
        raise InvalidCardError(f"{shown(card)} is not a card id (an int 0..53: 52 and 53 are "
                               "the jokers)")


def _as_int(value: object) -> int:
    """``value`` as an int if it is an integer type (not a bool), else -1."""
    if isinstance(value, bool):
        return -1
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return -1


def parse_card(text: object) -> Card:
    """Read one card (``"QH"``, ``"10h"``, ``"Q♥"``, ``"BJ"``, ``"LJ"``, ``"JK"``);
    :class:`InvalidCardError` if unreadable."""
    if not isinstance(text, str):
        raise InvalidCardError(f"cannot read card {shown(text)}: a card is text such as 'QH'")
    t = text.strip().upper()
    card = _CARD_OF_NAME.get(t)
    if card is not None:
        return card
    if len(t) >= 2:
        rank = _RANK_OF_TEXT.get(t[:-1])
        suit = _SUIT_OF_TEXT.get(t[-1])
        if rank is not None and suit is not None:
            return suit * 13 + rank
    raise InvalidCardError(
        f"cannot read card {shown(text)}: write rank then suit, ranks A K Q J T(10) 9..2, "
        "suits S H D C (or ♠ ♥ ♦ ♣), e.g. 'QH' or '10♠'; the jokers are 'LJ' and 'BJ'"
    )


def parse_cards(text: object) -> list[Card]:
    """Read cards separated by spaces or commas (or an iterable of card texts)."""
    if isinstance(text, str):
        return [parse_card(t) for t in text.replace(",", " ").split()]
    if not isinstance(text, Iterable):
        raise InvalidCardError(f"cannot read cards {shown(text)}: expected text such as "
                               "'AS KS 2S' or a list of card texts")
    return [parse_card(t) for t in text]


def cards_of(mask: SupportsIndex) -> Iterator[Card]:
    """The cards in a mask, lowest id first; :class:`InvalidCardError` for a non-mask."""
    if type(mask) is not int or mask < 0 or mask >> MAX_CARDS:
        _not_a_mask(mask)
    mask = operator.index(mask)  # an integer type (an int, or one with __index__)
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(cards: Iterable[Card]) -> int:
    """The mask of some cards."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def format_cards(mask_or_cards: int | Iterable[Card], symbols: bool = False) -> str:
    """Cards as text: the jokers first (BJ, LJ), then by suit S H D C, high to low."""
    given: object = mask_or_cards  # checked as any object (mypyc narrows the union wrongly)
    if isinstance(given, int):
        cards = list(cards_of(given))
    elif isinstance(given, Iterable) and not isinstance(given, str | bytes):
        items: list[object] = list(islice(given, MAX_CARDS + 1))  # a deck at most: bounded
        if len(items) > MAX_CARDS:
            raise InvalidCardError(f"cannot format more cards than a deck holds ({MAX_CARDS})")
        for c in items:
            if type(c) is not int or not 0 <= c < MAX_CARDS:
                _not_a_card(c)
        cards = [operator.index(c) for c in items]  # type: ignore[arg-type]  # checked above
    else:
        raise InvalidCardError(f"cannot format {shown(given)}: expected a mask of cards "
                               "or a list of card ids")
    cards.sort(key=lambda c: (-(c // 13), -(c % 13)))
    table = _SYMBOLS if symbols else _NAMES
    return " ".join(table[c] for c in cards)


def _not_a_mask(mask: object) -> None:
    value = _as_int(mask)
    if value < 0 or value >> MAX_CARDS:
        raise InvalidCardError(f"{shown(mask)} is not a mask of cards (an int of bits 0..53)")


def game_count(mask: int) -> int:
    """C8: the game count of a set of cards (a joker counts nothing, T7)."""
    g = _GAME_OF_RANKS
    return (g[mask & 0x1FFF] + g[mask >> 13 & 0x1FFF]
            + g[mask >> 26 & 0x1FFF] + g[mask >> 39 & 0x1FFF])


def highest(mask: int) -> Card:
    """The highest card id in a non-empty mask (the highest card when the mask is one suit)."""
    return mask.bit_length() - 1


def lowest(mask: int) -> Card:
    """The lowest card id in a non-empty mask."""
    return (mask & -mask).bit_length() - 1


def _strength(trump: int, led: int, card: Card) -> int:
    suit, rank = card // 13, card % 13
    return 100 + rank if suit == trump else rank if suit == led else -1


#: ``STRENGTH[trump][led][card]``: a card's power in a trick (C7), precomputed for the hot path.
STRENGTH: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(tuple(_strength(t, led, c) for c in range(DECK_SIZE)) for led in range(4))
    for t in range(4))


def card_strength(card: Card, trump: int, led: int) -> int:
    """C7: a card's power in a trick whose trump suit is ``trump`` and led suit is ``led``.

    Any trump beats any card of the led suit, which beats every other card; within a suit the
    higher rank wins.  Off-suit cards are -1: they never win.  The four-point deck's statement
    of trick strength; a ten-point deck's is :meth:`pitchcards.deck.DeckModel.card_strength`,
    whose 52-card tables are these.
    """
    return STRENGTH[trump][led][card]


def trick_winner(cards: Sequence[Card], trump: int) -> int:
    """C7: the index into ``cards`` (in play order, the lead first) of the card that wins.

    ``trump`` is the trump suit index; on the hand's first lead it is the led card's suit (C5).
    Add the leader's seat (mod players) to get the winning seat.  For the four-point deck;
    :meth:`pitchcards.deck.DeckModel.trick_winner` handles jokers and the off-jack.
    """
    if not cards:
        raise ValueError("a trick needs at least one card")
    return strongest(cards, STRENGTH[trump][cards[0] // 13])


def strongest(cards: Sequence[Card], power: Sequence[int]) -> int:
    """The index of the first card of highest ``power`` (a strength row: C7)."""
    best = 0
    for i in range(1, len(cards)):
        if power[cards[i]] > power[cards[best]]:
            best = i
    return best
