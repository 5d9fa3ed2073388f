"""Real servers for the server tests: ``pitch serve`` in a subprocess on a free port of
127.0.0.1, on a SQLite file of the test's own or on a PostgreSQL database made for the test
(and dropped after).  Tests talk to them over real sockets with :mod:`pitchcards.client`."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import httpx

from pitchcards.client import Client, Seat, TableConnection, table_request

PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/test"
#: ``pitch serve`` with the test-only hooks (a chosen seed, held bots)
HOOKED_SERVE = Path(__file__).with_name("hooked_serve.py")


#: Each pytest-xdist worker picks its servers' ports at random from its own range (gw0:
#: 10000-14999, gw1: 15000-19999 …), below Linux's ephemeral ports (32768-60999): two workers
#: never pick the same port, no outgoing connection takes one between the pick and the server's
#: bind, and a port handed out once in a process is not handed out again (a server killed and
#: restarted on its port keeps it).  At random, not in order, so that two test runs at once on
#: one machine (two checkouts) do not walk the same ports.
_PORTS_PER_WORKER = 5000
_handed_out: set[int] = set()
_port_choice = random.SystemRandom()


def _worker_number() -> int:
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    return int(worker[2:]) if worker[2:].isdigit() else 0


def free_port() -> int:
    """A port of this worker's own range that nothing listens on now."""
    first = 10000 + _PORTS_PER_WORKER * (_worker_number() % 4)
    for _ in range(_PORTS_PER_WORKER):
        port = _port_choice.randrange(first, first + _PORTS_PER_WORKER)
        if port in _handed_out:
            continue
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
        _handed_out.add(port)
        return port
    raise RuntimeError(f"no free port in {first}..{first + _PORTS_PER_WORKER - 1}")


