"""Real servers for the server tests: ``pitch serve`` in a subprocess on a free port of
127.0.0.1, on a SQLite file of the test's own or on a PostgreSQL database made for the test
(and dropped after).  Tests talk to them over real sockets with :mod:`pitchcards.client`."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import httpx

from pitchcards.client import TableConnection

PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/test"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """``pitch serve`` as a child process: start, kill -9, restart on the same database."""

    def __init__(self, db_url: str, *, port: int | None = None, workdir: Path,
                 extra: tuple[str, ...] = ()) -> None:
        self.db_url = db_url
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.workdir = workdir
        self.extra = extra
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = workdir / f"server-{self.port}.log"

    def start(self, timeout: float = 30.0) -> ServerProcess:
        env = dict(os.environ, XDG_DATA_HOME=str(self.workdir / "data"), PYTHONUNBUFFERED="1")
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "pitchcards.cli", "serve", "--port", str(self.port),
                 "--db", self.db_url, "--log-level", "warning", *self.extra],
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
    """A fresh PostgreSQL database for one test (dropped after); skips if none answers."""
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
        try:
            yield f"postgresql://postgres@127.0.0.1:5432/{name}"
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextlib.contextmanager
def running_server(tmp_path: Path, db: str = "sqlite", *,
                   extra: tuple[str, ...] = ()) -> Iterator[ServerProcess]:
    """A started server on a new SQLite file (``db="sqlite"``) or PostgreSQL database."""
    with contextlib.ExitStack() as stack:
        if db == "postgres":
            url = stack.enter_context(postgres_database())
        else:
            url = f"sqlite:///{tmp_path / 'server.db'}"
        server = ServerProcess(url, workdir=tmp_path, extra=extra)
        stack.callback(server.stop)
        yield server.start()


#: Table settings for tests: no pauses (bots act at once, the next hand is dealt at once).
FAST = {"bot_delay": 0, "hand_pause": 0}
#: Server flags for tests: a client may send as fast as a test loop does.
QUICK_LIMITS = ("--message-rate", "10000", "--http-writes-per-minute", "100000",
                "--max-connections-per-address", "10000")


def server_fixture(db: str = "sqlite", extra: tuple[str, ...] = QUICK_LIMITS) -> Any:
    """A module-scoped pytest fixture: one server for every test of a module (it is stopped
    after them, even when one fails)."""
    import pytest

    @pytest.fixture(scope="module")
    def server(tmp_path_factory: Any) -> Iterator[ServerProcess]:
        with running_server(tmp_path_factory.mktemp("server"), db, extra=extra) as started:
            yield started

    return server


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
