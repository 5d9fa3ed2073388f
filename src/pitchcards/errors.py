"""The errors the engine raises.  All are ``ValueError`` subclasses (python-chess's habit).

* :class:`InvalidActionError` — text that cannot be read as an action at all.
* :class:`IllegalActionError` — a readable action that is not allowed now, or an operation at the
  wrong time (dealing mid-hand, leaving during a hand).
* :class:`OptionError` — an unknown rules option or value.

A refused call changes nothing.

Errors are data as well as text: every :class:`IllegalActionError` carries a machine-readable
``reason``, one of the keys of :data:`REASONS`, so a face (the terminal game, a web client) can
say what went wrong in its own words without parsing the message.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = [
    "REASONS",
    "DataError",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidCardError",
    "OptionError",
    "PitchError",
    "shown",
]

#: Every ``IllegalActionError.reason``, with what it means (docs/rules.md §6 lists them too).
REASONS: dict[str, str] = {
    "not_your_turn": "the seat that tried to act is not the seat to act",
    "not_your_seat": "an outside action for a seat that a bot plays (or no such seat)",
    "bad_seq": "an event number (seq) that is not one of this table's (negative, or not an int)",
    "no_such_seat": "a seat argument that is not a seat number of this table (an int 0..n-1)",
    "card_not_held": "a card the seat does not hold",
    "must_follow_suit": "the seat holds the led suit and must follow it (or trump, as allowed)",
    "must_follow_trump": "trump was led and the seat holds trump (follow_trump_only)",
    "bid_too_low": "a bid below the lowest bid allowed now",
    "bid_too_high": "a bid above the highest bid the rules allow",
    "must_bid": "the dealer may not pass: everyone else passed and the dealer is forced to bid",
    "pitch_not_allowed": "pitching a card is not a bid the rules or the auction allow now",
    "auction_over": "a bid, pass or pitch after the auction ended",
    "auction_in_progress": "a card played while the auction is still running",
    "hand_over": "an action after the hand ended",
    "must_name_trump": "anything but naming trump while the pitcher must name it (T5)",
    "must_discard": "anything but a discard while seats discard down to six (T4)",
    "joker_cannot_open": "a joker as the first card of a hand whose first lead names trump (T6)",
    "must_lead_trump": "a non-trump first lead when the rules ask for a trump and the leader "
                       "holds one (T6)",
    "must_call": "anything but calling a card while the pitcher must call a partner (CP3)",
    "bad_call": "a call of a card the pitcher may not call: one it holds (call_rule='not_own') "
                "or one not in the deck (CP3)",
    "called_card": "a discard of the called card, which its holder must keep (CP3)",
    "game_over": "the match is won or the money session settled",
    "no_hand": "no hand is in progress (deal first)",
    "hand_in_progress": "dealing, joining, leaving or settling during a hand",
    "nothing_to_undo": "undo with no action taken",
    "undo_blocked": "undo into a hand after players joined or left",
    "bad_setup": "a table that cannot be set up: players, dealer, scores or names",
    "bad_deal": "a stacked deal or a redeal that is not a deal of this table",
    "join_leave_not_allowed": "the rules do not allow joining or leaving",
    "name_taken": "a joining player's name is already at the table or has left",
    "not_seated": "a player who is not seated (left, or not yet dealt in) cannot leave, act, "
                  "chat or settle",
    "table_full": "no seat is free",
    "wrong_dealer": "a hand entered by its outcome names a dealer the rotation does not give",
    "bad_outcome": "a hand's outcome that no hand under these rules can have (points, moon, "
                   "sweep, a bid that is not a bid, Game tied by one side)",
}

#: The longest piece of bad input an error message repeats (a 10 MB line gives no 10 MB error).
SHOWN_LIMIT = 60


def shown(value: object) -> str:
    """``repr(value)``, cut to :data:`SHOWN_LIMIT` characters, for quoting bad input.

    Never raises: an int too long to print (``repr`` refuses past 4300 digits) or anything
    whose ``repr`` fails is named by its type.
    """
    if isinstance(value, int) and abs(value).bit_length() > 4 * SHOWN_LIMIT:
        return f"<an int of {abs(value).bit_length()} bits>"
    try:
        text = repr(value)
    except Exception:  # quoting bad input must never fail on it
        return f"<a {type(value).__name__} that cannot be shown>"
    if len(text) <= SHOWN_LIMIT:
        return text
    return f"{text[:SHOWN_LIMIT - 20]}…({len(text)} characters)"


class PitchError(ValueError):
    """Base class of every error this package raises for bad input."""


class InvalidActionError(PitchError):
    """The input cannot be read as an action (or a card)."""


class InvalidCardError(InvalidActionError):
    """The input cannot be read as a card."""


class IllegalActionError(PitchError):
    """A well-formed action or operation that the rules do not allow now.

    ``action``, ``seat``, ``phase`` and ``legal`` say what was tried, by whom, when, and what
    would have been allowed; ``reason`` is a key of :data:`REASONS`.
    """

    def __init__(self, message: str, *, reason: str, action: str | None = None,
                 seat: int | None = None, phase: str | None = None,
                 legal: Sequence[str] = ()) -> None:
        super().__init__(message)
        if reason not in REASONS:
            raise KeyError(f"undocumented error reason {reason!r}")
        self.reason = reason
        self.action = action
        self.seat = seat
        self.phase = phase
        self.legal = tuple(legal)


class DataError(PitchError):
    """JSON that is not a view or an event this version reads (a client's or a store's)."""


class OptionError(PitchError):
    """An unknown rules option, or a value the option does not allow."""