class ServerProcess:
    """``pitch serve`` as a child process: start, kill -9, restart on the same database."""

    def __init__(self, db_url: str, *, port: int | None = None, workdir: Path,
                 extra: tuple[str, ...] = (), hooked: bool = False) -> None:
        self.db_url = db_url
        #: a test server (tests/hooked_serve.py: ``pitch serve`` with the test-only hooks)
        self.hooked = hooked
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.workdir = workdir
        self.extra = extra
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = workdir / f"server-{self.port}.log"

    def start(self, timeout: float = 120.0) -> ServerProcess:
        env = dict(os.environ, XDG_DATA_HOME=str(self.workdir / "data"), PYTHONUNBUFFERED="1")
        with open(self.log, "ab") as out:
            program = [str(HOOKED_SERVE)] if self.hooked else ["-m", "pitchcards.cli", "serve"]
            self.proc = subprocess.Popen(
                [sys.executable, *program, "--port", str(self.port),
                 "--db", self.db_url, "--log-level", "warning",
                 # idle connections kept past any pause of a loaded test process: a request
                 # on a connection the server closes as it is sent fails (httpx ReadError)
                 "--keep-alive", "600", *self.extra],
                stdout=out, stderr=subprocess.STDOUT, env=env, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"pitch serve exited {self.proc.returncode}:\n"
                                   + self.log.read_text(errors="replace")[-3000:])
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.url + "/healthz", timeout=1).status_code == 200:
                    return self
            time.sleep(0.1)
        self.stop()
        raise RuntimeError("pitch serve did not answer /healthz in time:\n"
                           + self.log.read_text(errors="replace")[-3000:])

    def kill9(self) -> None:
        """kill -9: no goodbye, no flush, no shutdown hook."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill9()

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


@contextlib.contextmanager
def postgres_database() -> Iterator[str]:
    """A fresh PostgreSQL database for one test (dropped after); skips if none answers.

    Its sessions commit without waiting for the WAL's fsync (``synchronous_commit = off``):
    a commit is as visible and as ordered as before, and a server process killed (-9) loses
    nothing — only a crash of PostgreSQL or of the machine could lose the last moments, which
    no test does.  What it saves is a disk flush per transaction, one per log entry (SQLite's
    ``synchronous=NORMAL`` makes none either): on this shared machine a commit took 8 ms
    (median) with the flush and 0.1 ms without, and the same 26-hand match 21 s and 15 s on
    PostgreSQL (issue 27)."""
    import psycopg
    import pytest

    name = f"pitch_test_{uuid.uuid4().hex[:12]}"
    try:
        admin = psycopg.connect(PG_ADMIN.replace("postgresql://", "postgresql://", 1),
                                autocommit=True, connect_timeout=5)
    except psycopg.OperationalError as exc:  # pragma: no cover - the machine runs one
        if os.environ.get("CI"):
            raise
        pytest.skip(f"no PostgreSQL at 127.0.0.1:5432 ({exc})")
    with admin:
        admin.execute(f'CREATE DATABASE "{name}"')
        admin.execute(f'ALTER DATABASE "{name}" SET synchronous_commit = off')
        try:
            yield f"postgresql://postgres@127.0.0.1:5432/{name}"
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextlib.contextmanager
def running_server(tmp_path: Path, db: str = "sqlite", *, extra: tuple[str, ...] = (),
                   hooked: bool = False) -> Iterator[ServerProcess]:
    """A started server on a new SQLite file (``db="sqlite"``) or PostgreSQL database
    (``hooked``: with the test-only hooks, tests/hooked_serve.py)."""
    with database_url(tmp_path, db) as url:
        server = ServerProcess(url, workdir=tmp_path, extra=extra, hooked=hooked)
        try:
            yield server.start()
        finally:
            server.stop()


@contextlib.contextmanager
def database_url(tmp_path: Path, db: str) -> Iterator[str]:
    """A new SQLite file in ``tmp_path`` (``db="sqlite"``) or a new PostgreSQL database
    (``"postgres"``, dropped after)."""
    if db == "postgres":
        with postgres_database() as url:
            yield url
    else:
        yield f"sqlite:///{tmp_path / 'server.db'}"


class AppServer:
    """The server's app in this process: ``create_app`` with the settings ``pitch serve`` makes
    from its flags (the same parser, :func:`server_config` and :func:`uvicorn_config`), served
    by uvicorn on a thread of its own (its own event loop) on a port of 127.0.0.1 — the same
    surface as :class:`ServerProcess` (``url``, ``output()``), without a process to start and
    the server's imports to pay for (issue 27).  ``hooked``: with the test-only hooks, as
    tests/hooked_serve.py makes them (``--hold-bots`` in ``extra`` holds every table's bots).
    ``app``: the app itself, for a test that looks inside (``app.state.hub``)."""

    def __init__(self, db_url: str, *, extra: tuple[str, ...] = (), hooked: bool = False,
                 workdir: Path) -> None:
        from pitchcards.server.cli import add_server_parsers
        from pitchcards.server.testing import TestHooks

        hold_bots = "--hold-bots" in extra
        if hold_bots and not hooked:
            raise ValueError("--hold-bots is a flag of the hooked test server: give hooked=True")
        parser = argparse.ArgumentParser(prog="pitch")
        add_server_parsers(parser.add_subparsers())
        self.port = free_port()
        self.args = parser.parse_args(
            ["serve", "--port", str(self.port), "--db", db_url, "--log-level", "warning",
             "--keep-alive", "600", *(a for a in extra if a != "--hold-bots")])
        self.hooks = TestHooks(hold_bots=hold_bots) if hooked else None
        self.hooked = hooked
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = workdir / f"server-{self.port}.log"
        self.app: Any = None
        self._server: Any = None
        self._thread: threading.Thread | None = None
        self._handler: logging.Handler | None = None

    def start(self, timeout: float = 120.0) -> AppServer:
        import uvicorn

        from pitchcards.server import create_app
        from pitchcards.server.cli import check_database, server_config, uvicorn_config
        from pitchcards.server.logs import JsonFormatter

        config = server_config(self.args)
        problem = check_database(config.sqlalchemy_url)  # as pitch serve does first
        if problem:
            raise RuntimeError(f"the test server cannot use its database: {problem}")
        # The server's log (its loggers are this process's: while it runs, the log has what
        # the process's server code logs at warning and above)
        self._handler = logging.FileHandler(self.log, encoding="utf-8")
        self._handler.setFormatter(JsonFormatter())
        self._handler.setLevel(logging.WARNING)
        for name in _SERVER_LOGGERS:
            logging.getLogger(name).addHandler(self._handler)
        self.app = create_app(config, hooks=self.hooks)
        self._server = uvicorn.Server(uvicorn_config(self.app, self.args, config, None))
        listening = socket.socket()
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
        listening.bind(("127.0.0.1", self.port))  # bound before the thread starts: no race
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [listening]},
                                        name=f"server-{self.port}", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self._server.started:  # a condition, polled; the deadline catches a hang
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("the in-process server did not start:\n" + self.output())
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        if self._server is not None and self._thread is not None:
            self._server.should_exit = True
            self._thread.join(60)
            self._thread = None
        if self._handler is not None:
            for name in _SERVER_LOGGERS:
                logging.getLogger(name).removeHandler(self._handler)
            self._handler.close()
            self._handler = None

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


#: the loggers an in-process server's log (:class:`AppServer`) listens to
_SERVER_LOGGERS = ("pitchcards", "uvicorn.error", "uvicorn.asgi", "asyncio")


@contextlib.contextmanager
def running_app(tmp_path: Path, db: str = "sqlite", *, extra: tuple[str, ...] = (),
                hooked: bool = False) -> Iterator[AppServer]:
    """:func:`running_server`, in this process (:class:`AppServer`): for the tests where the
    process itself does not matter (not its start, its death or its memory)."""
    with database_url(tmp_path, db) as url:
        server = AppServer(url, extra=extra, hooked=hooked, workdir=tmp_path)
        try:
            yield server.start()
        finally:
            server.stop()


#: Table settings for tests: no pauses (bots act at once, the next hand is dealt at once).
FAST = {"bot_delay": 0, "hand_pause": 0}
#: Server flags for tests: a client may send, create and look up as fast as a test loop does.
QUICK_LIMITS = ("--message-rate", "10000", "--http-writes-per-minute", "100000",
                "--max-connections-per-address", "10000", "--http-reads-per-minute", "100000",
                "--http-misses-per-minute", "100000", "--tables-per-address", "100000",
                "--heavy-tables-per-address", "100000",
                "--max-tables", "100000")


def server_fixture(db: str = "sqlite", extra: tuple[str, ...] = QUICK_LIMITS,
                   hooked: bool = False) -> Any:
    """A module-scoped pytest fixture: one server for every test of a module (it is stopped
    after them, even when one fails); ``hooked``: a test server (:func:`hooked_table`)."""
    return _module_server(running_server, db, extra, hooked)


def app_fixture(db: str = "sqlite", extra: tuple[str, ...] = QUICK_LIMITS,
                hooked: bool = False) -> Any:
    """:func:`server_fixture` in this process (:func:`running_app`): one app for every test
    of a module."""
    return _module_server(running_app, db, extra, hooked)


def _module_server(run: Any, db: str, extra: tuple[str, ...], hooked: bool) -> Any:
    import pytest

    @pytest.fixture(scope="module")
    def server(tmp_path_factory: Any) -> Iterator[Any]:
        with run(tmp_path_factory.mktemp("server"), db, extra=extra, hooked=hooked) as started:
            yield started

    return server


def settled_info(info: dict[str, Any]) -> dict[str, Any]:
    """A table's info as two looks at an unchanged table agree on: without who happens to be
    connected or watching (and so without the grace clocks of seats whose socket dropped) and
    without the turn clock's time left, which runs on (the clock itself — seat, total, seq —
    stays)."""
    info = dict(info)
    info.pop("spectators", None)
    info["seats"] = [{k: v for k, v in s.items() if k != "connected"} for s in info["seats"]]
    info["deadlines"] = [{k: v for k, v in d.items() if k != "remaining_ms"}
                         for d in info.get("deadlines", []) if d.get("kind") != "grace"]
    return info


def healthy(url: str) -> bool:
    """The server answers /healthz (it is alive, and so is its database)."""
    reply = httpx.get(url + "/healthz", timeout=10)
    return reply.status_code == 200 and reply.json()["ok"] is True


class RawReply:
    """What a raw WebSocket got back: its JSON messages and how it was closed."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []
        self.code: int | None = None
        self.reason: str | None = None

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.messages if m.get("type") == kind]

    @property
    def errors(self) -> list[str]:
        """The reason codes of the refusals received, in order."""
        return [str(m["reason"]) for m in self.of_type("error")]


