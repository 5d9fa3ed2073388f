"""What a tournament on the server is, rebuilt from its events: the pure part (issue 34).

A :class:`TournamentState` is made from a
:class:`~pitchcards.server.tournament_store.StoredTournament` by applying its events in order
(:meth:`TournamentState.apply`); the format itself is the core's
:class:`~pitchcards.tournament.Duplicate` (movements, matchpoints, standings), made at the
``start`` event from the entrants then, the bots that fill the last table, and the tournament's
secret seed.  No asyncio, no storage: server/tournaments.py stores each event, creates the
rounds' tables and records their boards.

The format is a :class:`~pitchcards.server.tournament_rounds.Rounds`: the core's
:class:`~pitchcards.tournament.Duplicate`, :class:`~pitchcards.tournament.Progressive` or
:class:`~pitchcards.tournament.Swiss` seen a round at a time.

The events (docs/protocol.md, "Tournaments"):

* ``register`` ``{entry, names, tokens, accounts}`` — an entrant (a pair's two players, or
  one player), each player's secret kept only hashed (``tokens``); ``accounts``: the name ->
  account id of a signed-in player (also on ``late`` and ``enter``);
* ``start`` ``{entrants, bots}`` — the entrants in the movement's order, the bots' names;
* ``round`` ``{round, tables}`` — the ids of the round's tables, table 0 first;
* ``result`` ``{round, table, deltas}`` — a table's score changes per side, board by board;
* ``noshow`` ``{name}`` — a bot plays that player's seat from now on;
* ``withdraw`` ``{entrant}`` — bots play the entrant's seats; it leaves the standings;
* ``late`` ``{entrant, names, tokens}`` — latecomers take a bot entrant's seats from the
  next round on (duplicate);
* ``enter`` ``{names, tokens}`` — a late entrant of a progressive or Swiss event, seated from
  the next round the format seats;
* ``over``.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Literal

from ..tournament import Duplicate, Progressive, Standing, Swiss
from ..tournament.layout import bot_names
from .names import name_key
from .refused import Refused
from .store import PlayerRow
from .tournament_rounds import DuplicateRounds, ProgressiveRounds, Rounds, SwissRounds, TablePlan
from .tournament_store import StoredTournament

__all__ = ["Seating", "TournamentState", "entrant_name", "seat_player", "with_bots"]

Format = Literal["pairs", "individual", "progressive", "swiss"]

#: the rounds of a progressive night or a Swiss when the director names none
DEFAULT_ROUNDS = {"progressive": 4, "swiss": 3}


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
        #: player name -> the account they registered as (signed in), if they did
        self.accounts: dict[str, str] = {}
        self.noshows: set[str] = set()
        self.withdrawn: set[str] = set()
        #: late entrants: entrant -> the round they play from
        self.late_from: dict[str, int] = {}
        #: the players of a late entrant (before ``late_from``, its bots held the seats)
        self.late_names: dict[str, list[str]] = {}
        self.event: Rounds | None = None
        #: progressive and Swiss late entrants: entrant -> the round they play from
        self.joined: dict[str, int] = {}
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
        self.accounts.update(entry.get("accounts") or {})  # register, late, enter
        if op == "register":
            for name, token in zip(entry["names"], entry["tokens"], strict=True):
                self.tokens[name] = token
            self.holders[entrant_name(entry["names"])] = list(entry["names"])
        elif op == "start":
            entrants = list(entry["entrants"])
            self.bots = frozenset(entry["bots"])
            for bot in self.bots:
                self.holders[bot] = [f"{bot}{s}" for s in ("a", "b")] \
                    if self.pairs else [bot]
            self.event = self._format(entrants)
            self.status = "running"
        elif op == "round":
            self.started().begin(entry["round"])
            self.round_tables[entry["round"]] = list(entry["tables"])
            for t, table_id in enumerate(entry["tables"]):
                self.table_of[table_id] = (entry["round"], t)
        elif op == "result":
            self.started().record(entry["round"], entry["table"], entry["deltas"])
        elif op == "noshow":
            self.noshows.add(entry["name"])
        elif op == "withdraw":
            self.started().withdraw(entry["entrant"])
            self.withdrawn.add(entry["entrant"])
        elif op == "late":
            old = entry["entrant"]
            for name, token in zip(entry["names"], entry["tokens"], strict=True):
                self.tokens[name] = token
            self.late_names[old] = list(entry["names"])
            self.late_from[old] = entry["from_round"]
        elif op == "enter":
            entrant = entrant_name(entry["names"])
            self.joined[entrant] = self.started().enter(entrant)
            for name, token in zip(entry["names"], entry["tokens"], strict=True):
                self.tokens[name] = token
            self.holders[entrant] = list(entry["names"])
        elif op == "over":
            self.status = "over"
        else:  # pragma: no cover - the events hold only what the service writes
            raise ValueError(f"unknown tournament event {entry!r}")

    def _format(self, entrants: list[str]) -> Rounds:
        """The core's format for the entrants at the start (and the bots among them)."""
        config = self.config
        boards = int(config["boards_per_round"])
        if self.format == "progressive":
            return ProgressiveRounds(Progressive(entrants, seed=self.seed, bots=self.bots),
                                     boards, config.get("rounds") or DEFAULT_ROUNDS["progressive"])
        if self.format == "swiss":
            return SwissRounds(Swiss(entrants, rounds=config.get("rounds")
                                     or DEFAULT_ROUNDS["swiss"],
                                     table_size=2 if self.pairs else 4, seed=self.seed,
                                     bots=self.bots), boards)
        return DuplicateRounds(Duplicate(
            entrants, boards_per_round=boards, seed=self.seed,
            movement="mitchell" if self.format == "pairs" else "individual",
            rounds=config.get("rounds"),
            partnership=self.format == "pairs" or bool(config.get("partnership")),
            bots=self.bots))

    @property
    def pairs(self) -> bool:
        """Whether an entrant is a pair (two names, opposite seats)."""
        return entry_size(self.config) == 2

    @property
    def duplicate(self) -> bool:
        return self.format in ("pairs", "individual")

    # ------------------------------------------------------------------ reading
    def started(self) -> Rounds:
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

    def plans_of(self, round_: int) -> list[TablePlan]:
        """Each table of ``round_`` (who sits where, the boards it deals), table 0 first."""
        return self.started().plans(round_)

    def is_late(self, entrant: str, round_: int) -> bool:
        """A late entrant plays ``round_`` (from the round after its entry on)."""
        return entrant in self.late_from and round_ >= self.late_from[entrant]

    def is_bot_seat(self, entrant: str, player: str, round_: int) -> bool:
        return (entrant in self.bots and not self.is_late(entrant, round_)) \
            or entrant in self.withdrawn or player in self.noshows

    def seats_of(self, play: TablePlan, fill: str) -> list[PlayerRow]:
        """The players of one table of a round, seat by seat (bots where nobody plays)."""
        return [seat_player(self, play, seat, fill) for seat in range(play.size)]

    def player_names(self) -> set[str]:
        """Every person registered (late entrants included)."""
        return set(self.tokens)

    def seating(self, player: str) -> Seating | None:
        """Where ``player`` sits in the current round (None: not in it, or not started)."""
        round_ = self.current_round
        if round_ is None:
            return None
        for play in self.plans_of(round_):
            for seat in range(play.size):
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
        if entrant in self.joined:
            return f"{entrant} (from round {self.joined[entrant] + 1})"
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


