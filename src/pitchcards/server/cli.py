"""``pitch serve`` (the server) and ``pitch bot --join`` (a bot at a remote table)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import errno
import gc
import socket
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import uvicorn

    from .config import ServerConfig
    from .testing import TestHooks

__all__ = ["add_server_parsers", "check_database", "serve", "server_config", "uvicorn_config"]


def _engine_build() -> str:
    """The engine's build, as the start line says it: ``compiled``, or ``pure (why)`` — the
    reason says how to get the compiled one (issue 35, docs/design.md "Speed")."""
    from .. import _fast

    return "compiled" if _fast.compiled() else _fast.fast_path()


def serve(args: argparse.Namespace, hooks: TestHooks | None = None) -> int:
    """``pitch serve``'s flags in ``args``: check the database (and Redis), then serve until
    stopped.  ``hooks``: a test server's controls — only tests/hooked_serve.py passes them; the
    command line has no way to."""
    import uvicorn

    from .app import create_app
    from .logs import log_config

    config = server_config(args)
    if args.redis and not config.sqlalchemy_url.startswith("postgresql"):
        print("pitch serve: --redis shares tables between processes through PostgreSQL: give "
              "--db postgresql://… too (docs/deploy.md)", file=sys.stderr)
        return 2
    problem = check_database(config.sqlalchemy_url)
    if problem:
        print(f"pitch serve: cannot use the database {_shown_db(config.db_url)}: {problem}",
              file=sys.stderr)
        return 2
    problem = _check_redis(args.redis) if args.redis else None
    if problem:
        print(f"pitch serve: cannot use Redis at {_shown_db(args.redis)}: {problem}",
              file=sys.stderr)
        return 2
    problem = _check_port(args.host, args.port)
    if problem:
        print(f"pitch serve: cannot listen on {args.host}:{args.port}: {problem}", file=sys.stderr)
        return 2
    app = create_app(config, hooks=hooks)
    _tune_gc()
    print(f"pitch serve: open {config.url}  (database: {_shown_db(config.db_url)}; "
          f"engine: {_engine_build()}; Ctrl+C stops)", flush=True)
    server = uvicorn.Server(uvicorn_config(app, args, config, log_config(args.log_level)))
    with contextlib.suppress(KeyboardInterrupt):  # a second Ctrl+C during the shutdown
        server.run()
    return 0 if server.started else 1


def server_config(args: argparse.Namespace) -> ServerConfig:
    """The server's settings from ``pitch serve``'s flags (also the in-process test servers',
    tests/server_helpers.py, so that they run as ``pitch serve`` does)."""
    from .config import ServerConfig, default_db_url

    return ServerConfig(db_url=args.db or default_db_url(), host=args.host, port=args.port,
                        public_url=args.public_url,
                        allowed_origins=tuple(args.allow_origin),
                        max_connections_per_address=args.max_connections_per_address,
                        http_writes_per_minute=args.http_writes_per_minute,
                        http_reads_per_minute=args.http_reads_per_minute,
                        http_misses_per_minute=args.http_misses_per_minute,
                        sign_ins_per_minute=args.sign_ins_per_minute,
                        sign_ins_per_hour_per_account=args.sign_ins_per_hour_per_account,
                        send_queue=args.send_queue, send_timeout=args.send_timeout,
                        tables_per_address=args.tables_per_address,
                        heavy_tables_per_address=args.heavy_tables_per_address,
                        thoughts_per_address=args.thoughts_per_address,
                        think_processes=args.think_processes,
                        max_tables=args.max_tables,
                        unattended_pause=args.unattended_pause,
                        message_rate=args.message_rate,
                        message_burst=max(1, int(2 * args.message_rate)),
                        analysis_workers=args.analysis_workers,
                        analysis_worlds=args.analysis_budget,
                        analyses_per_hour=args.analyses_per_hour,
                        redis_url=args.redis)


def uvicorn_config(app: Any, args: argparse.Namespace, config: ServerConfig,
                   logs: dict[str, Any] | None) -> uvicorn.Config:
    """uvicorn's settings for ``app`` from ``pitch serve``'s flags; ``logs``: a ``dictConfig``
    for the process (None: leave the process's logging alone, as an in-process test server
    does)."""
    import uvicorn

    return uvicorn.Config(
        app, host=args.host, port=args.port, log_config=logs,
        ws_max_size=config.max_message, ws_ping_interval=None, lifespan="on",
        ws_per_message_deflate=args.ws_compression,
        # A client's address is the socket's peer unless it came through a proxy named in
        # --forwarded-allow-ips (uvicorn's own default trusts X-Forwarded-For from 127.0.0.1,
        # which let any client on a shared host forge its address: issue 31, finding 4).
        proxy_headers=bool(args.forwarded_allow_ips),
        forwarded_allow_ips=args.forwarded_allow_ips or "",
        timeout_keep_alive=args.keep_alive, timeout_graceful_shutdown=5)


def check_database(url: str) -> str | None:
    """Open the database and bring its schema up to date; what went wrong, in one line."""
    from sqlalchemy.exc import ArgumentError, SQLAlchemyError

    from .store import Store

    try:
        store = Store(url)
        try:
            store.migrate()
        finally:
            store.close()
    except (SQLAlchemyError, ArgumentError, ImportError, OSError) as exc:
        return str(exc).strip().splitlines()[0][:300]
    return None


def _positive_seconds(text: str) -> float:
    """A number of seconds above 0 (argparse type)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(f"{text!r}: give seconds above 0, at most 3600")
    return value


