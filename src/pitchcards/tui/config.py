"""What game to play: variant, rule options, table size, bots, target, seed; where saves go.

Everything here is plain data and validation, shared by the ``pitch play`` command line and the
in-game setup screen.  Bad values raise :class:`~pitchcards.errors.OptionError` (a
``ValueError``) naming what is allowed.
"""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path
from typing import Any

from ..errors import OptionError, shown
from ..rules import VARIANTS, RuleSet, find_variant
from ..storage import config_dir, data_dir, ensure_folder
from .words import HUMAN, count

__all__ = ["BOT_NAMES", "HUMAN", "LEVELS", "GameConfig", "config_dir", "data_dir", "parse_bots",
           "parse_option"]

#: Bot levels offered to the player, weakest first.
LEVELS = ("easy", "medium", "hard", "expert")
#: Names for bot seats (short, no spaces: they go into game records unquoted).
BOT_NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lou",
             "Max", "Ned", "Oz", "Pat")


def new_file(kind: str, stem: str, suffix: str = ".txt") -> Path:
    """A new file ``STAMP-STEM.txt`` in the data folder's ``kind`` folder (made if missing),
    never one that exists: saved games (``saves``), finished games' records (``records``) and
    score sheets (``scores``, ``.json``)."""
    folder = ensure_folder(data_dir() / kind)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = folder / f"{stamp}-{stem}{suffix}"
    i = 1
    while path.exists():
        path = folder / f"{stamp}-{stem}-{i}{suffix}"
        i += 1
    return path


def parse_option(text: str) -> tuple[str, Any]:
    """``NAME=VALUE`` from the command line, the value typed like the option's allowed values."""
    name, sep, raw = text.partition("=")
    name = name.strip().replace("-", "_")
    if not sep or not name:
        raise OptionError(f"option {shown(text)} must be NAME=VALUE, e.g. low_to=holder")
    return name, option_value(name, raw.strip())


def option_value(name: str, raw: str) -> Any:
    allowed = RuleSet.OPTION_CHOICES.get(name)
    low = raw.lower()
    if low in ("true", "yes", "on") and allowed is None:
        return True
    if low in ("false", "no", "off") and allowed is None:
        return False
    if low == "none" and name == "target":
        return None
    if (allowed is not None and isinstance(allowed[0], int)) or name in (
            "target", "min_players", "max_players"):
        try:
            return int(raw)
        except ValueError:
            raise OptionError(f"option {name}={shown(raw)} must be a whole number"
                              + (f"; allowed values: {', '.join(map(str, allowed))}"
                                 if allowed else "")) from None
    return raw


def parse_bots(spec: str | None, seats: int, default: str = "medium") -> list[str]:
    """Bot levels for the ``seats`` bot seats: ``LEVEL`` for all, ``L1,L2,...`` in seat order
    (the last repeats), or ``SEAT=LEVEL,...`` (bot seats are 1..n-1; you sit at seat 0).

    More levels than bot seats is an error naming the table size, as a seat number beyond the
    table is: a level is never dropped silently (issue 10, item 9)."""
    levels = [default] * seats
    if not spec:
        return levels
    parts = [p.strip().lower() for p in spec.split(",") if p.strip()]
    if not parts:
        return levels
    for part in parts:
        level = part.partition("=")[2] if "=" in part else part
        if level not in LEVELS:
            raise OptionError(f"unknown bot level {shown(level)}; levels are: {', '.join(LEVELS)}")
    if all("=" in p for p in parts):
        for part in parts:
            seat_text, _, level = part.partition("=")
            try:
                seat = int(seat_text)
            except ValueError:
                raise OptionError(f"bad seat in --bots {shown(part)}: use SEAT=LEVEL with SEAT "
                                  f"from 1 to {seats}") from None
            if not 1 <= seat <= seats:
                raise OptionError(f"no bot seat {seat} at {_table_of(seats)}: bot seats are "
                                  f"1 to {seats} (you sit at seat 0)")
            levels[seat - 1] = level
        return levels
    if any("=" in p for p in parts):
        raise OptionError("--bots takes LEVEL, a list LEVEL,LEVEL,... or SEAT=LEVEL,... "
                          "but not a mix")
    if len(parts) > seats:
        raise OptionError(f"--bots lists {count(len(parts), 'level')} but {_table_of(seats)} "
                          f"has {count(seats, 'bot seat')} (you sit at seat 0)")
    for i in range(seats):
        levels[i] = parts[min(i, len(parts) - 1)]
    return levels


def _table_of(bot_seats: int) -> str:
    """"a 4-player table" for 3 bot seats (you are the other player)."""
    return f"a {bot_seats + 1}-player table"


@dataclasses.dataclass
class GameConfig:
    """One game's settings.  ``rules()`` and ``table()`` validate them."""

    variant: str = "auction"
    players: int | None = None          #: None: 4 where allowed
    bots: tuple[str, ...] = ()          #: a level per bot seat (1..n-1); () = all ``level``
    level: str = "medium"               #: default bot level (and for money-game joiners)
    target: int | None = None           #: None: the variant's
    seed: int | None = None
    practice: bool = False              #: a practice game (undo is allowed in every game)
    options: dict[str, Any] = dataclasses.field(default_factory=dict)

    def rules(self) -> RuleSet:
        base = find_variant(self.variant)
        changes = dict(self.options)
        if self.target is not None:
            if base.target is None:
                raise OptionError(f"the {base.name!r} game has no target (it is played for "
                                  "money until you settle)")
            changes["target"] = self.target
        rules = base.replace(**changes) if changes else base
        return rules

    def table(self) -> int:
        """The number of seats (you and the bots)."""
        rules = self.rules()
        low, high = rules.player_range
        if self.players is None:
            return rules.default_players
        if not low <= self.players <= high:
            hint = " (add --option allow_two_players=true for two)" if self.players == 2 else ""
            allowed = (f"exactly {count(low, 'player')}" if low == high
                       else f"{low} to {high} players")
            raise OptionError(f"{shown(self.variant)} is played by {allowed}, not by "
                              f"{self.players}{hint}")
        return self.players

    def bot_levels(self) -> list[str]:
        n = self.table() - 1
        if self.level not in LEVELS:
            raise OptionError(f"unknown bot level {shown(self.level)}; levels are: "
                              f"{', '.join(LEVELS)}")
        if len(self.bots) > n:
            raise OptionError(f"{count(len(self.bots), 'bot level')} given but "
                              f"{_table_of(n)} has {count(n, 'bot seat')}")
        levels = list(self.bots) + [self.bots[-1] if self.bots else self.level] * (
            n - len(self.bots))
        for level in levels:
            if level not in LEVELS:
                raise OptionError(f"unknown bot level {shown(level)}; levels are: "
                                  f"{', '.join(LEVELS)}")
        return levels

    def check(self) -> None:
        """Raise OptionError if these settings cannot be played."""
        self.rules()
        self.table()
        self.bot_levels()


VARIANT_NAMES = tuple(VARIANTS)
