"""Your statistics across matches, per variant, kept in the data folder (``stats.json``).

Counted from the Table's events as you play (issue 10): every scored hand adds to ``hands``,
``points`` (your side's score change), ``bids`` / ``made`` (contracts you bid, and made) and
``moons`` (moons or smudges you made); every finished match or money session adds to
``matches`` and, if you won it (a money session: if you were paid more than nothing), ``wins``.
A missing file is a fresh start; a corrupt one is moved aside (:mod:`.jsonfile`) and said.
"""

from __future__ import annotations

from pathlib import Path

from ..play_stats import Stats
from ..scoring import HandResult
from ..storage import SaveError
from . import jsonfile
from .config import data_dir

__all__ = ["Stats", "StatsFile", "stats_path"]

#: The file's layout version (``{"version": 1, "variants": {name: Stats fields}}``).
VERSION = 1


def stats_path() -> Path:
    return data_dir() / "stats.json"


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
