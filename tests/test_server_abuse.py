"""The server under attack (issue 31), findings 1, 2, 6 and 7: what a stranger can start is
bounded (table settings, tables per address and in all, a table nobody watches pauses, a room's
events in memory), unknown ids cost nothing, sockets that never read are cut, and no request
walks a table's history on the event loop.

No test waits on the wall clock: the limits' buckets run on a clock the test holds still, a
table's driver is awaited through the test hooks (server/testing.py), and the slow reader is
watched through the server's own metrics."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse

from pitchcards.errors import IllegalActionError
from pitchcards.rules import find_variant
from pitchcards.server import ServerConfig, create_app, room_state
from pitchcards.server import history as history_module
from pitchcards.server.connection import TRANSPORT, Connection, Peer
from pitchcards.server.hub import new_token
from pitchcards.server.protocol import CreateTable
from pitchcards.server.room import Room
from pitchcards.server.testing import TestHooks
from pitchcards.server.thinking import ThoughtSlots
from pitchcards.session_kinds import new_session
from pitchcards.table import Table
from server_helpers import QUICK_LIMITS, running_server

pytestmark = pytest.mark.timeout(180)

BOTS = {"1": "random", "2": "random", "3": "random"}
FAST = {"bot_delay": 0, "hand_pause": 0}


def _config(tmp_path: Path, **limits: Any) -> ServerConfig:
    return ServerConfig(db_url=f"sqlite:///{tmp_path / 'server.db'}", **limits)


def _still(limits: Any) -> None:
    """The address limits' buckets on a clock that does not move: no token comes back while
    the test runs, however slowly it runs."""
    limits.clock = lambda: 0.0


def _other(client: TestClient, address: str) -> TestClient:
    """A client of the same running app from another address."""
    other = TestClient(client.app, client=(address, 50001))
    other.portal = client.portal  # the app's own event loop (the lifespan runs there)
    return other


def _hooked(client: TestClient, **table: Any) -> dict[str, Any]:
    """A test-hooks table (its bots held) from a chosen seed."""
    reply = client.post("/_test/tables", json={"table": {"name": "Ann", **table}, "seed": 31,
                                               "hold_bots": True})
    assert reply.status_code == 201, reply.text
    made: dict[str, Any] = reply.json()
    return made


def _bearer(seat: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {seat['token']}"}


def _run_bots(client: TestClient, hooks: TestHooks, table_id: str,
              actions: int) -> dict[str, Any]:
    """Let the table's bots take up to ``actions`` actions; returns once its driver stops."""
    room = client.portal.call(client.app.state.hub.room, table_id)
    ran: dict[str, Any] = client.portal.call(hooks.run_bots, room, actions)
    return ran


# ---------------------------------------------------------------------- finding 1
def test_finding1_a_target_past_the_servers_bound_is_refused(tmp_path):
    app = create_app(_config(tmp_path))
    with TestClient(app) as client:
        for path, body in (("/api/tables", {"name": "Ann", "options": {"target": 10**9}}),
                           ("/api/rules", {"options": {"target": 501}})):
            reply = client.post(path, json=body)
            assert reply.status_code == 422, reply.text
            assert reply.json()["reason"] == "bad_setup"
            assert "at most 500" in reply.json()["message"]
        assert client.post("/api/tables", json={"name": "Ann", "options": {"target": 500}}
                           ).status_code == 201
        assert app.state.hub.tables_in_play() == 1  # the refused ones made nothing


def test_finding1_tables_in_play_are_capped_per_address_and_in_all(tmp_path):
    app = create_app(_config(tmp_path, tables_per_address=2, max_tables=3))
    with TestClient(app) as client:
        _still(app.state.limits)
        for _ in range(2):
            assert client.post("/api/tables", json={"name": "Ann"}).status_code == 201
        third = client.post("/api/tables", json={"name": "Ann"})
        assert third.status_code == 429 and third.json()["reason"] == "too_many_tables"
        assert "2 tables in play" in third.json()["message"]
        other = _other(client, "10.0.0.2")
        assert other.post("/api/tables", json={"name": "Bob"}).status_code == 201
        full = other.post("/api/tables", json={"name": "Bob"})  # 3 in all: the server's cap
        assert full.status_code == 503 and full.json()["reason"] == "too_many_tables"
        assert app.state.hub.tables_in_play() == 3


