"""Real servers for the server tests: ``pitch serve`` in a subprocess on a free port of
127.0.0.1, on a SQLite file of the test's own or on a PostgreSQL database made for the test
(and dropped after).  Tests talk to them over real sockets with :mod:`pitchcards.client`."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx

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
