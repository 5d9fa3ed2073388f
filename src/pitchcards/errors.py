"""The errors the engine raises.  All are ``ValueError`` subclasses (python-chess's habit).

* :class:`InvalidActionError` — text that cannot be read as an action at all.
* :class:`IllegalActionError` — a readable action that is not allowed now, or an operation at the
  wrong time (dealing mid-hand, leaving during a hand).
* :class:`OptionError` — an unknown rules option or value.

A refused call changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = [
    "IllegalActionError",
    "InvalidActionError",
    "InvalidCardError",
    "OptionError",
    "PitchError",
]


class PitchError(ValueError):
    """Base class of every error this package raises for bad input."""


class InvalidActionError(PitchError):
    """The input cannot be read as an action (or a card)."""


class InvalidCardError(InvalidActionError):
    """The input cannot be read as a card."""


class IllegalActionError(PitchError):
    """A well-formed action or operation that the rules do not allow now.

    ``action``, ``seat``, ``phase`` and ``legal`` say what was tried, by whom, when, and what
    would have been allowed.
    """

    def __init__(self, message: str, *, action: str | None = None, seat: int | None = None,
                 phase: str | None = None, legal: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.action = action
        self.seat = seat
        self.phase = phase
        self.legal = tuple(legal)


class OptionError(PitchError):
    """An unknown rules option, or a value the option does not allow."""