def test_finding1_tables_with_expert_bots_have_a_smaller_cap_per_address(tmp_path):
    app = create_app(_config(tmp_path, heavy_tables_per_address=1))
    with TestClient(app) as client:
        _still(app.state.limits)
        heavy = {"name": "Ann", "bots": {"1": "expert"}}
        assert client.post("/api/tables", json=heavy).status_code == 201
        for table in (heavy, {"name": "Ann", "fill": "hard"},
                      {"name": "Ann", "settings": {"stand_in": "expert"}}):
            refused = client.post("/api/tables", json=table)
            assert refused.status_code == 429 and refused.json()["reason"] == "too_many_tables"
            assert "hard or expert" in refused.json()["message"]
        assert client.post("/api/tables", json={"name": "Ann", "bots": {"1": "easy"}}
                           ).status_code == 201  # lighter bots: the address's other budget
        assert _other(client, "10.0.0.2").post("/api/tables", json=heavy).status_code == 201


def test_finding1_a_table_nobody_is_connected_to_pauses_and_resumes(tmp_path):
    hooks = TestHooks()
    app = create_app(_config(tmp_path, unattended_pause=0.0), hooks=hooks)
    hub = app.state.hub
    with TestClient(app) as client:
        ann = _hooked(client, bots=BOTS, settings={**FAST, "grace": 0})
        table_id = ann["table"]
        assert client.post(f"/api/tables/{table_id}/start", headers=_bearer(ann)
                           ).status_code == 200
        # Nobody connected, no pause allowed: not dealt, no bot acts (the host's seat is handed
        # to its stand-in at once, grace 0, and still nothing is played).
        ran = _run_bots(client, hooks, table_id, 20)
        assert (ran["acted"], ran["seq"]) == (0, 0)
        assert hub.rooms[table_id].unattended(time.monotonic())

        with client.websocket_connect(f"/ws/{table_id}") as ws:  # a spectator: it plays on
            ws.send_json({"type": "hello", "protocol": 1})
            assert ws.receive_json()["type"] == "welcome"
            ran = _run_bots(client, hooks, table_id, 20)
            assert ran["seq"] > 0 and ran["acted"] > 0
        room = hub.rooms[table_id]
        client.portal.call(_until, lambda: room.alone_since is not None)
        before = room.seq
        ran = _run_bots(client, hooks, table_id, 20)  # gone again: paused again
        assert (ran["acted"], ran["seq"]) == (0, before)


async def _until(condition: Any) -> None:
    """Wait on the app's loop until ``condition()`` holds (a state the server reaches)."""
    while not condition():
        await asyncio.sleep(0.01)


def test_finding1_the_bots_of_one_address_think_one_at_a_time(tmp_path):
    """One address's expert tables take turns on one thought (they hold the GIL); another
    address's bots think meanwhile, and a key with nothing thinking keeps nothing."""
    hooks = TestHooks(hold_bots=True)
    app = create_app(_config(tmp_path, unattended_pause=3600.0), hooks=hooks)
    hub = app.state.hub
    experts = CreateTable.model_validate(
        {"name": "Ann", "bots": {"1": "expert", "2": "expert", "3": "expert"},
         "settings": {**FAST, "grace": 0, "stand_in": "expert"}})  # four experts, Ann away

    async def made(address: str) -> Room:
        room, _, _ = await hub.create(experts, new_token(), seed=31, address=address)
        await room.start(room.players["Ann"])
        return room

    async def scene() -> None:
        first, second = await made("10.0.0.7"), await made("10.0.0.7")
        elsewhere = await made("10.0.0.8")
        await hooks.hold_thought(first, True)  # thinking: it holds its address's one slot
        queued = asyncio.create_task(hooks.hold_thought(second, True))
        await asyncio.wait_for(_until(lambda: hub.thoughts.waiting("address:10.0.0.7") == 1),
                               120)
        assert not hooks.gate(second.id).in_thought.is_set()  # waits for the slot
        await hooks.hold_thought(elsewhere, True)  # another address thinks meanwhile
        assert not queued.done()
        assert (await hooks.hold_thought(first, False))["applied"] is True
        assert (await asyncio.wait_for(queued, 120))["thinking"]  # its turn now
        for room in (second, elsewhere):
            assert (await hooks.hold_thought(room, False))["applied"] is True
        assert hub.thoughts.keys() == 0

    with TestClient(app) as client:
        client.portal.call(scene)


