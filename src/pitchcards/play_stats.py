"""A player's playing statistics (issue 10's, shared with issue 32's profiles): matches and
wins, and from every scored hand ``hands``, ``points`` (their side's score change), ``bids`` /
``made`` (contracts they bid, and made) and ``moons`` (moons or smudges they made, A-R6.4).

The terminal game keeps them per variant in a file (``tui/stats.py``); a server keeps them per
account and rating pool, added when a ranked match is rated (``server/stat_store.py``); a
money table counts them as its hands are scored (``server/room_state.py``: its session forgets
its older hands).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from .scoring import HandResult
from .session import GameSession

__all__ = ["Stats", "seat_stats"]


@dataclass
class Stats:
    """One player's totals (in one variant, or one pool)."""

    matches: int = 0
    wins: int = 0
    hands: int = 0
    points: int = 0
    bids: int = 0
    made: int = 0
    moons: int = 0

    @classmethod
    def from_json(cls, data: Any) -> Stats:
        """Read one entry, keeping only whole numbers >= 0 (anything else: 0)."""
        if not isinstance(data, dict):
            return cls()
        values = {f.name: data.get(f.name) for f in fields(cls)}
        return cls(**{k: v if type(v) is int and 0 <= v < 10**12 else 0
                      for k, v in values.items()})

    def add_hand(self, result: HandResult, seat: int, side: int) -> None:
        """Count a scored hand played at ``seat`` (on ``side``)."""
        self.hands += 1
        self.points += result.deltas[side] if side < len(result.deltas) else 0
        if result.pitcher == seat:
            self.bids += 1
            self.made += int(result.made)
            self.moons += int(result.moon and result.made)

    @property
    def points_per_hand(self) -> float | None:
        """Points per hand (None before any hand)."""
        return self.points / self.hands if self.hands else None


def seat_stats(session: GameSession, seat: int) -> Stats:
    """The scored hands of a match played at ``seat`` (no matches or wins counted)."""
    out = Stats()
    side = session.side_of(seat)
    for hand in session.hands:
        if hand.result is not None:
            out.add_hand(hand.result, seat, side)
    return out

