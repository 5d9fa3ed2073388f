"""Your statistics across matches, per variant, kept in the data folder (``stats.json``).

Counted from the Table's events as you play (issue 10): every scored hand adds to ``hands``,
``points`` (your side's score change), ``bids`` / ``made`` (contracts you bid, and made) and
``moons`` (moons or smudges you made); every finished match or money session adds to
``matches`` and, if you won it (a money session: if you were paid more than nothing), ``wins``.
A missing file is a fresh start; a corrupt one is moved aside (:mod:`.jsonfile`) and said.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from ..scoring import HandResult
from ..storage import SaveError
from . import jsonfile
from .config import data_dir

__all__ = ["Stats", "StatsFile", "stats_path"]

#: The file's layout version (``{"version": 1, "variants": {name: Stats fields}}``).
VERSION = 1


def stats_path() -> Path:
    return data_dir() / "stats.json"


@dataclass
class Stats:
    """One variant's totals."""

    matches: int = 0
    wins: int = 0
    hands: int = 0
    points: int = 0
    bids: int = 0
    made: int = 0
    moons: int = 0

    @classmethod
    def from_json(cls, data: Any) -> Stats:
        """Read one variant's entry, keeping only whole numbers >= 0 (anything else: 0)."""
        if not isinstance(data, dict):
            return cls()
        values = {f.name: data.get(f.name) for f in fields(cls)}
        return cls(**{k: v if type(v) is int and 0 <= v < 10**12 else 0
                      for k, v in values.items()})

    def add_hand(self, result: HandResult, seat: int, side: int) -> None:
        self.hands += 1
        self.points += result.deltas[side] if side < len(result.deltas) else 0
        if result.pitcher == seat:
            self.bids += 1
            self.made += int(result.made)
            self.moons += int(result.moon and result.made)


class StatsFile:
    """The statistics file: read once, updated and written after every hand and match."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or stats_path()
        data, self.problem = jsonfile.load(self.path)
        raw = data.get("variants") if data.get("version") == VERSION else None
        if data and raw is None and self.problem is None:
            self.problem = f"{self.path} is not a statistics file of this version; a new one " \
                           "was started"
        self.variants: dict[str, Stats] = {
            str(name): Stats.from_json(entry)
            for name, entry in (raw.items() if isinstance(raw, dict) else ())}
        self.save_error: str | None = None

    def of(self, variant: str) -> Stats:
        return self.variants.setdefault(variant, Stats())

    def add_hand(self, variant: str, result: HandResult, seat: int, side: int) -> None:
        self.of(variant).add_hand(result, seat, side)
        self.save()

    def add_match(self, variant: str, won: bool) -> None:
        stats = self.of(variant)
        stats.matches += 1
        stats.wins += int(won)
        self.save()

    def save(self) -> None:
        data = {"version": VERSION,
                "variants": {name: vars(s) for name, s in sorted(self.variants.items())}}
        try:
            jsonfile.save(self.path, data)
            self.save_error = None
        except SaveError as exc:  # statistics never stop a game: say so on the stats screen
            self.save_error = str(exc)
