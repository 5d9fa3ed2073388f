"""The seats you took at server tables, kept so that ``pitch play --join`` with the same invite
takes the same seat again after the terminal was closed (the server holds it for you, then a
stand-in bot plays it until you are back).

The file is ``$XDG_DATA_HOME/pitchcards/seats.json``, readable by you alone (a seat token acts
for your seat).  Entries are keyed by the server and the invite code; a seat the server no
longer knows is forgotten.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from ..client import Seat
from ..storage import data_dir
from . import jsonfile

__all__ = ["forget", "recall", "remember", "seats_file"]

#: How many seats are kept (the oldest are dropped).
KEEP = 50


def seats_file() -> Path:
    return data_dir() / "seats.json"


def _key(server: str, invite: str) -> str:
    return f"{server.rstrip('/')}|{invite.rstrip('/').rsplit('/', 1)[-1]}"


def remember(server: str, invite: str, seat: Seat) -> None:
    """Keep ``seat`` for ``invite`` (a code or invite URL) at ``server``."""
    data, _ = jsonfile.load(seats_file())
    data.pop(_key(server, invite), None)
    data[_key(server, invite)] = dataclasses.asdict(seat)
    for old in list(data)[:-KEEP]:
        del data[old]
    jsonfile.save(seats_file(), data)


def recall(server: str, invite: str) -> Seat | None:
    """The seat you took with ``invite`` at ``server`` before, if you did."""
    data, _ = jsonfile.load(seats_file())
    entry = data.get(_key(server, invite))
    if not isinstance(entry, dict):
        return None
    try:
        return Seat(**entry)
    except TypeError:
        return None


def forget(server: str, invite: str) -> None:
    data, _ = jsonfile.load(seats_file())
    if data.pop(_key(server, invite), None) is not None:
        jsonfile.save(seats_file(), data)
