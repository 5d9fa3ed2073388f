"""An event as the frame each connection is sent, the public part of its view encoded once.

Since a seat's copy of an action's event carries that seat's own view (issue 29: no client
folds events), the copies of one event differ only in the view's own part
(:meth:`View.own_dict <pitchcards.views.View.own_dict>`: the seat, its cards, discards and legal
actions) and in the event's own fields (``legal``, a hidden discard's ``action``).  The rest of
the view — the table's public state with the rules' facts, most of the bytes — is the same for
every seat and spectator.  :class:`EventFrames` encodes that part once per event and splices
each copy's own part beside it, so an action costs one full encoding and a small one per
seat, not a full one per seat and connection (docs/server.md, "The cost of 'the browser knows
no rule'").  What a seat may see is still decided by ``Table.cut`` alone: this module only
encodes the copy it is given.
"""

from __future__ import annotations

import json
from typing import Any

from ..events import Event
from ..views import View

__all__ = ["EventFrames", "event_frame"]

#: The fields an event carries a view in (``hand_dealt``: ``view``; the others: ``state``).
_VIEW_FIELDS = ("state", "view")


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def _view_field(event: Event) -> str | None:
    for name in _VIEW_FIELDS:
        if name in event.__dataclass_fields__:
            return name
    return None


class EventFrames:
    """The frames of one event: :meth:`frame` of each connection's copy (``Table.cut``).

    The public part of the event's view is encoded at most once, from the event itself; a
    copy's view differs from it only in :meth:`View.own_dict` (tests/test_server_frames.py
    checks every copy of every event of played tables against ``to_dict``)."""

    __slots__ = ("_event", "_field", "_public", "_shared", "_timed_out")

    def __init__(self, event: Event, timed_out: bool = False) -> None:
        self._event = event
        self._timed_out = timed_out
        self._field = _view_field(event)
        self._public: str | None = None   #: the public view's keys, without braces
        self._shared: str | None = None   #: the frame of the event itself (a spectator's)

    def frame(self, copy: Event) -> str:
        """The text frame of ``copy``: this event as one connection may see it."""
        if copy is self._event and self._shared is not None:
            return self._shared
        text = '{"type":"event","event":' + self._encode(copy) + (
            ',"timed_out":true}' if self._timed_out else "}")
        if copy is self._event:
            self._shared = text
        return text

    def _encode(self, copy: Event) -> str:
        field = self._field
        view = getattr(copy, field) if field is not None else None
        if field is None or not isinstance(view, View):
            return _dumps(copy.to_dict())
        head = _dumps(copy.to_dict(skip=field))
        return (head[:-1] + ',"' + field + '":{' + self._public_part() + ","
                + _dumps(view.own_dict())[1:] + "}")

    def _public_part(self) -> str:
        if self._public is None:
            view = getattr(self._event, self._field or "")
            assert isinstance(view, View)  # a copy has a view only where the event has one
            self._public = _dumps(view.public_dict())[1:-1]
        return self._public


def event_frame(event: Event, timed_out: bool = False) -> str:
    """One copy's frame on its own (a catch-up's replayed events, each sent once)."""
    return EventFrames(event, timed_out).frame(event)
