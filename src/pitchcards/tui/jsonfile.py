"""A small JSON file of the player's own (settings, statistics) that never stops the game.

A missing file reads as ``{}``; a file that cannot be read or is not a JSON object reads as
``{}`` too, is moved aside to ``NAME.corrupt`` (so nothing is lost) and the problem is returned
for the screen to say.  Writes are atomic (:func:`~pitchcards.storage.write_atomically`).
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any

from ..storage import ReadError, ensure_folder, read_text, write_atomically

__all__ = ["load", "save"]

#: Settings and statistics are a few kilobytes: anything larger is not ours.
LIMIT = 1 << 20


def load(path: Path) -> tuple[dict[str, Any], str | None]:
    """``(data, problem)``: the file's JSON object, or ``{}`` and why it could not be used
    (None when the file is fine or simply missing)."""
    if not path.exists():
        return {}, None
    try:
        data = json.loads(read_text(path, limit=LIMIT))
    except (ReadError, ValueError, RecursionError) as exc:
        return {}, _set_aside(path, str(exc).splitlines()[0][:200] if str(exc) else "unreadable")
    if not isinstance(data, dict):
        return {}, _set_aside(path, f"it holds a JSON {type(data).__name__}, not an object")
    return data, None


def _set_aside(path: Path, why: str) -> str:
    aside = path.with_name(path.name + ".corrupt")
    with contextlib.suppress(OSError):
        os.replace(path, aside)
        return f"{path} could not be read ({why}); it was moved to {aside} and a new one started"
    return f"{path} could not be read ({why}); a new one was started"


def save(path: Path, data: dict[str, Any]) -> None:
    """Write ``data`` to ``path`` at once; :class:`~pitchcards.storage.SaveError` if it cannot."""
    ensure_folder(path.parent)
    write_atomically(path, json.dumps(data, indent=1, sort_keys=True) + "\n")
