"""Writing files so that a crash, a full disk or a power cut never leaves half a file.

:func:`write_atomically` writes the text to a temporary file in the target's own folder, flushes
and fsyncs it, renames it over the target (an atomic step on POSIX and Windows) and fsyncs the
folder, so the target is either the old file or the whole new one.  Anything that goes wrong
raises :class:`SaveError` (an ``OSError``) with a message that names the file and the cause, and
leaves no temporary file behind.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

__all__ = ["SaveError", "ensure_folder", "write_atomically"]


class SaveError(OSError):
    """A file could not be written: its message names the file and says why."""


def _why(exc: OSError) -> str:
    return exc.strerror or str(exc) or type(exc).__name__


def ensure_folder(folder: Path) -> Path:
    """Create ``folder`` (and its parents) if needed; :class:`SaveError` if it cannot be."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SaveError(f"cannot create the folder {folder}: {_why(exc)}") from exc
    if not folder.is_dir():
        raise SaveError(f"cannot save in {folder}: it is not a folder")
    return folder


def write_atomically(path: Path | str, text: str, encoding: str = "utf-8") -> Path:
    """Replace ``path`` with ``text`` all at once (see the module's docstring)."""
    path = Path(path)
    folder = path.parent
    data = text.encode(encoding)
    try:
        fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise SaveError(f"cannot save {path}: {_why(exc)}") from exc
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise SaveError(f"cannot save {path}: {_why(exc)}") from exc
    _sync_folder(folder)
    return path


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (POSIX; a no-op where folders cannot be opened)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)
