"""The server's settings: where it stores tables, and the limits that keep one client from
hurting the others.  Per-table settings (grace period, turn timer, pace) live in
:class:`~pitchcards.server.protocol.TableSettings`; these are per process."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

from ..storage import data_dir

__all__ = ["ServerConfig", "data_dir", "default_db_url", "default_processes",
           "normalise_db_url"]


def default_db_url() -> str:
    """The embedded SQLite file the server uses unless told otherwise."""
    return f"sqlite:///{data_dir() / 'server.db'}"


def normalise_db_url(url: str) -> str:
    """Accept the URLs people write: ``postgresql://`` means psycopg 3 (SQLAlchemy's own
    default driver for that scheme is psycopg2, which we do not ship); a bare path is a SQLite
    file."""
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    if "://" not in url:
        return f"sqlite:///{Path(url).expanduser().resolve()}"
    return url


def default_processes() -> int:
    """The hard and expert bots' worker processes unless ``--think-processes`` says: one core
    is left to the event loop, at least one worker, at most four (a busy server is several
    processes, docs/deploy.md)."""
    return max(1, min(4, (os.cpu_count() or 2) - 1))


@dataclasses.dataclass
class ServerConfig:
    """One server process's settings (``pitch serve`` flags)."""

    db_url: str = dataclasses.field(default_factory=default_db_url)
    host: str = "127.0.0.1"
    port: int = 8000
    #: the address people open (invite links are made from it); default http://host:port
    public_url: str | None = None
    #: WebSocket Origins allowed besides the server's own (a browser page elsewhere)
    allowed_origins: tuple[str, ...] = ()
    #: the largest client message, in bytes; a bigger one closes the socket (1009)
    max_message: int = 4096
    #: WebSockets open at once from one address
    max_connections_per_address: int = 64
    #: client messages per second per connection (sustained) and the burst allowed
    message_rate: float = 20.0
    message_burst: int = 40
    #: HTTP requests that change something (create, join, start …) per minute per address
    http_writes_per_minute: int = 120
    #: reads whose work grows with a table's history (results, record, hands) per minute per
    #: address
    http_reads_per_minute: int = 120
    #: lookups of tables (or invites) that do not exist per minute per address; while they are
    #: spent, the address's lookups are refused (429) before any work
    http_misses_per_minute: int = 120
    #: sign-in attempts (and registrations) per minute per address, and sign-in attempts per
    #: hour per account name (issue 32; bursts: the minute's, a third of the hour's)
    sign_ins_per_minute: int = 10
    sign_ins_per_hour_per_account: int = 30
    #: seconds a signed-in session lasts (from its sign-in)
    session_lifetime: float = 30 * 24 * 3600.0
    #: chat: longest message, and messages per minute per connection
    chat_length: int = 300
    chat_per_minute: int = 20
    #: each socket's outgoing queue; a client this far behind is dropped (it resyncs by seq)
    send_queue: int = 512
    #: seconds a frame may wait for the socket to take it; a client that reads nothing this
    #: long has its TCP connection cut (issue 31, finding 6)
    send_timeout: float = 10.0
    #: tables in memory and not over that one address created, and in all: a stranger's
    #: budget (issue 31, finding 1)
    tables_per_address: int = 20
    #: of those, tables whose bots (or stand-ins) are hard or expert: their bots hold the GIL
    #: for seconds a hand, and slow every other table of the process
    heavy_tables_per_address: int = 4
    #: hard or expert bots thinking at once for all the tables one address created (each
    #: thought takes a worker process for up to a second; server/thinking.py)
    thoughts_per_address: int = 1
    #: worker processes the hard and expert bots think in (server/think_pool.py); 0: threads
    #: of the server's process, whose searches hold its GIL against the event loop
    think_processes: int = dataclasses.field(default_factory=default_processes)
    max_tables: int = 2000
    #: seconds a table in play goes on with nobody connected (players or spectators); then it
    #: pauses until someone connects (issue 31, finding 1)
    unattended_pause: float = 30.0
    #: seconds between the server's heartbeat pings; a socket silent for 3 of them is closed
    heartbeat: float = 20.0
    #: a reconnecting client more than this many events behind gets a fresh view instead
    replay_limit: int = 1000
    #: a room nobody is connected to, waiting for its start or over, leaves memory after this
    #: many seconds (it is loaded again from the database when someone asks for it)
    room_idle: float = 600.0
    #: analyses of games (issue 33): worker processes running them at once in this process,
    #: sampled deals a decision (the analysis budget), new analyses one address may ask for
    #: per hour, analyses waiting in all (then 503 ``busy``), and the most hands one analysis
    #: takes (a longer money session: the newest this many)
    analysis_workers: int = 1
    analysis_worlds: int = 128
    analyses_per_hour: int = 10
    analysis_queue: int = 50
    analysis_hands: int = 100
    #: Redis (``redis://host:6379/0``): this process is one of several sharing the tables in
    #: PostgreSQL (docs/deploy.md); None: it holds its tables alone
    redis_url: str | None = None

    @property
    def url(self) -> str:
        if self.public_url:
            return self.public_url.rstrip("/")
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    @property
    def sqlalchemy_url(self) -> str:
        return normalise_db_url(self.db_url)
