"""What a tournament on the server is, rebuilt from its events: the pure part (issue 34).

A :class:`TournamentState` is made from a
:class:`~pitchcards.server.tournament_store.StoredTournament` by applying its events in order
(:meth:`TournamentState.apply`); the format itself is the core's
:class:`~pitchcards.tournament.Duplicate` (movements, matchpoints, standings), made at the
``start`` event from the entrants then, the bots that fill the last table, and the tournament's
secret seed.  No asyncio, no storage: server/tournaments.py stores each event, creates the
rounds' tables and records their boards.

The events (docs/protocol.md, "Tournaments"):

* ``register`` ``{entry, names, tokens}`` — an entrant (a pair's two players, or one player),
  each player's secret kept only hashed (``tokens``);
* ``start`` ``{entrants, bots}`` — the entrants in the movement's order, the bots' names;
* ``round`` ``{round, tables}`` — the ids of the round's tables, table 0 first;
* ``result`` ``{round, table, deltas}`` — a table's score changes per side, board by board;
* ``noshow`` ``{name}`` — a bot plays that player's seat from now on;
* ``withdraw`` ``{entrant}`` — bots play the entrant's seats; it leaves the standings;
* ``late`` ``{entrant, names, tokens}`` — latecomers take a bot entrant's seats from the
  next round on;
* ``over``.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Literal

from ..tournament import Duplicate, Play, Standing
from ..tournament.layout import bot_names
from .names import name_key
from .refused import Refused
from .store import PlayerRow
from .tournament_store import StoredTournament

__all__ = ["Seating", "TournamentState", "entrant_name", "seat_player", "with_bots"]

Format = Literal["pairs", "individual"]


@dataclasses.dataclass(frozen=True, slots=True)
class Seating:
    """Where a player sits in a round: the table's number and id, the seat, and whether a bot
    plays it (a no-show, a withdrawn entrant)."""

    round: int
    table: int
    table_id: str | None
    seat: int
    bot: bool


class TournamentState:
    """A tournament as its events make it (module doc)."""

    def __init__(self, stored: StoredTournament) -> None:
        self.id = stored.id
        self.config: dict[str, Any] = stored.config
        self.seed = stored.seed
        self.director_hash = stored.director_hash
        self.invite_hash = stored.invite_hash
        self.format: Format = self.config["format"]
        self.status = "registering"
        #: entrant name -> its players' names (a pair: seats 0/1 first, then 2/3)
        self.holders: dict[str, list[str]] = {}
        #: player name -> the hash of their secret
        self.tokens: dict[str, str] = {}
        self.noshows: set[str] = set()
        self.withdrawn: set[str] = set()
        #: late entrants: entrant -> the round they play from
        self.late_from: dict[str, int] = {}
        #: the players of a late entrant (before ``late_from``, its bots held the seats)
        self.late_names: dict[str, list[str]] = {}
        self.event: Duplicate | None = None
        self.bots: frozenset[str] = frozenset()
        #: round -> its tables' ids, table 0 first
        self.round_tables: dict[int, list[str]] = {}
        #: table id -> (round, table)
        self.table_of: dict[str, tuple[int, int]] = {}
        self.version = 0
        for entry in stored.entries:
            self.apply(entry)
        self.version = len(stored.entries)

    # ------------------------------------------------------------------ events
    def apply(self, entry: dict[str, Any]) -> None:
        """Apply one event (stored, or about to be): a bad one raises and changes nothing."""
        op = entry["op"]
        if op == "register":
            for name, token in zip(entry["names"], entry["tokens"], strict=True):
                self.tokens[name] = token
            self.holders[entrant_name(entry["names"])] = list(entry["names"])
        elif op == "start":
            entrants = list(entry["entrants"])
            self.bots = frozenset(entry["bots"])
            for bot in self.bots:
                self.holders[bot] = [f"{bot}{s}" for s in ("a", "b")] \
                    if self.format == "pairs" else [bot]
            self.event = Duplicate(
                entrants, boards_per_round=self.config["boards_per_round"], seed=self.seed,
                movement="mitchell" if self.format == "pairs" else "individual",
                rounds=self.config.get("rounds"),
                partnership=self.format == "pairs" or bool(self.config.get("partnership")),
                bots=self.bots)
            self.status = "running"
        elif op == "round":
            self.round_tables[entry["round"]] = list(entry["tables"])
            for t, table_id in enumerate(entry["tables"]):
                self.table_of[table_id] = (entry["round"], t)
        elif op == "result":
            event = self.started()
            for board, deltas in zip(event.boards_of_round(entry["round"]), entry["deltas"],
                                     strict=True):
                if not event.is_recorded(board.number, entry["table"]):
                    event.record(board.number, entry["table"], deltas)
        elif op == "noshow":
            self.noshows.add(entry["name"])
        elif op == "withdraw":
            self.withdrawn.add(entry["entrant"])
        elif op == "late":
            old = entry["entrant"]
            for name, token in zip(entry["names"], entry["tokens"], strict=True):
                self.tokens[name] = token
            self.late_names[old] = list(entry["names"])
            self.late_from[old] = entry["from_round"]
        elif op == "over":
            self.status = "over"
        else:  # pragma: no cover - the events hold only what the service writes
            raise ValueError(f"unknown tournament event {entry!r}")

    # ------------------------------------------------------------------ reading
    def started(self) -> Duplicate:
        if self.event is None:
            raise Refused("bad_tournament", "the tournament has not started yet")
        return self.event

    def taken(self, names: list[str]) -> str | None:
        """A name of ``names`` someone registered already (compared as people read them)."""
        keys = {name_key(n) for n in [*self.tokens, *self.holders]}
        return next((n for n in names if name_key(n) in keys), None)

    @property
    def current_round(self) -> int | None:
        return max(self.round_tables) if self.round_tables else None

    def round_done(self, round_: int) -> bool:
        return self.started().round_complete(round_)

    def plays_of(self, round_: int) -> list[Play]:
        """The first board's play of each table of ``round_`` (who sits where), table 0
        first."""
        event = self.started()
        first = event.boards_of_round(round_)[0].number
        return [event.play(first, t) for t in range(event.tables)]

    def is_late(self, entrant: str, round_: int) -> bool:
        """A late entrant plays ``round_`` (from the round after its entry on)."""
        return entrant in self.late_from and round_ >= self.late_from[entrant]

    def is_bot_seat(self, entrant: str, player: str, round_: int) -> bool:
        return (entrant in self.bots and not self.is_late(entrant, round_)) \
            or entrant in self.withdrawn or player in self.noshows

    def seats_of(self, play: Play, fill: str) -> list[PlayerRow]:
        """The players of one table of a round, seat by seat (bots where nobody plays)."""
        return [seat_player(self, play, seat, fill) for seat in range(4)]

    def player_names(self) -> set[str]:
        """Every person registered (late entrants included)."""
        return set(self.tokens)

    def seating(self, player: str) -> Seating | None:
        """Where ``player`` sits in the current round (None: not in it, or not started)."""
        round_ = self.current_round
        if round_ is None:
            return None
        for play in self.plays_of(round_):
            for seat in range(4):
                entrant = play.seats[seat]
                if self.holder(entrant, seat, round_) == player:
                    tables = self.round_tables[round_]
                    return Seating(round=round_, table=play.table,
                                   table_id=tables[play.table] if play.table < len(tables)
                                   else None, seat=seat,
                                   bot=self.is_bot_seat(entrant, player, round_))
        return None

    def holder(self, entrant: str, seat: int, round_: int) -> str:
        """Who of ``entrant`` holds ``seat`` in ``round_``: a pair's first player seats 0 and
        1, its second seats 2 and 3 (partners sit opposite)."""
        who = self.late_names[entrant] if self.is_late(entrant, round_) \
            else self.holders[entrant]
        return who[0] if len(who) == 1 or seat < 2 else who[1]

    def display(self, entrant: str) -> str:
        """An entrant as the standings show it: a late pair under its players' names."""
        if entrant in self.late_from:
            names = entrant_name(self.late_names[entrant])
            return f"{names} (from round {self.late_from[entrant] + 1})"
        return entrant

    def standings(self) -> list[Standing]:
        """The barometer: every round every table has finished; withdrawn entrants last."""
        if self.event is None:
            return []
        rows = self.event.standings()
        return [s for s in rows if s.entrant not in self.withdrawn] + \
            [s for s in rows if s.entrant in self.withdrawn]


def entrant_name(names: list[str]) -> str:
    """An entrant's name: the player's, or a pair's two joined (``Ann & Bob``)."""
    return " & ".join(names)


def seat_player(state: TournamentState, play: Play, seat: int, fill: str) -> PlayerRow:
    """The player of ``seat`` at ``play``'s table: a person with their tournament secret's
    hash (the same secret opens every table they sit at), or a bot of level ``fill``."""
    entrant = play.seats[seat]
    name = state.holder(entrant, seat, play.round)
    if state.is_bot_seat(entrant, name, play.round):
        return PlayerRow(name, seat, None, fill, False)
    return PlayerRow(name, seat, state.tokens[name], None, False)


def with_bots(state: TournamentState, entrants: list[str]) -> tuple[list[str], list[str]]:
    """The entrants at the start plus the bots that fill the last table, and the bots' names
    (at least two tables: a movement compares tables)."""
    per_table = 2 if state.format == "pairs" else 4
    needed = max(2 * per_table, -(-len(entrants) // per_table) * per_table)
    bots = list(bot_names(needed - len(entrants), entrants))
    return [*entrants, *bots], bots
