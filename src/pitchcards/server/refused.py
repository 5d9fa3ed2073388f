"""A request the server turns down (every layer of a table, and the hub, say no this way)."""

from __future__ import annotations

from collections.abc import Sequence

from .protocol import ErrorMessage

__all__ = ["Refused"]


class Refused(Exception):
    """A request the server turns down: a reason code (protocol.SERVER_REASONS or the
    engine's REASONS), words, and the HTTP status it maps to.  Nothing changed."""

    def __init__(self, reason: str, message: str, status: int = 409,
                 legal: Sequence[str] | None = None, words: str | None = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message
        self.status = status
        self.legal = list(legal) if legal is not None else None
        self.words = words

    def to_message(self, seq: int | None) -> ErrorMessage:
        return ErrorMessage(reason=self.reason, message=self.message, words=self.words, seq=seq,
                            legal=self.legal)
