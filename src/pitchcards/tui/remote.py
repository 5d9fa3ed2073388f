"""Your seat at a ``pitch serve`` table, as the screen reads a game (no Textual here).

:class:`RemoteGame` is the online twin of :class:`~.controller.GameController`: it answers the
same questions (:class:`~.game.TableGame`) from a :class:`~pitchcards.client.TableConnection`
— your own seat's View, folded from the events the server cut for you, and the table's
``TableInfo`` (names, who is a bot, who is away) — and sends your actions to the server.  It
never holds another seat's cards: the server never sends them.

:func:`host_table` and :func:`join_table` are the HTTP steps before the screen opens
(``pitch play --new-table`` / ``--join``).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..actions import Action
from ..client import Client, Seat, ServerError, TableConnection, server_of
from ..errors import OptionError, shown
from ..events import Event, HandDealt, HandScored, MatchWon, TrickWon, apply_event
from ..money import MoneySession
from ..rules import RuleSet
from ..scoring import HandResult
from ..storage import write_atomically
from ..views import View, rules_from_dict
from . import tokens
from .config import GameConfig, new_file, parse_bots
from .game import expert_hint, side_count, side_label, side_of
from .words import HUMAN

__all__ = ["Clock", "RemoteGame", "host_table", "join_table", "server_of", "table_config"]

#: The phases of a hand in progress (T4, T5: naming trump and the discard are in it).
_IN_HAND = ("auction", "declare", "discard", "play")


@dataclass(frozen=True)
class Clock:
    """A clock running at the table now (docs/protocol.md, "The clock"): ``kind`` ``turn``
    (``name`` at ``seat`` must act, or a stand-in plays that turn) or ``grace`` (a dropped
    player's seat is held, then a stand-in plays it); ``left`` and ``total`` in seconds."""

    kind: str
    name: str
    seat: int
    left: float
    total: float
    seq: int


def table_config(info: dict[str, Any]) -> GameConfig:
    """The game settings a table's ``TableInfo`` describes (what the screen says of it)."""
    rules = rules_from_dict(info["rules"])
    return GameConfig(variant=rules.name, players=len(info["seats"]))


async def host_table(server: str, config: GameConfig, name: str, bots: str | None,
                     settings: dict[str, Any] | None = None, *, ranked: bool = False,
                     api_token: str | None = None) -> Seat:
    """Create a table on ``server`` for ``config``; you sit at seat 0.  ``bots``: a LEVEL (the
    bots that take the seats still open when you start) or ``SEAT=LEVEL,...`` (seats a bot
    plays from the start; the others are open to people with the invite).  ``ranked``: a
    ranked table (docs/accounts.md), which needs ``api_token``, an account's: you sit under
    the account's name; the server refuses with its reason what cannot be ranked."""
    rules = config.rules()
    if rules.money != "none":
        raise OptionError("a money game cannot be played at a server table from the "
                          "terminal yet; choose a variant played to a target")
    fill, seated = config.level, dict[int, str]()
    spec = (bots or "").strip().lower()
    if spec and "," not in spec and "=" not in spec:
        fill = parse_bots(spec, 1)[0]
    elif spec:
        if not all("=" in part for part in spec.split(",") if part.strip()):
            raise OptionError("at a server table --bots takes LEVEL (the bots that fill the "
                              "seats still open when you start) or SEAT=LEVEL,... (seats a "
                              f"bot plays from the start), not {shown(bots)}")
        levels = parse_bots(spec, config.table() - 1, "")
        seated = {seat: level for seat, level in enumerate(levels, 1) if level}
    async with Client(server, api_token=api_token) as api:
        seat = await api.create_table(name, variant=config.variant, players=config.table(),
                                      options=_changed_options(config), seat=0, bots=seated,
                                      fill=fill, settings=settings, ranked=ranked)
    if seat.invite:  # `pitch play --join <invite>` brings the host back to this seat
        _remember(server, seat.invite, seat)
    return seat


def _changed_options(config: GameConfig) -> dict[str, Any]:
    """The rule options ``config`` sets beyond its variant's (the target among them)."""
    options = dict(config.options)
    if config.target is not None:
        options["target"] = config.target
    return options


async def join_table(invite: str, server: str, name: str | None = None,
                     seat: int | None = None, api_token: str | None = None
                     ) -> tuple[Seat, dict[str, Any]]:
    """Take a seat by ``invite`` (a code or an invite URL): the seat and the table's info.
    With no ``name`` you are "Guest", or "Guest 2" … if that name is at the table already.
    ``api_token``: sit as that account (a ranked table's seats are accounts'; the name is
    then the account's)."""
    async with Client(server, api_token=api_token) as api:
        info = await api.invite(invite)
        if info.get("money"):
            raise OptionError("that is a money table: the terminal game cannot sit at one yet "
                              "(pitch bot --join can)")
        mine = tokens.recall(server, invite)
        if mine is not None and (name is None or name == mine.name) and any(
                s.get("name") == mine.name and s.get("kind") == "human"
                for s in info.get("seats", ())):
            return mine, info  # your own seat again (closed terminal, lost connection)
        names = [name] if name else ["Guest", *(f"Guest {n}" for n in range(2, 17))]
        for i, candidate in enumerate(names, 1):
            try:
                taken = await api.take_seat(invite, candidate, seat)
            except ServerError as exc:
                if exc.reason != "name_taken" or i == len(names):
                    raise
            else:
                break
        _remember(server, invite, taken)
        return taken, info


def _remember(server: str, invite: str, seat: Seat) -> None:
    """Keep the seat's token for a later ``--join``; a file that cannot be written only
    means the seat cannot be taken again after quitting."""
    with contextlib.suppress(OSError):
        tokens.remember(server, invite, seat)


class RemoteGame:
    """Your seat at a server table: :class:`~.game.TableGame` from the server's events."""

    money = False
    session: MoneySession | None = None   # money tables are not played from the terminal yet
    #: the time source the clocks count down on (seconds; a test moves its own)
    clock: Callable[[], float] = time.monotonic

    def __init__(self, seat: Seat, config: GameConfig, info: dict[str, Any] | None = None,
                 invite_url: str | None = None) -> None:
        self.seat = seat
        self.config = config
        self.invite_url = invite_url or seat.invite_url
        self.info: dict[str, Any] = dict(info or {})
        self.rules: RuleSet = (rules_from_dict(self.info["rules"]) if self.info
                               else config.rules())
        self.levels: dict[str, str] = {}
        self.api: Client | None = None
        self.conn: TableConnection | None = None
        # What the screen shows: the events received folded up to ``shown`` (it stays behind
        # the connection only while a finished trick is held on the table, :meth:`catch_up`).
        self.shown = 0
        self._shown_view: View | None = None
        self._folded = 0                      #: events of conn.events folded
        #: when (``clock()``) the TableInfo in ``info`` arrived: its deadlines count from then
        self.info_at = self.clock()
        #: the table's scored hands, joins, leaves and wins from before this socket's first
        #: event (``GET …/results``): a seat that came back by a snapshot keeps its history
        self.history: list[Event] = []
        self._covered = 0                     #: the history is fetched up to this seq

    # ------------------------------------------------------------------ the connection
    async def open(self) -> None:
        """Connect to the table (the socket; the view and TableInfo arrive with it)."""
        self.api = Client(self.seat.server)
        self.conn = await self.api.connect(self.seat)
        self.learn()

    async def close(self) -> None:
        if self.conn is not None:
            await self.conn.close()
        if self.api is not None:
            await self.api.close()

    async def resume(self) -> None:
        """Reconnect after a drop: the missing events come (or a snapshot)."""
        assert self.conn is not None
        await self.conn.resume()
        self.learn()

    def missing_history(self) -> bool:
        """The socket came in by a snapshot: events before it are not in its events (and the
        history was not fetched since)."""
        conn = self.conn
        if conn is None or conn.seq < conn.welcome_seq:
            return False  # the catch-up is still on its way
        return self._gap(conn) > self._covered

    @staticmethod
    def _gap(conn: TableConnection) -> int:
        """The last seq the socket did not bring (0: none)."""
        seqs = {e.seq for e in conn.events}
        return next((s for s in range(conn.seq, 0, -1) if s not in seqs), 0)

    async def load_history(self) -> bool:
        """Fetch the score sheet's events the socket did not bring (a rejoin, a resync by
        snapshot: finding 7 of issue 30): the hands scored before, the joins, leaves and the
        match's win.  True if something was added."""
        conn = self.conn
        if self.api is None or conn is None:
            return False
        self._covered = self._gap(conn)
        got = await self.api.results(self.seat.table)
        have = {e.seq for e in conn.events} | {e.seq for e in self.history}
        new = [e for e in got if e.seq not in have and e.seq <= self._covered]
        self.history = sorted([*self.history, *new], key=lambda e: e.seq)
        return bool(new)

    def clocks(self) -> list[Clock]:
        """The clocks running now, with the time left counted from when the server sent them
        (its ``remaining_ms``: a wrong local clock does not matter); a turn's clock ends with
        the next event (the turn was taken)."""
        seq = self.conn.seq if self.conn is not None else 0
        gone = max(0.0, self.clock() - self.info_at)
        out = []
        for d in self.info.get("deadlines") or ():
            if d.get("kind") == "turn" and seq > int(d.get("seq", 0)):
                continue
            out.append(Clock(str(d.get("kind")), str(d.get("name")), int(d.get("seat", 0)),
                             max(0.0, int(d.get("remaining_ms", 0)) / 1000 - gone),
                             int(d.get("total_ms", 0)) / 1000, int(d.get("seq", 0))))
        return out

    def timed_out(self, event: Event) -> bool:
        """The server marked this move a stand-in's, made because the turn timer ran out."""
        return self.conn is not None and event.seq in self.conn.timed_out

    def learn(self) -> None:
        """Keep what the screen reads of the table up to date (TableInfo, the rules)."""
        conn = self.conn
        if conn is None:
            return
        if conn.info and conn.info is not self.info:
            self.info = conn.info
            self.info_at = self.clock()
        if conn.view is not None:
            self.rules = conn.view.rules
        elif self.info:
            self.rules = rules_from_dict(self.info["rules"])

    @property
    def closed(self) -> bool:
        return self.conn is None or self.conn.closed

    async def act(self, action: Action) -> None:
        """Send your action; return once the server took it, or raise
        :class:`~pitchcards.client.ServerError` with its reason."""
        if self.conn is None:
            raise ServerError("closed", "not connected to the table")
        await self.conn.act(str(action))

    async def start(self) -> None:
        """Start the match (the host only; empty seats get bots)."""
        if self.api is None:
            raise ServerError("closed", "not connected to the table")
        self.info = await self.api.start(self.seat)

    async def save_record(self) -> Path:
        """Download the table's record (the whole match once it is over) into the records
        folder (``pitch replay FILE`` prints it); the file written."""
        if self.api is None:
            raise ServerError("closed", "not connected to the table")
        text = await self.api.record(self.seat)
        return write_atomically(new_file("records", f"{self.rules.name}-online"), text)

    @property
    def is_host(self) -> bool:
        if self.conn is not None and self.conn.you:
            return bool(self.conn.you.get("host"))
        return self.seat.invite is not None

    @property
    def status(self) -> str:
        """``waiting`` (for the host to start), ``playing`` or ``over``."""
        return str(self.info.get("status", "waiting"))

    @property
    def chat(self) -> list[dict[str, Any]]:
        return self.conn.chat if self.conn is not None else []

    def seats(self) -> list[dict[str, Any]]:
        """TableInfo's seats: name, kind (human, bot, open), level, connected, away, host."""
        seats: list[dict[str, Any]] = self.info.get("seats", [])
        return seats

    def catch_up(self, stop_after_trick: bool = False) -> bool:
        """Fold the events received into the view shown; with ``stop_after_trick`` stop just
        after a finished trick, so it can stay on the table a while (True if it stopped)."""
        self.learn()
        conn = self.conn
        if conn is None:
            return False
        events = conn.events
        while self._folded < len(events):
            event = events[self._folded]
            if event.seq != self.shown + 1:  # a resync by snapshot: show the table as it is
                break
            self._shown_view = apply_event(self._shown_view, event)
            self.shown = event.seq
            self._folded += 1
            if stop_after_trick and isinstance(event, TrickWon):
                return True
        if self.shown != conn.seq:
            self._shown_view, self.shown, self._folded = conn.view, conn.seq, len(events)
        return False

    # ------------------------------------------------------------------ TableGame
    @property
    def _view(self) -> View | None:
        return self._shown_view

    @property
    def human_seat(self) -> int:
        if self.conn is not None and self.conn.you.get("seat") is not None:
            return int(self.conn.you["seat"])
        return self.seat.seat or 0

    @property
    def seating(self) -> list[str]:
        view = self._view
        names = list(view.names) if view is not None and view.names else [
            str(s.get("name") or f"Seat {s['seat'] + 1}") for s in self.seats()]
        if not names:
            names = [f"Seat {i + 1}" for i in range(self.config.table())]
        if self.human_seat < len(names):
            names[self.human_seat] = HUMAN
        return names

    def name(self, seat: int) -> str:
        names = self.seating
        return names[seat] if seat < len(names) else f"Seat {seat + 1}"  # numbered from 1

    def seat_kind(self, seat: int) -> str:
        """Who has a seat, from TableInfo: ``you``, ``open``, ``bot``, ``human`` (connected),
        ``offline`` (no socket, the seat held) or ``away`` (a stand-in bot plays it)."""
        if seat == self.human_seat:
            return "you"
        info = next((s for s in self.seats() if s.get("seat") == seat), None)
        if info is None or info.get("kind") == "open":
            return "open"
        if info.get("kind") == "bot":
            return "bot"
        if info.get("away"):
            return "away"
        return "human" if info.get("connected") else "offline"

    def level(self, seat: int) -> str:
        """Under a seat's name: a bot's level, or what :meth:`seat_kind` says of a person."""
        kind = self.seat_kind(seat)
        if kind == "bot":
            info = next(s for s in self.seats() if s.get("seat") == seat)
            return str(info.get("level") or "bot")
        return "away (bot)" if kind == "away" else kind

    @property
    def my_side(self) -> int:
        return side_of(self.rules, self.human_seat)

    @property
    def sides(self) -> int:
        return side_count(self.rules, len(self.seating))

    def side_name(self, side: int) -> str:
        return side_label(self.rules, self.seating, side)

    @property
    def dealt(self) -> bool:
        return self._view is not None

    @property
    def hand_number(self) -> int:
        marks = [e for e in self._events() if isinstance(e, HandDealt | HandScored)]
        if marks:
            last = marks[-1]
            # back by a snapshot mid-hand: the hand after the last one scored (finding 7)
            if isinstance(last, HandScored) and self.in_hand:
                return last.hand + 2
            return last.hand + 1
        return 1 if self.dealt else 0

    @property
    def results(self) -> list[HandResult]:
        return [e.result for e in self._events() if isinstance(e, HandScored)]

    def side_scores(self) -> list[int]:
        for event in reversed(self._events()):
            if isinstance(event, HandScored | MatchWon):
                return list(event.scores)
        view = self._view
        if view is not None and view.scores is not None:
            return list(view.scores)
        return [0] * self.sides

    @property
    def over(self) -> bool:
        return self.winner() is not None or self.status == "over"

    @property
    def in_hand(self) -> bool:
        """A hand is being played: bidding, naming trump (T5), discarding (T4) or playing."""
        view = self._view
        return view is not None and view.phase in _IN_HAND and not self.over

    @property
    def to_act(self) -> int | None:
        view = self._view
        return view.seat_to_act if view is not None and self.in_hand else None

    @property
    def human_to_act(self) -> bool:
        view = self._view
        return (self.in_hand and view is not None and view.is_my_turn
                and bool(view.legal_actions))

    def view(self) -> View:
        view = self._view
        if view is None:
            raise ServerError("not_started", "no hand has been dealt at this table yet")
        return view

    def _events(self) -> list[Event]:
        """The events shown so far, after the history fetched for a snapshot's gap."""
        shown = self.conn.events[:self._folded] if self.conn is not None else []
        if not self.history:
            return shown
        seqs = {e.seq for e in shown}
        earlier = [e for e in self.history if e.seq not in seqs and e.seq <= self.shown]
        return sorted([*earlier, *shown], key=lambda e: e.seq)

    def events_since(self, after: int) -> list[Event]:
        """The events shown since seq ``after`` that this socket brought (the history fetched
        for a gap is in the score sheet already, not news)."""
        shown = self.conn.events[:self._folded] if self.conn is not None else []
        return [e for e in shown if e.seq > after]

    def hint(self, view: View) -> tuple[Action, str]:
        return expert_hint(view)

    def winner(self) -> int | None:
        """The winning side, once the match is won."""
        won = next((e for e in reversed(self._events()) if isinstance(e, MatchWon)), None)
        return won.winner if won is not None else None