def test_finding1_thought_slots_count_per_key_and_forget_idle_keys():
    async def scene() -> None:
        slots = ThoughtSlots(2)
        inside: list[str] = []
        gate = asyncio.Event()

        async def think(key: str, name: str) -> None:
            async with slots.slot(key):
                inside.append(name)
                await gate.wait()

        tasks = [asyncio.create_task(think("a", f"a{i}")) for i in range(3)]
        tasks.append(asyncio.create_task(think("b", "b0")))
        await asyncio.wait_for(_until(lambda: len(inside) == 3), 60)
        assert sorted(inside) == ["a0", "a1", "b0"] and slots.waiting("a") == 1
        gate.set()
        await asyncio.wait_for(asyncio.gather(*tasks), 60)
        assert inside[-1] == "a2" and slots.keys() == 0 and slots.waiting("a") == 0

    asyncio.run(scene())
    with pytest.raises(ValueError, match="at least 1"):
        ThoughtSlots(0)


def test_finding1_a_room_keeps_a_bounded_window_of_events(tmp_path):
    hooks = TestHooks()
    app = create_app(_config(tmp_path, replay_limit=10), hooks=hooks)
    hub = app.state.hub
    with TestClient(app) as client:
        ann = _hooked(client, variant="money", players=4, bots=BOTS,
                      settings={**FAST, "grace": 0})
        table_id = ann["table"]
        with client.websocket_connect(f"/ws/{table_id}") as ws:  # a spectator watches
            ws.send_json({"type": "hello", "protocol": 1})
            assert ws.receive_json()["type"] == "welcome"
            assert client.post(f"/api/tables/{table_id}/start", headers=_bearer(ann)
                               ).status_code == 200
            room = hub.rooms[table_id]
            while room.seq < 100:  # Ann is away (grace 0): her stand-in plays her seat too
                client.portal.call(_until, lambda: room.players["Ann"].away or room.seq >= 100)
                _run_bots(client, hooks, table_id, 50)
        table = room.table
        assert len(table._events) <= 2 * 10  # the bound: twice replay_limit
        with pytest.raises(IllegalActionError, match="no longer kept"):
            table.events(None, after=1)
        assert [e.seq for e in table.events(None, after=room.seq - 3)] == \
            [room.seq - 2, room.seq - 1, room.seq]
        with client.websocket_connect(f"/ws/{table_id}") as ws:  # far behind: a snapshot
            ws.send_json({"type": "hello", "protocol": 1, "token": ann["token"], "last_seq": 1})
            assert ws.receive_json()["type"] == "welcome"
            assert ws.receive_json()["type"] == "snapshot"


def test_finding1_table_forget_keeps_the_newest_events():
    table = Table(new_session(find_variant("auction"), ["A", "B", "C"], dealer=0, seed=5),
                  auto_deal=False)
    table.deal()
    while table.seq < 8:
        seat = table.to_act
        table.push(table.view(seat).legal_actions[0], seat)
    seq = table.seq
    table.forget(3)
    assert [e.seq for e in table.events(None, after=seq - 3)] == [seq - 2, seq - 1, seq]
    assert table.events(1, after=seq - 1)[0].seq == seq  # a seat's cut still works
    with pytest.raises(IllegalActionError, match="no longer kept"):
        table.events(None, after=0)
    # what a seat's copy of a forgotten event needed is forgotten with it (memory stays bounded)
    kept = {e.seq for e in table.events(None, after=seq - 3)}
    assert set(table._holdings) <= kept and set(table._deals) <= kept


class _Quiet(Peer):
    """A peer that takes every frame."""

    def __init__(self) -> None:
        super().__init__(chat_per_minute=20)

    def send(self, frame: str) -> bool:
        return not self.closed

    def close(self, code: int = 1000, reason: str = "") -> None:
        self.closed = True


def test_finding1_a_socket_task_cancelled_while_it_leaves_is_not_left_a_spectator(tmp_path):
    app = create_app(_config(tmp_path))
    hub = app.state.hub
    with TestClient(app) as client:
        table_id = client.post("/api/tables", json={"name": "Ann"}).json()["table"]

        async def cancelled_detach() -> bool:
            room = await hub.room(table_id)
            peer = _Quiet()
            await room.attach(peer, None, None)
            assert peer in room.spectators
            async with room.lock:  # the room is busy: the detach waits for its lock …
                leaving = asyncio.create_task(room.detach(peer))
                await asyncio.sleep(0)  # (it runs up to the lock)
                leaving.cancel()  # … and its task is cancelled there
            with contextlib.suppress(asyncio.CancelledError):
                await leaving
            return peer in room.spectators or peer in room.connections()

        assert client.portal.call(cancelled_detach) is False


