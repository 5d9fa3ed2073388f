"""A Python client of ``pitch serve`` (async, on httpx and websockets).

It is what the server's tests, its load benchmark, ``pitch bot --join`` and a terminal player at
a server table use::

    import asyncio
    from pitchcards.client import Client

    async def main():
        async with Client("http://127.0.0.1:8000") as api:
            me = await api.create_table("Ann", variant="auction", bots={1: "easy", 3: "easy"})
            print("invite a friend:", me.invite_url)
            friend = await api.take_seat(me.invite, "Bob")
            await api.start(me)
            async with await api.connect(me) as table:     # a WebSocket, kept up to date
                while not table.over:
                    view = await table.my_turn()           # waits; None when the game ends
                    if view is not None:
                        await table.act(str(view.legal_actions[0]))

:class:`TableConnection` folds the server's events into the seat's :class:`~pitchcards.View`
with :func:`~pitchcards.events.apply_event`, answers the server's heartbeat, and resumes
after a dropped socket by sending the last ``seq`` it holds.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
from collections.abc import Mapping, Sequence
from types import TracebackType
from typing import Any
from urllib.parse import urlsplit

import httpx
import websockets
from websockets.asyncio.client import ClientConnection

from .errors import PitchError
from .events import (
    ActionTaken,
    ActionUndone,
    Event,
    HandDealt,
    MatchWon,
    Settled,
    apply_event,
    event_from_dict,
)
from .views import View

__all__ = ["DEFAULT_SERVER", "Client", "Seat", "ServerError", "TableConnection", "play_bot",
           "server_of", "table_request"]

PROTOCOL = 1
#: Events that move the position (an action taken or taken back, a deal): a client decides on
#: the position after the last of them.
_MOVES = (ActionTaken, ActionUndone, HandDealt)
#: Events that answer an action: one that moves the position, or the end of the game (the
#: match's last action moves nothing after it).
_ANSWERS = (*_MOVES, MatchWon, Settled)


#: Seconds an idle HTTP connection is kept for reuse: under the server's keep-alive.
_KEEPALIVE_S = 2.0


class ServerError(PitchError):
    """The server refused: ``reason`` is its code (docs/protocol.md), the message its words."""

    def __init__(self, reason: str, message: str, status: int | None = None) -> None:
        super().__init__(f"{reason}: {message}")
        self.reason = reason
        self.message = message
        self.status = status


@dataclasses.dataclass(frozen=True)
class Seat:
    """A seat at a server table and the token that acts for it (keep it secret)."""

    server: str
    table: str
    token: str
    name: str
    seat: int | None
    invite: str | None = None
    invite_url: str | None = None


def table_request(name: str, *, variant: str = "auction", players: int | None = None,
                  options: Mapping[str, Any] | None = None, seat: int = 0,
                  bots: Mapping[int, str] | None = None, fill: str = "medium",
                  listed: bool = False, settings: Mapping[str, Any] | None = None,
                  ranked: bool = False) -> dict[str, Any]:
    """The body of ``POST /api/tables`` (a CreateTable) for :meth:`Client.create_table`."""
    body: dict[str, Any] = {"name": name, "variant": variant, "seat": seat, "fill": fill,
                            "listed": listed, "options": dict(options or {}),
                            "bots": {str(k): v for k, v in (bots or {}).items()}}
    if players is not None:
        body["players"] = players
    if settings:
        body["settings"] = dict(settings)
    if ranked:
        body["ranked"] = True
    return body


class Client:
    """The HTTP half: tables, seats, start, leave, settle, rematch, records."""

    def __init__(self, server: str = "http://127.0.0.1:8000", *, timeout: float = 30.0,
                 api_token: str | None = None) -> None:
        self.server = server.rstrip("/")
        #: an account's API token (``pat_…``, made on the profile page): the tables this
        #: client creates and the seats it takes are that account's (a ranked table's must be)
        self.api_token = api_token
        # An idle pooled connection is dropped before the server's own keep-alive ends (uvicorn:
        # 5 s, httpx's default expiry too): reusing one the server is closing at that instant
        # fails the request with a read error.
        self.http = httpx.AsyncClient(base_url=self.server, timeout=timeout,
                                      limits=httpx.Limits(keepalive_expiry=_KEEPALIVE_S))

    async def __aenter__(self) -> Client:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        await self.http.aclose()

    async def _call(self, method: str, path: str, *, token: str | None = None,
                    body: Mapping[str, Any] | None = None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        try:
            reply = await self.http.request(method, path, json=body, headers=headers)
        except (httpx.ReadError, httpx.RemoteProtocolError):
            if method != "GET":  # a write may have landed: never sent twice
                raise
            # a reused connection the server closed as we sent: a GET is safe to send again
            reply = await self.http.request(method, path, json=body, headers=headers)
        if reply.status_code >= 400:
            try:
                data = reply.json()
                reason, message = str(data["reason"]), str(data["message"])
            except (ValueError, KeyError, TypeError):
                reason, message = "http", f"{reply.status_code} {reply.text[:200]}"
            raise ServerError(reason, message, reply.status_code)
        if reply.headers.get("content-type", "").startswith("application/json"):
            return reply.json()
        return reply.text

    async def create_table(self, name: str, *, variant: str = "auction",
                           players: int | None = None, options: Mapping[str, Any] | None = None,
                           seat: int = 0, bots: Mapping[int, str] | None = None,
                           fill: str = "medium", listed: bool = False,
                           settings: Mapping[str, Any] | None = None,
                           ranked: bool = False) -> Seat:
        """A new table with you (its host) at ``seat``; share ``invite_url``.  ``ranked``:
        rated at its end (the client needs an ``api_token``)."""
        body = table_request(name, variant=variant, players=players, options=options,
                             seat=seat, bots=bots, fill=fill, listed=listed, settings=settings,
                             ranked=ranked)
        data = await self._call("POST", "/api/tables", body=body, token=self.api_token)
        return Seat(self.server, data["table"], data["token"], data["name"], data["seat"],
                    data["invite"], data["invite_url"])

    async def take_seat(self, invite: str, name: str, seat: int | None = None) -> Seat:
        """Sit at the table of ``invite`` (a code or an invite URL)."""
        code = invite.rstrip("/").rsplit("/", 1)[-1]
        data = await self._call("POST", f"/api/invites/{code}/seats",
                                body={"name": name, "seat": seat}, token=self.api_token)
        return Seat(self.server, data["table"], data["token"], data["name"], data["seat"])

    async def table(self, table_id: str) -> dict[str, Any]:
        result: dict[str, Any] = await self._call("GET", f"/api/tables/{table_id}")
        return result

    async def invite(self, invite: str) -> dict[str, Any]:
        code = invite.rstrip("/").rsplit("/", 1)[-1]
        result: dict[str, Any] = await self._call("GET", f"/api/invites/{code}")
        return result

    async def results(self, table_id: str) -> list[Event]:
        """The score sheet so far: the table's ``hand_scored``, ``match_won``, joins, leaves
        and ``settled`` events (a client that came back by a snapshot fills its history)."""
        data: list[dict[str, Any]] = await self._call("GET", f"/api/tables/{table_id}/results")
        return [event_from_dict(item) for item in data]

    async def enter_tournament(self, tournament: str, names: Sequence[str],
                               invite: str | None = None) -> dict[str, Any]:
        """Register in a tournament (``POST /api/tournaments/{id}/entries``): ``{entrant,
        tokens: {name: player secret}, from_round}``; ``invite``: the code of a tournament
        whose entry is by invite."""
        body: dict[str, Any] = {"names": list(names)}
        if invite is not None:
            body["invite"] = invite
        result: dict[str, Any] = await self._call(
            "POST", f"/api/tournaments/{tournament}/entries", body=body)
        return result

    async def tournament_me(self, tournament: str, token: str) -> dict[str, Any]:
        """Where the player of ``token`` sits this round (``GET …/me``)."""
        result: dict[str, Any] = await self._call("GET", f"/api/tournaments/{tournament}/me",
                                                  token=token)
        return result

    async def tournament_standings(self, tournament: str) -> list[dict[str, Any]]:
        result: list[dict[str, Any]] = await self._call(
            "GET", f"/api/tournaments/{tournament}/standings")
        return result

    async def lobby(self) -> list[dict[str, Any]]:
        result: list[dict[str, Any]] = await self._call("GET", "/api/lobby")
        return result

    async def start(self, seat: Seat) -> dict[str, Any]:
        result: dict[str, Any] = await self._call("POST", f"/api/tables/{seat.table}/start",
                                                  token=seat.token)
        return result

    async def leave(self, seat: Seat) -> dict[str, Any]:
        result: dict[str, Any] = await self._call("POST", f"/api/tables/{seat.table}/leave",
                                                  token=seat.token)
        return result

    async def claim(self, seat: Seat) -> dict[str, Any]:
        """A ranked match: claim the win once every opponent has left."""
        result: dict[str, Any] = await self._call("POST", f"/api/tables/{seat.table}/claim",
                                                  token=seat.token)
        return result

    async def settle(self, seat: Seat) -> dict[str, Any]:
        result: dict[str, Any] = await self._call("POST", f"/api/tables/{seat.table}/settle",
                                                  token=seat.token)
        return result

    async def rematch(self, seat: Seat) -> Seat:
        data = await self._call("POST", f"/api/tables/{seat.table}/rematch", token=seat.token)
        return dataclasses.replace(seat, table=data["table"], invite=None, invite_url=None)

    async def record(self, seat: Seat) -> str:
        """The finished hands' record (docs/notation.md); the whole match once it is over."""
        text: str = await self._call("GET", f"/api/tables/{seat.table}/record",
                                     token=seat.token)
        return text

    async def connect(self, seat: Seat | None = None, *, table: str | None = None,
                      **options: Any) -> TableConnection:
        """A WebSocket to a table: a player's (``seat``) or a spectator's (``table``)."""
        conn = TableConnection(self.server, seat.table if seat else str(table),
                               seat.token if seat else None, **options)
        await conn.open()
        return conn