async def raw_socket(url: str, table: str, frames: Sequence[str | bytes], *,
                     hello: Mapping[str, Any] | None = None, until: Any = None,
                     headers: Mapping[str, str] | None = None,
                     quiet: float = 1.0) -> RawReply:
    """Open a plain WebSocket to ``table``, say ``hello`` (unless None), send ``frames`` and
    collect the replies until the server closes the socket, ``until(reply)`` holds, or it has
    been quiet for ``quiet`` seconds."""
    import websockets

    reply = RawReply()
    ws_url = url.replace("http://", "ws://", 1) + f"/ws/{table}"
    async with websockets.connect(ws_url, additional_headers=dict(headers or {}),
                                  max_size=None, ping_interval=None) as ws:
        for frame in ([json.dumps(hello)] if hello is not None else []) + list(frames):
            await ws.send(frame)
        try:
            while until is None or not until(reply):
                text = await asyncio.wait_for(ws.recv(), quiet)
                reply.messages.append(json.loads(text))
        except TimeoutError:
            pass
        except websockets.ConnectionClosed as closed:
            reply.code = closed.rcvd.code if closed.rcvd else 1006
            reply.reason = closed.rcvd.reason if closed.rcvd else None
    return reply


def hello(token: str | None = None, last_seq: int | None = None) -> dict[str, Any]:
    return {"type": "hello", "protocol": 1, "token": token, "last_seq": last_seq}