# ---------------------------------------------------------------------- finding 2
def test_finding2_a_lookup_of_an_unknown_table_keeps_nothing(tmp_path):
    app = create_app(_config(tmp_path, http_misses_per_minute=100_000))
    hub = app.state.hub
    with TestClient(app) as client:
        for n in range(50):
            for table_id in (f"nosuch{n}", "x" * 2000):
                assert client.get(f"/api/tables/{table_id}").status_code == 404
                assert client.get(f"/t/{table_id}").status_code == 404  # the "no such" page
        assert hub._loading == {} and hub.rooms == {}


def test_finding2_misses_are_rate_limited_per_address_before_any_work(tmp_path):
    app = create_app(_config(tmp_path, http_misses_per_minute=40))  # bursts of 10
    hub = app.state.hub
    with TestClient(app) as client:
        _still(app.state.limits)
        real = client.post("/api/tables", json={"name": "Ann"}).json()["table"]
        for n in range(10):
            assert client.get(f"/api/tables/nosuch{n}").status_code == 404
        looked: list[str] = []
        room_of = hub.room

        async def counted(table_id: str) -> Room:
            looked.append(table_id)
            return await room_of(table_id)

        hub.room = counted
        for path in (f"/api/tables/{real}", "/api/tables/nosuch", f"/t/{real}",
                     f"/api/tables/{real}/results", "/join/nosuch"):
            reply = client.get(path)
            assert reply.status_code == 429, path
            assert reply.json()["reason"] == "rate_limited"
        with pytest.raises(WebSocketDenialResponse) as denied, \
                client.websocket_connect(f"/ws/{real}"):
            pass
        assert denied.value.status_code == 429
        assert looked == []  # refused before any work
        other = _other(client, "10.0.0.2")  # another address is not touched
        assert other.get(f"/api/tables/{real}").status_code == 200
        assert other.get("/api/tables/nosuch").status_code == 404
        assert looked == [real, "nosuch"]


# ---------------------------------------------------------------------- finding 6
class _Transport(asyncio.Transport):
    def __init__(self, stuck: asyncio.Future[None]) -> None:
        super().__init__()
        self.stuck = stuck
        self.aborted = 0

    def abort(self) -> None:
        self.aborted += 1
        if not self.stuck.done():
            self.stuck.set_exception(ConnectionResetError("aborted"))


class _StuckProtocol:
    """uvicorn's side of a socket whose client reads nothing: every send waits for ever (until
    the transport is cut)."""

    def __init__(self) -> None:
        self.stuck: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.transport = _Transport(self.stuck)

    async def send(self, message: Any) -> None:
        await asyncio.shield(self.stuck)


class _StuckSocket:
    def __init__(self, protocol: _StuckProtocol) -> None:
        self._send = protocol.send
        self.scope = {TRANSPORT: protocol.transport}  # as KeepTransport leaves it

    async def send_text(self, text: str) -> None:
        await self._send({"type": "websocket.send", "text": text})

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        await self._send({"type": "websocket.close", "code": code})


def test_finding6_a_stuck_writer_is_cut_and_counted_once():
    async def scenario(flood: bool) -> tuple[list[int], int, bool]:
        protocol = _StuckProtocol()
        drops: list[int] = []
        conn = Connection(_StuckSocket(protocol), "10.0.0.9", queue=2, rate=1, burst=1,  # type: ignore[arg-type]
                          chat_per_minute=1, send_timeout=0.05,
                          on_drop=lambda: drops.append(1))
        writer = conn.start_writer()
        sent = [conn.send(f'{{"n":{n}}}') for n in range(5 if flood else 1)]
        await writer  # ends: the frame (or the close) not taken cuts the connection
        return drops, protocol.transport.aborted, all(sent)

    # one frame never taken: cut after send_timeout
    assert asyncio.run(scenario(flood=False)) == ([1], 1, True)
    # a full queue (closed 1013, too_slow) and then the close never taken: one drop counted
    assert asyncio.run(scenario(flood=True)) == ([1], 1, False)