class TableConnection:
    """One WebSocket at a table, its messages, and the seat's view kept up to date."""

    def __init__(self, server: str, table: str, token: str | None, *,
                 open_timeout: float = 10.0, max_queue: int = 4096) -> None:
        parts = urlsplit(server)
        scheme = "wss" if parts.scheme == "https" else "ws"
        self.url = f"{scheme}://{parts.netloc}/ws/{table}"
        self.table = table
        self.token = token
        self.open_timeout = open_timeout
        self.seq = 0                          #: the last event seq received
        self.view: View | None = None         #: this seat's (or a spectator's) view now
        self.info: dict[str, Any] = {}        #: the last TableInfo
        self.you: dict[str, Any] = {}
        self.events: list[Event] = []         #: every event received, in order
        self.errors: list[dict[str, Any]] = []
        self.chat: list[dict[str, Any]] = []
        self.frames: list[str] = []           #: every text frame received (tests read them)
        self.rematch: str | None = None
        #: the seqs of the moves a stand-in made because the seat's turn timer ran out (the
        #: server's ``timed_out`` beside the event)
        self.timed_out: set[int] = set()
        self.closed_code: int | None = None
        #: the table's seq when it welcomed this socket: the view is the table's now only once
        #: the events up to it (or the snapshot) have arrived
        self.welcome_seq = 0
        #: welcomed once: a reconnect then asks for the events after ``seq``, even at seq 0
        self._welcomed = False
        self._ws: ClientConnection | None = None
        self._changed = asyncio.Condition()
        self._reader: asyncio.Task[None] | None = None
        self._queue = max_queue
        self._pongs: set[asyncio.Future[None]] = set()

    async def __aenter__(self) -> TableConnection:
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        await self.close()

    # ------------------------------------------------------------------ the socket
    async def open(self) -> None:
        """Connect (or reconnect, sending the last seq held) and wait for the welcome."""
        self._ws = await websockets.connect(self.url, open_timeout=self.open_timeout,
                                            max_queue=self._queue, ping_interval=None)
        self.closed_code = None
        await self._ws.send(json.dumps({"type": "hello", "protocol": PROTOCOL,
                                        "token": self.token,
                                        "last_seq": self._last_seq()}))
        first = json.loads(await asyncio.wait_for(self._ws.recv(), self.open_timeout))
        self.frames.append(json.dumps(first))
        if first.get("type") != "welcome":
            await self._ws.close()
            raise ServerError(first.get("reason", "protocol"), first.get("message", str(first)))
        self._handle(first)
        self._welcomed = True
        self._reader = asyncio.create_task(self._read())

    def _last_seq(self) -> int | None:
        """The seq to catch up from: the one held once welcomed (0 included: a socket lost
        before the first event gets every event since), or one a caller set before the first
        open (catching up from there); none on a first open, which gets a snapshot."""
        return self.seq if self._welcomed or self.seq else None

    async def resume(self) -> None:
        """Reconnect after a drop: the server sends the missing events (or a snapshot)."""
        await self.close()
        await self.open()

    async def drop(self) -> None:
        """Cut the socket without a goodbye (tests: a lost connection)."""
        if self._ws is not None:
            self._ws.transport.abort()
        if self._reader is not None:
            with contextlib.suppress(BaseException):
                await self._reader

    async def close(self) -> None:
        if self._ws is not None:
            await self._ws.close()
        if self._reader is not None:
            with contextlib.suppress(BaseException):
                await self._reader
            self._reader = None

    async def send(self, message: Mapping[str, Any]) -> None:
        if self._ws is None:
            raise ServerError("closed", "not connected")
        await self._ws.send(json.dumps(message))

    async def act(self, action: str, *, wait: bool = True, timeout: float | None = 60.0) -> None:
        """Take ``action`` (``"bid 2"``, ``"play QH"`` …) at the position last seen.

        With ``wait`` (the default) return once the server has taken it — the next event that
        moves the position has arrived (events still on their way from the change before, a
        trick won or a hand scored, do not count), or the game is over (the match's last
        action moves nothing after it) — or raise :class:`ServerError` with the
        server's reason if it refused."""
        events, errors = len(self.events), len(self.errors)
        if self.closed:
            raise ServerError("closed", f"{action!r} not sent: the connection is closed "
                                        f"({self.closed_code}); resume() reconnects")
        try:
            await self.send({"type": "act", "action": action, "seq": self.seq})
        except websockets.ConnectionClosed:
            raise ServerError("closed", f"{action!r} not sent: the connection closed; "
                                        "resume() reconnects") from None
        if not wait:
            return

        def answered() -> bool:
            return (len(self.errors) > errors or self.closed
                    or any(isinstance(e, _ANSWERS) for e in self.events[events:]))

        await self.wait_for(answered, timeout)
        taken = any(isinstance(e, _ANSWERS) for e in self.events[events:])
        if len(self.errors) > errors and not any(isinstance(e, _MOVES)
                                                 for e in self.events[events:]):
            error = self.errors[errors]
            raise ServerError(str(error["reason"]), str(error["message"]))
        if not taken and self.closed:
            raise ServerError("closed", f"the connection closed before {action!r} was "
                                        "answered; resume() reconnects and shows whether it "
                                        "was taken")

    async def say(self, text: str) -> None:
        await self.send({"type": "chat", "text": text})

    async def _read(self) -> None:
        assert self._ws is not None
        try:
            async for frame in self._ws:
                text = frame if isinstance(frame, str) else frame.decode()
                self.frames.append(text)
                self._handle(json.loads(text))
                async with self._changed:
                    self._changed.notify_all()
        except websockets.ConnectionClosed:
            pass
        finally:
            self.closed_code = self._ws.close_code if self._ws.close_code is not None else 1006
            async with self._changed:
                self._changed.notify_all()

    def _handle(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "welcome":
            self.info, self.you = message["table"], message["you"]
            self.welcome_seq = int(message["seq"])
        elif kind == "event":
            event = event_from_dict(message["event"])
            if event.seq != self.seq + 1:
                raise ServerError("gap", f"event {event.seq} after {self.seq}")
            self.seq = event.seq
            self.events.append(event)
            if message.get("timed_out"):
                self.timed_out.add(event.seq)
            self.view = apply_event(self.view, event)
        elif kind == "snapshot":
            self.seq = message["seq"]
            self.view = View.from_dict(message["view"]) if message["view"] else None
        elif kind == "table":
            self.info = message["table"]
        elif kind == "error":
            self.errors.append(message)
        elif kind == "chat":
            self.chat.append(message)
        elif kind == "rematch":
            self.rematch = message["table"]
        elif kind == "ping" and self._ws is not None:
            self._pongs.add(task := asyncio.ensure_future(self._pong(message.get("id", 0))))
            task.add_done_callback(self._pongs.discard)

    async def _pong(self, ping_id: int) -> None:
        with contextlib.suppress(Exception):
            await self.send({"type": "pong", "id": ping_id})

    # ------------------------------------------------------------------ waiting
    @property
    def over(self) -> bool:
        """The game ended (won, or the money settled)."""
        return self.info.get("status") == "over" or any(
            isinstance(e, MatchWon | Settled) for e in self.events[-3:])

    @property
    def closed(self) -> bool:
        """The socket is closed (``closed_code`` says how); :meth:`resume` reconnects."""
        return self.closed_code is not None

    def is_my_turn(self) -> bool:
        """This seat is to act in the position the table is at (not in a position the
        events still arriving after a reconnect have moved past)."""
        view = self.view
        return (self.seq >= self.welcome_seq and view is not None and view.seat is not None
                and view.seat_to_act == view.seat and bool(view.legal_actions))

    async def wait_for(self, predicate: Any, timeout: float | None = 60.0) -> None:
        """Wait until ``predicate()`` is true (checked after every message)."""
        async def wait() -> None:
            async with self._changed:
                await self._changed.wait_for(predicate)
        await asyncio.wait_for(wait(), timeout)

    async def my_turn(self, timeout: float | None = 120.0) -> View | None:
        """Wait for this seat's turn; its view then, or None when the game is over or the
        socket closed."""
        await self.wait_for(lambda: self.is_my_turn() or self.over or self.closed, timeout)
        return self.view if self.is_my_turn() else None


#: Where ``pitch serve`` listens unless told otherwise.
DEFAULT_SERVER = "http://127.0.0.1:8000"


def server_of(invite: str, server: str | None = None) -> str:
    """The server to use: ``server`` if given, else the invite URL's own origin, else
    :data:`DEFAULT_SERVER` (an invite given as a bare code)."""
    if server:
        return server.rstrip("/")
    parts = urlsplit(invite)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc \
        else DEFAULT_SERVER


async def play_bot(server: str | None, invite: str, *, name: str | None = None,
                   level: str = "medium", seat: int | None = None,
                   api_token: str | None = None) -> str:
    """``pitch bot --join``: a bot of ``level`` takes a seat by invite and plays to the end
    (``api_token``: as that account, which a ranked table needs)."""
    from .bots import make_bot

    bot = make_bot(level)
    async with Client(server_of(invite, server), api_token=api_token) as api:
        me = await api.take_seat(invite, name or f"{level.title()} bot", seat)
        print(f"seated as {me.name} at table {me.table} (seat {me.seat})", flush=True)
        async with await api.connect(me) as table:
            while not table.over:
                view = await table.my_turn(timeout=None)
                if table.closed and not table.over:
                    await asyncio.sleep(1)  # the server restarts or the network dropped
                    with contextlib.suppress(OSError, ServerError, websockets.WebSocketException):
                        await table.resume()
                    continue
                if view is not None:
                    with contextlib.suppress(ServerError):  # stale: the timer played for us
                        await table.act(str(bot.choose(view)), timeout=None)
            last = next((e for e in reversed(table.events) if isinstance(e, MatchWon | Settled)),
                        None)
    if isinstance(last, MatchWon):
        return (f"game over: side {last.winner} won, scores "
                + " ".join(str(v) for v in last.scores))
    return "game over: the money was settled" if last is not None else "the table closed"
