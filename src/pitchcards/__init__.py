"""pitchcards: the card game Pitch (Auction Pitch, Setback, the Money Game), exactly.

The public API::

    import pitchcards as pc
    rules = pc.find_variant("auction").replace(low_to="holder")
    h = pc.Hand.deal(rules, players=4, dealer=0, seed=1)
    while h.seat_to_act is not None:
        h.push(h.legal_actions()[0])
    print(h.result)
"""

from __future__ import annotations

# First: importing _fast loads the compiled fast path, when a fresh build exists.
from ._fast import fast_path
from .actions import ACTIONS, NUM_ACTIONS, Action, parse_action
from .cards import card_name, card_symbol, format_cards, parse_card, parse_cards
from .errors import (
    REASONS,
    IllegalActionError,
    InvalidActionError,
    InvalidCardError,
    OptionError,
    PitchError,
)
from .hand import Hand
from .match import Match
from .money import MoneySession, round_cents
from .notation import read_record, replay, write_record
from .outcome import EnteredHand, Outcome
from .rules import VARIANTS, RuleSet, find_variant
from .scoring import HandResult
from .session import GameSession
from .views import View

__all__ = [
    "ACTIONS",
    "NUM_ACTIONS",
    "REASONS",
    "VARIANTS",
    "Action",
    "EnteredHand",
    "GameSession",
    "Hand",
    "HandResult",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidCardError",
    "Match",
    "MoneySession",
    "OptionError",
    "Outcome",
    "PitchError",
    "RuleSet",
    "View",
    "card_name",
    "card_symbol",
    "fast_path",
    "find_variant",
    "format_cards",
    "parse_action",
    "parse_card",
    "parse_cards",
    "read_record",
    "replay",
    "round_cents",
    "write_record",
]

__version__ = "0.1.0"