def test_finding6_the_heartbeat_cuts_a_socket_whose_close_was_never_taken(tmp_path):
    app = create_app(_config(tmp_path, heartbeat=20.0))
    hub = app.state.hub

    async def sweep() -> tuple[int, int]:
        marked = Connection(_StuckSocket(_StuckProtocol()), "10.0.0.9", queue=2, rate=1,  # type: ignore[arg-type]
                            burst=1, chat_per_minute=1)
        marked.close(1013, "too_slow")  # marked closed; its writer never ran
        alive = Connection(_StuckSocket(_StuckProtocol()), "10.0.0.9", queue=2, rate=1,  # type: ignore[arg-type]
                           burst=1, chat_per_minute=1)
        marked.welcomed = alive.welcomed = True
        hub.sockets = lambda: [marked, alive]
        hub.sweep(1, marked.last_seen + 61)  # silent for three heartbeats and more
        return (_transport_of(marked).aborted, _transport_of(alive).aborted)

    assert asyncio.run(sweep()) == (1, 0)  # the live one is closed politely, not cut


def _transport_of(conn: Connection) -> _Transport:
    transport = conn.ws.scope[TRANSPORT]
    assert isinstance(transport, _Transport)
    return transport


@pytest.fixture()
def slow_server(tmp_path: Path) -> Iterator[Any]:
    with running_server(tmp_path, extra=(*QUICK_LIMITS, "--send-queue", "8",
                                         "--send-timeout", "1"), hooked=True) as server:
        yield server