def entry_size(config: dict[str, Any]) -> int:
    """The names an entry registers: a pair's two (duplicate pairs, a Swiss of pairs), or
    one player's."""
    fixed_pairs = config["format"] == "pairs" or (
        config["format"] == "swiss" and bool(config.get("partnership", True)))
    return 2 if fixed_pairs else 1


def seat_player(state: TournamentState, play: TablePlan, seat: int, fill: str) -> PlayerRow:
    """The player of ``seat`` at ``play``'s table: a person with their tournament secret's
    hash (the same secret opens every table they sit at), or a bot of level ``fill``."""
    entrant = play.seats[seat]
    name = state.holder(entrant, seat, play.round)
    if state.is_bot_seat(entrant, name, play.round):
        return PlayerRow(name, seat, None, fill, False)
    return PlayerRow(name, seat, state.tokens[name], None, False, state.accounts.get(name))


def with_bots(state: TournamentState, entrants: list[str]) -> tuple[list[str], list[str]]:
    """The entrants at the start plus the bots that fill the seats nobody took, and the bots'
    names.  Duplicate: the last table filled, and at least two tables (a movement compares
    tables).  Progressive: at least two tables (eight players: tables of three and five absorb
    any count past that).  Swiss: at least two tables of pairs, or six players (two cutthroat
    threes); an odd count sits one out on a bye instead."""
    per_table = 2 if state.pairs else 4
    if state.duplicate:
        needed = max(2 * per_table, -(-len(entrants) // per_table) * per_table)
    elif state.format == "progressive":
        needed = max(8, len(entrants))
    else:
        needed = max(4 if state.pairs else 6, len(entrants))
    bots = list(bot_names(needed - len(entrants), entrants))
    return [*entrants, *bots], bots