async def every_event(url: str, table: str, token: str | None) -> list[dict[str, Any]]:
    """Every event of a table so far as the seat of ``token`` is told them (a replay from
    seq 0), as JSON."""
    def caught_up(reply: RawReply) -> bool:
        welcome = reply.of_type("welcome")
        events = reply.of_type("event")
        return bool(welcome) and (welcome[0]["seq"] == 0 or (bool(events) and
                                  events[-1]["event"]["seq"] >= welcome[0]["seq"]))

    reply = await raw_socket(url, table, [], hello=hello(token, 0), until=caught_up, quiet=10)
    assert caught_up(reply), reply.messages[-3:]
    return [m["event"] for m in reply.of_type("event")]


async def play_randomly(table: TableConnection, rng: random.Random,
                        stop: Any = lambda: False, timeout: float = 60) -> None:
    """Act for ``table``'s seat with random legal actions until ``stop()``, the game's end or
    the socket's close."""
    while not table.over and not stop():
        await table.wait_for(lambda: table.is_my_turn() or table.over or table.closed
                             or stop(), timeout)
        if table.closed or not table.is_my_turn() or stop():
            return
        assert table.view is not None
        await table.act(str(rng.choice(table.view.legal_actions)))


# ---------------------------------------------------------------------- a test server's hooks
async def hooked_table(api: Client, name: str, *, seed: int, hold_bots: bool = True,
                       **table: Any) -> Seat:
    """A table on a hooked server (``hooked=True``) dealt from ``seed`` (its bots seeded from
    it too), its bots held until :func:`run_bots` (unless ``hold_bots=False``); ``table``
    as :meth:`Client.create_table` takes it."""
    reply = await api.http.post("/_test/tables", json={
        "table": table_request(name, **table), "seed": seed, "hold_bots": hold_bots})
    assert reply.status_code == 201, reply.text
    data = reply.json()
    return Seat(api.server, data["table"], data["token"], data["name"], data["seat"],
                data["invite"], data["invite_url"])


async def run_bots(api: Client, table: str, actions: int | None = 1000) -> dict[str, Any]:
    """Let a hooked table's bots take up to ``actions`` actions and hold them again; returns
    when they have or the table waits for a person: ``acted``, ``seq``, ``to_act``, ``status``.
    ``actions=None``: the bots act freely from now on."""
    reply = await api.http.post(f"/_test/tables/{table}/bots", json={"actions": actions},
                                timeout=120)
    assert reply.status_code == 200, reply.text
    result: dict[str, Any] = reply.json()
    return result


async def play_held(api: Client, conn: TableConnection, rng: random.Random,
                    until: Any = lambda: True) -> dict[str, Any]:
    """On a hooked table with its bots held: the bots take their turns, then ``conn``'s seat a
    random legal action, in turn, until ``until()`` holds at its turn (by default: its first
    turn) or the match is over.  Returns :func:`run_bots`'s last answer (``conn`` has every
    event up to its ``seq``)."""
    while True:
        ran = await run_bots(api, conn.table)
        await conn.wait_for(lambda: conn.seq >= ran["seq"], 30)  # noqa: B023
        if ran["status"] != "playing" or until():
            return ran
        assert conn.is_my_turn(), f"the bots wait for another person: {ran}"
        assert conn.view is not None
        await conn.act(str(rng.choice(conn.view.legal_actions)))
