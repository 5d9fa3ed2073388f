"""How long a finished trick stays on the table: the pace setting, kept in the config folder.

``fast`` / ``normal`` / ``slow`` pause after each trick; ``wait`` keeps the trick on the table
until you press a key (issue 10, item 2).  The choice is remembered between runs in
``$XDG_CONFIG_HOME/pitchcards/settings.json`` (key ``pace``).
"""

from __future__ import annotations

from pathlib import Path

from ..errors import OptionError, shown
from ..storage import SaveError
from . import jsonfile
from .config import config_dir

__all__ = ["DEFAULT", "PACES", "check_pace", "load_pace", "next_pace", "save_pace", "settings_path"]

#: Pace -> seconds a finished trick stays on the table (None: until a key is pressed).
PACES: dict[str, float | None] = {"fast": 0.6, "normal": 1.5, "slow": 3.0, "wait": None}
DEFAULT = "normal"


def settings_path() -> Path:
    return config_dir() / "settings.json"


def check_pace(pace: str) -> str:
    """``pace`` if it is one of :data:`PACES`, else :class:`OptionError` listing them."""
    if pace not in PACES:
        raise OptionError(f"unknown pace {shown(pace)}; paces are: {', '.join(PACES)}")
    return pace


def load_pace() -> tuple[str, str | None]:
    """The remembered pace (default ``normal``) and a problem with the settings file, if any."""
    data, problem = jsonfile.load(settings_path())
    pace = data.get("pace")
    return (pace if isinstance(pace, str) and pace in PACES else DEFAULT), problem


def save_pace(pace: str) -> str | None:
    """Remember ``pace``; why it could not be saved, or None."""
    data, _ = jsonfile.load(settings_path())
    data["pace"] = check_pace(pace)
    try:
        jsonfile.save(settings_path(), data)
    except SaveError as exc:
        return str(exc)
    return None


def next_pace(pace: str) -> str:
    """The pace after ``pace`` in the order fast → normal → slow → wait → fast."""
    names = list(PACES)
    return names[(names.index(pace) + 1) % len(names)] if pace in names else DEFAULT