def _raw_spectator(port: int, table_id: str) -> socket.socket:
    """A WebSocket by hand that says hello and then reads nothing (a small receive buffer)."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET /ws/{table_id} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                  "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += sock.recv(1)  # the handshake's answer only, byte by byte: nothing more
    assert answer.startswith(b"HTTP/1.1 101"), answer
    payload = json.dumps({"type": "hello", "protocol": 1}).encode()
    mask = os.urandom(4)
    sock.sendall(bytes([0x81, 0x80 | len(payload)]) + mask
                 + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
    return sock


def _metric(url: str, name: str) -> float:
    for line in httpx.get(url + "/metrics", timeout=30).text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    return 0.0


def test_finding6_a_raw_socket_that_never_reads_is_cut_and_counted(slow_server):
    url = slow_server.url
    with httpx.Client(base_url=url, timeout=60) as http:
        made = http.post("/_test/tables", json={"table": {
            "name": "Ann", "variant": "money", "players": 4, "bots": BOTS,
            "settings": {**FAST, "grace": 0, "stand_in": "random"}}, "seed": 31,
            "hold_bots": False}).json()
        sock = _raw_spectator(slow_server.port, made["table"])
        try:
            assert http.post(f"/api/tables/{made['table']}/start",
                             headers=_bearer(made)).status_code == 200
            # a money table never ends: its events pile up for the reader that reads nothing
            while _metric(url, "pitch_slow_clients_dropped_total") < 1:
                time.sleep(0.2)
            while http.get("/healthz").json()["connections"] > 0:  # its reader ended too
                time.sleep(0.2)
            assert _metric(url, "pitch_slow_clients_dropped_total") == 1  # counted once
            assert _metric(url, 'pitch_connections{role="spectator"}') == 0
        finally:
            sock.close()
        assert http.get("/healthz").status_code == 200


# ---------------------------------------------------------------------- finding 7
def _finished_table(client: TestClient, hooks: TestHooks) -> dict[str, Any]:
    """A short match of easy bots, played to its end (Ann's seat by her stand-in)."""
    ann = _hooked(client, options={"target": 3}, bots=dict.fromkeys(BOTS, "easy"),
                  settings={**FAST, "grace": 0, "stand_in": "easy"})
    table_id = ann["table"]
    assert client.post(f"/api/tables/{table_id}/start", headers=_bearer(ann)
                       ).status_code == 200
    room = client.app.state.hub.rooms[table_id]
    while room.status != "over":
        client.portal.call(_until, lambda: room.players["Ann"].away or room.status == "over")
        _run_bots(client, hooks, table_id, 500)
    return ann


def test_finding7_results_come_from_events_kept_as_they_happened(tmp_path, monkeypatch):
    hooks = TestHooks()
    app = create_app(_config(tmp_path), hooks=hooks)
    with TestClient(app) as client:
        ann = _finished_table(client, hooks)
        table = app.state.hub.rooms[ann["table"]].table
        expected = [{k: v for k, v in e.to_dict().items() if k != "state"}
                    for e in table.events(None) if e.type in room_state.RESULT_EVENTS]

        def walked(*_args: Any, **_kwargs: Any) -> Any:
            raise AssertionError("GET .../results walked the table's history")

        monkeypatch.setattr(Table, "events", walked)
        got = client.get(f"/api/tables/{ann['table']}/results")
        assert got.status_code == 200
        assert got.json() == json.loads(json.dumps(expected))
        assert [e["type"] for e in got.json()][-1] == "match_won"


def test_finding7_records_hands_and_replays_run_off_the_event_loop(tmp_path, monkeypatch):
    hooks = TestHooks()
    app = create_app(_config(tmp_path, room_idle=0.0), hooks=hooks)
    hub = app.state.hub
    on_loop: list[str] = []

    def _spy(name: str, fn: Any) -> Any:
        def spied(*args: Any, **kwargs: Any) -> Any:
            with contextlib.suppress(RuntimeError):
                asyncio.get_running_loop()
                on_loop.append(name)
            return fn(*args, **kwargs)
        return spied

    monkeypatch.setattr(room_state, "write_record", _spy("record", room_state.write_record))
    monkeypatch.setattr(Room, "_rebuild", _spy("replay", Room._rebuild))
    with TestClient(app) as client:
        ann = _finished_table(client, hooks)
        table_id = ann["table"]
        for path in ("record", "hands"):
            assert client.get(f"/api/tables/{table_id}/{path}", headers=_bearer(ann)
                              ).status_code == 200
        assert table_id in hub.unload_idle(time.monotonic() + 1)  # over and idle: unloaded
        assert client.get(f"/api/tables/{table_id}").json()["status"] == "over"  # replayed
        assert table_id in hub.rooms
    assert on_loop == []


def test_finding7_heavy_reads_are_rate_limited_per_address(tmp_path):
    app = create_app(_config(tmp_path, http_reads_per_minute=8))  # bursts of 2
    with TestClient(app) as client:
        _still(app.state.limits)
        table_id = client.post("/api/tables", json={"name": "Ann"}).json()["table"]
        assert [client.get(f"/api/tables/{table_id}/results").status_code
                for _ in range(3)] == [200, 200, 429]
        assert client.get(f"/api/tables/{table_id}").status_code == 200  # a cheap read is not
        assert _other(client, "10.0.0.2").get(f"/api/tables/{table_id}/results"
                                              ).status_code == 200


def test_hands_come_a_page_at_a_time_newest_first(tmp_path, monkeypatch):
    """``GET …/hands`` builds at most ``HANDS_PAGE`` hands an answer (each step carries a view:
    a long table's every hand was megabytes in one request); ``before`` pages back, and the
    pages together are the whole game, as the record holds it."""
    monkeypatch.setattr(history_module, "HANDS_PAGE", 2)
    hooks = TestHooks()
    app = create_app(_config(tmp_path, http_reads_per_minute=4000), hooks=hooks)
    with TestClient(app) as client:
        ann = _finished_table(client, hooks)
        url = f"/api/tables/{ann['table']}/hands"
        record = client.get(f"/api/tables/{ann['table']}/record", headers=_bearer(ann)).text
        whole = history_module.finished_hands(record, None, page=10**6)["hands"]
        assert len(whole) > 2, "the match is to be longer than a page"
        pages: list[list[dict[str, Any]]] = []
        before: int | None = None
        while True:
            got = client.get(url, headers=_bearer(ann),
                             params={} if before is None else {"before": before})
            assert got.status_code == 200, got.text
            pages.append(got.json()["hands"])
            assert 1 <= len(pages[-1]) <= 2
            before = got.json()["earlier"]
            if before is None:
                break
            assert before == pages[-1][0]["number"]
        paged = [h for page in reversed(pages) for h in page]
        assert [{**h, "names": None} for h in paged] == [{**h, "names": None} for h in whole]
        assert all(len(h["names"]) == 4 and h["names"][0] == "Ann" for h in paged)
        for hostile in ("0", "-1", "x", "1" * 40):
            refused = client.get(url, headers=_bearer(ann), params={"before": hostile})
            assert refused.status_code == 422, (hostile, refused.text)
        assert client.get(url, headers=_bearer(ann), params={"before": 1}
                          ).json() == {"hands": [], "earlier": None}