def _check_port(host: str, port: int) -> str | None:
    """Try the address before saying "open …": a port another program holds would otherwise
    print the invitation, then uvicorn's error.  What went wrong, in one line, with the way out
    (the server itself still reports a port taken in the moment between this and its start)."""
    if port == 0:
        return None  # the system picks a free port
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except OSError as exc:
        return f"no such address ({exc.strerror or exc}); --host takes an address of this machine"
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
        try:
            probe.bind(address)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return (f"port {port} is in use (another pitch serve?); choose another with "
                        f"--port, e.g. pitch serve --port {port + 1 if port < 65535 else 8080}")
            return f"{exc.strerror or exc}; try another --host or --port"
    return None


def _check_redis(url: str) -> str | None:
    """Ask Redis for a PONG (and sharded pub/sub, Redis 7); what went wrong, in one line."""
    import redis
    from redis.exceptions import RedisError

    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=3)
        try:
            client.ping()
            client.execute_command("SPUBLISH", "pitch:check", "")  # type: ignore[no-untyped-call]
        finally:
            client.close()
    except (RedisError, ValueError, OSError) as exc:
        return str(exc).strip().splitlines()[0][:300] if str(exc).strip() else type(exc).__name__
    return None


def _tune_gc() -> None:
    """Python's cyclic collector, tuned for a server's latency.  With the default thresholds a
    full collection of a busy server's heap (half a million objects at 400 tables: sockets,
    tasks, the tables' events) stopped the event loop for 100-400 ms several times a minute;
    the 99th percentile latency was those pauses (bench_server: 437 ms at 400 tables, 47 ms
    with these settings).  Objects made at start are frozen out of every collection, and the
    young generations are collected far less often (our garbage is freed by reference counts;
    cycles are rare), so full collections become rare."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)


def _shown_db(url: str) -> str:
    from .app import _safe_url

    return _safe_url(url)


def _bot(args: argparse.Namespace) -> int:
    import httpx
    import websockets

    from ..argtypes import api_token
    from ..client import play_bot, server_of

    try:
        result = asyncio.run(play_bot(args.server, args.join, name=args.name,
                                      level=args.level, seat=args.seat,
                                      api_token=api_token(args)))
    except KeyboardInterrupt:
        return 130
    except (httpx.HTTPError, OSError, websockets.WebSocketException) as exc:
        print(f"pitch bot: cannot reach the server at {server_of(args.join, args.server)} "
              f"({type(exc).__name__}: {exc})", file=sys.stderr)
        return 2
    print(result)
    return 0


def add_server_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from ..argtypes import add_token_argument, whole_number
    from .config import default_processes

    parser = sub.add_parser(
        "serve", help="run a Pitch server: play online with friends",
        description="Serve Pitch tables over HTTP and WebSockets (docs/server.md). By default "
                    "the tables are kept in a SQLite file under $XDG_DATA_HOME/pitchcards/; "
                    "--db postgresql://user@host/db keeps them in PostgreSQL.")
    parser.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (0.0.0.0: every interface)")
    parser.add_argument("--port", type=whole_number(0, 65535), default=8000)
    parser.add_argument("--db", default=None, metavar="URL",
                       help="database URL: sqlite:///path.db (default: the data folder) or "
                            "postgresql://user@host:5432/name")
    parser.add_argument("--redis", default=None, metavar="URL",
                       help="redis://host:6379/0: run as one of several processes sharing "
                            "every table through PostgreSQL (--db) and Redis (docs/deploy.md)")
    parser.add_argument("--public-url", default=None, metavar="URL",
                       help="the address players open, for invite links (behind a proxy)")
    parser.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                       help="another site whose pages may open WebSockets here")
    parser.add_argument("--forwarded-allow-ips", default=None, metavar="IPS",
                       help="the reverse proxies (comma-separated addresses or networks) whose "
                            "X-Forwarded-For / X-Forwarded-Proto name the client; default: "
                            "none, not even 127.0.0.1 — every address is the socket's own "
                            "(docs/deploy.md)")
    parser.add_argument("--max-connections-per-address", type=whole_number(1), default=64,
                       metavar="N", help="open sockets allowed from one address (default 64)")
    parser.add_argument("--http-writes-per-minute", type=whole_number(1), default=120,
                       metavar="N", help="table creations, seat takings … per address")
    parser.add_argument("--http-reads-per-minute", type=whole_number(1), default=120,
                       metavar="N", help="reads of a table's results, record or hands per "
                                         "address (default 120)")
    parser.add_argument("--http-misses-per-minute", type=whole_number(1), default=120,
                       metavar="N", help="lookups of tables that do not exist per address; "
                                         "then its lookups are refused for a while (default 120)")
    parser.add_argument("--sign-ins-per-minute", type=whole_number(1), default=10,
                       metavar="N", help="sign-in attempts and registrations per address "
                                         "(default 10)")
    parser.add_argument("--sign-ins-per-hour-per-account", type=whole_number(1), default=30,
                       metavar="N", help="sign-in attempts per account name, from anywhere "
                                         "(default 30)")
    parser.add_argument("--tables-per-address", type=whole_number(1), default=20, metavar="N",
                       help="tables one address may have in memory, not over (default 20)")
    parser.add_argument("--heavy-tables-per-address", type=whole_number(1), default=4,
                       metavar="N", help="of those, tables with hard or expert bots or "
                                         "stand-ins (default 4)")
    parser.add_argument("--thoughts-per-address", type=whole_number(1), default=1,
                       metavar="N", help="hard or expert bots thinking at once for all the "
                                         "tables one address created (default 1)")
    parser.add_argument("--think-processes", type=whole_number(0), default=default_processes(),
                       metavar="N", help="worker processes the hard and expert bots think in; "
                                         "0: threads of the server's process (default: the "
                                         f"cores less one, 1 to 4: {default_processes()} here)")
    parser.add_argument("--analysis-workers", type=whole_number(1, 64), default=1, metavar="N",
                       help="worker processes analysing games at once (default 1; each takes a "
                            "core at a lower priority than the tables)")
    parser.add_argument("--analysis-budget", type=whole_number(2, 100_000), default=128,
                       metavar="N", help="sampled deals weighed per decision by the server's "
                                         "analyses (default 128, as pitch analyze)")
    parser.add_argument("--analyses-per-hour", type=whole_number(1), default=10, metavar="N",
                       help="new analyses one address may ask for per hour (default 10)")
    parser.add_argument("--max-tables", type=whole_number(1), default=2000, metavar="N",
                       help="tables in memory, not over, in all (default 2000)")
    parser.add_argument("--unattended-pause", type=float, default=30.0, metavar="S",
                       help="seconds a table plays on with nobody connected before it pauses "
                            "(default 30)")
    parser.add_argument("--send-queue", type=whole_number(1), default=512, metavar="N",
                       help="frames queued for one socket; a client further behind is dropped "
                            "(default 512)")
    parser.add_argument("--keep-alive", type=_positive_seconds, default=5.0, metavar="S",
                        help="seconds an idle HTTP connection is kept open for the client's next "
                             "request (default 5; behind a proxy that reuses connections, "
                             "longer than the proxy keeps them)")
    parser.add_argument("--send-timeout", type=float, default=10.0, metavar="S",
                       help="seconds a frame may wait for a socket to take it; then the "
                            "connection is cut (default 10)")
    parser.add_argument("--message-rate", type=float, default=20.0, metavar="N",
                       help="WebSocket messages per second per connection (bursts of 2N)")
    parser.add_argument("--ws-compression", action=argparse.BooleanOptionalAction, default=False,
                       help="compress WebSocket messages (permessage-deflate): fewer bytes on "
                            "slow links, for about 15%% more CPU and 50 KB more memory per "
                            "socket (default: off; docs/server.md)")
    parser.add_argument("--log-level", default="info",
                       choices=["debug", "info", "warning", "error"])
    parser.set_defaults(func=serve)

    bot = sub.add_parser("bot", help="seat a bot at a table on a Pitch server",
                         description="Take a seat at a server's table by its invite and let a "
                                     "bot play it until the game ends.")
    bot.add_argument("--join", required=True, metavar="INVITE",
                     help="the invite code or invite URL")
    bot.add_argument("--server", default=None, metavar="URL",
                     help="the server (default: the invite URL's, else http://127.0.0.1:8000)")
    bot.add_argument("--level", default="medium",
                     choices=["random", "easy", "medium", "hard", "expert"],
                     help="how well it plays (default: medium)")
    bot.add_argument("--name", default=None, help="the bot's display name")
    bot.add_argument("--seat", type=whole_number(0), default=None, help="a seat (default: any)")
    add_token_argument(bot)
    bot.set_defaults(func=_bot)


if __name__ == "__main__":  # pragma: no cover
    sys.exit("run: pitch serve")
