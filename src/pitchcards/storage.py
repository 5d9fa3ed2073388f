"""Writing files so that a crash, a full disk or a power cut never leaves half a file.

:func:`write_atomically` writes the text to a temporary file in the target's own folder, flushes
and fsyncs it, renames it over the target (an atomic step on POSIX and Windows) and fsyncs the
folder, so the target is either the old file or the whole new one.  Anything that goes wrong
raises :class:`SaveError` (an ``OSError``) with a message that names the file and the cause, and
leaves no temporary file behind.

:func:`read_text` is the one way a file (or standard input) is read: at most
:data:`READ_LIMIT` bytes of UTF-8, so ``/dev/zero`` or a huge file is refused instead of read
forever; anything that goes wrong raises :class:`ReadError` (an ``OSError``) naming the file.
"""

from __future__ import annotations

import contextlib
import io
import os
import tempfile
from pathlib import Path
from typing import IO

__all__ = ["READ_LIMIT", "ReadError", "SaveError", "config_dir", "data_dir", "ensure_folder",
           "read_text", "write_atomically"]

#: The most bytes :func:`read_text` reads (64 MiB; a game record is a few kilobytes).
READ_LIMIT = 64 * 1024 * 1024


def data_dir() -> Path:
    """Per-user data folder: ``$XDG_DATA_HOME/pitchcards`` (default ``~/.local/share/...``)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                          "share")
    return Path(base) / "pitchcards"


def config_dir() -> Path:
    """Per-user settings folder: ``$XDG_CONFIG_HOME/pitchcards`` (default ``~/.config/...``)."""
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "pitchcards"


class SaveError(OSError):
    """A file could not be written: its message names the file and says why."""


class ReadError(OSError):
    """A file could not be read as text: its message names the file and says why."""


def read_text(path: Path | str, *, stream: IO[bytes] | IO[str] | None = None,
              limit: int = READ_LIMIT) -> str:
    """The UTF-8 text of ``path`` (or of ``stream``, named ``path`` in errors), newlines
    read as ``\n``; :class:`ReadError` naming it if it cannot be opened or read, is longer
    than ``limit`` bytes, or is not UTF-8."""
    try:
        if stream is not None:
            data: bytes | str = stream.read(limit + 1)
        else:
            with open(path, "rb") as f:
                data = f.read(limit + 1)
    except OSError as exc:
        raise ReadError(f"cannot read {path}: {_why(exc)}") from exc
    if len(data) > limit:
        raise ReadError(f"cannot read {path}: it is larger than {limit:,} bytes, too large for "
                        "a game record")
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ReadError(f"cannot read {path}: it is not UTF-8 text (byte {exc.start}: "
                            f"{exc.reason})") from None
    return io.StringIO(data, newline=None).read()  # \r\n and \r read as \n, as open() does


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
