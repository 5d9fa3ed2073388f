"""The ASGI app of ``pitch serve``: the HTTP API, the WebSocket, ``/healthz`` and ``/metrics``.

Routes (docs/protocol.md has the messages)::

    POST /api/tables                    create a table (CreateTable) -> TableCreated
                                        (ranked: signed in, a session or Bearer pat_…)
    GET  /api/lobby                     listed tables -> [TableInfo]
    GET  /api/tables/{id}               a table -> TableInfo
    GET  /api/invites/{code}            the table of an invite -> TableInfo
    POST /api/invites/{code}/seats      take a seat (TakeSeat) -> SeatTaken
    POST /api/tables/{id}/seats         take a seat at a listed table (TakeSeat) -> SeatTaken
    POST /api/tables/{id}/start         host: start the match            (Authorization: Bearer)
    POST /api/tables/{id}/leave         money: leave with your payout    (Bearer)
    POST /api/tables/{id}/settle        money: settle everyone           (Bearer)
    POST /api/tables/{id}/claim         ranked: claim the win, every opponent gone (Bearer)
    POST /api/tables/{id}/rematch       host: the same seats again       (Bearer)
    GET  /api/tables/{id}/record        the finished hands' record       (Bearer)
    GET  /api/variants                  the variants and their options
    POST /api/rules                     the rules as chosen, in words (RulesQuery)
    GET  /api/tables/{id}/results       the score sheet's events so far (public; a tournament's
                                        table: its players' seat tokens)
    GET  /api/tables/{id}/hands         the finished hands, step by step (Bearer; all, once over)
    GET  /api/protocol                  the JSON Schema of every message
    POST/GET /api/tables/{id}/analysis[/puzzles]   analyses (server/analysis_routes.py)
    /api/accounts, /api/session, /api/me…   accounts (server/accounts.py)
    GET  /api/leaderboards/{pool}, /api/players/{name}   ratings (server/ladder.py)
    /api/tournaments…                   tournaments (server/tournaments.py)
    WS   /ws/{id}                       play or watch: hello first
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import Depends, FastAPI, Header, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.gzip import GZipMiddleware
from starlette.websockets import WebSocket, WebSocketDisconnect

from .. import __version__
from ..errors import IllegalActionError, OptionError
from .account_pages import account_pages_router
from .accounts import API_TOKEN_PREFIX, accounts_router, find_caller, from_a_browser_elsewhere
from .analysis_jobs import AnalysisJobs
from .analysis_routes import analysis_router
from .cluster import Mirror
from .config import ServerConfig
from .connection import Connection, KeepTransport
from .help_pages import help_page, rules_page
from .history import finished_hands
from .hub import Hub, new_token
from .ladder import ladder_router
from .limits import AddressLimits, SignInLimits
from .pages import (
    WEB_DIR,
    SecurityHeaders,
    history_page,
    home_page,
    invite_page,
    missing_page,
    table_page,
    tournament_page,
)
from .protocol import (
    CLIENT_TYPES,
    PROTOCOL,
    Act,
    Chat,
    CreateTable,
    ErrorMessage,
    Hello,
    PaymentsPreview,
    Ping,
    Pong,
    Refusal,
    RulesQuery,
    SeatTaken,
    TableCreated,
    TableInfo,
    TakeSeat,
    check_display_name,
    json_schema,
    parse_client_message,
)
from .ranked import rankable
from .room import Refused, Room, table_rules
from .rulesinfo import fit_players, rules_info, variants_info
from .scores import scores_router
from .shared_limits import (
    RateGate,
    SharedLeases,
    SharedRates,
    SharedSignIns,
    SignInGate,
    SocketGate,
    SocketLease,
)
from .store import hash_secret
from .testing import TestHooks, hooks_router
from .tournaments import TournamentService, tournaments_router

__all__ = ["create_app"]

log = logging.getLogger("pitchcards.server")

#: The seat token of a request, as ``Authorization: Bearer <token>`` (module level: FastAPI
#: resolves the routes' annotations in this module's namespace).
Auth = Annotated[str | None, Header(description="Bearer <seat token>")]


def create_app(config: ServerConfig | None = None, hub: Hub | None = None,
               hooks: TestHooks | None = None) -> FastAPI:
    """The app for ``config`` (defaults: SQLite under the data folder, 127.0.0.1:8000).
    ``hooks``: a test server's controls and its ``/_test`` routes (server/testing.py) — only
    tests pass them; ``pitch serve`` never does."""
    config = config or ServerConfig()
    hub = hub or Hub(config, hooks=hooks)
    tournaments = TournamentService(hub)
    limits = AddressLimits(config.max_connections_per_address, config.http_writes_per_minute,
                           config.http_reads_per_minute, config.http_misses_per_minute)

    # with --redis, every process's sockets count in one lease set per address (issue 31)
    sockets = SocketGate(limits, SharedLeases(hub.cluster.bus.redis, "sockets",
                                              config.max_connections_per_address,
                                              3 * config.heartbeat)
                         if hub.cluster is not None else None)

    analyses = AnalysisJobs(hub.store.engine, hub.db, config.sqlalchemy_url,
                            config.analysis_workers, most_hands=config.analysis_hands)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await hub.open()
        await tournaments.open()  # running tournaments go on (issue 34)
        await analyses.open()
        renewer = asyncio.create_task(sockets.keep_renewed(config.heartbeat))
        log.info("serving", extra={"url": config.url, "db": _safe_url(config.db_url)})
        yield
        renewer.cancel()
        await analyses.close()
        await tournaments.close()
        await hub.close()

    # No /docs or /redoc: FastAPI's pages load their scripts from a CDN, which a CSP of
    # default-src 'self' (and a machine offline) forbids; /openapi.json is the API's description.
    app = FastAPI(title="pitchcards", version=__version__, lifespan=lifespan,
                  docs_url=None, redoc_url=None,
                  summary="Pitch online: tables, seats, and a WebSocket per player",
                  responses={409: {"model": Refusal}})
    app.state.hub = hub
    app.state.analyses = analyses  # (a test reads what it ran)
    app.state.limits = limits  # (a test sets the buckets' clock)
    app.add_middleware(GZipMiddleware, minimum_size=1024)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(KeepTransport)  # (added last: the outermost, next to uvicorn)
    app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")
    app.include_router(scores_router(hub))
    sign_ins = SignInLimits(config.sign_ins_per_minute, config.sign_ins_per_hour_per_account)
    app.state.sign_ins = sign_ins  # (a test sets the buckets' clock)
    # with --redis, every process's attempts count in one set of buckets (issue 32)
    shared = SharedSignIns(hub.cluster.bus.redis, config.sign_ins_per_minute,
                           config.sign_ins_per_hour_per_account) \
        if hub.cluster is not None else None
    rates = RateGate(limits, SharedRates(hub.cluster.bus.redis, config.http_writes_per_minute,
                                         config.http_reads_per_minute,
                                         config.http_misses_per_minute)
                     if hub.cluster is not None else None)
    def same_origin(origin: str, host: str | None) -> bool:
        return _origin_ok(origin, host, config)

    app.include_router(accounts_router(hub, config, SignInGate(sign_ins, shared),
                                       same_origin, _address))

    # ------------------------------------------------------------------ errors
    @app.exception_handler(Refused)
    async def _refused(request: Request, exc: Refused) -> JSONResponse:
        hub.metrics.refusals.labels(exc.reason).inc()
        if exc.reason == "not_found":  # a miss costs the address (issue 31, finding 2)
            await rates.missed(_address(request))
        return JSONResponse(Refusal(reason=exc.reason, message=exc.message).model_dump(),
                            status_code=exc.status)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        reason = "not_found" if exc.status_code == 404 else "bad_message"
        hub.metrics.refusals.labels(reason).inc()
        words = "no such address" if exc.status_code == 404 else str(exc.detail)
        return JSONResponse(Refusal(reason=reason, message=words).model_dump(),
                            status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()))
        # a display name that is empty or too long is a bad name, as one with odd characters
        reason = "bad_name" if tuple(first.get("loc", ())) == ("body", "name") else "bad_message"
        hub.metrics.refusals.labels(reason).inc()
        return JSONResponse(Refusal(reason=reason,
                                    message=f"{where}: {first.get('msg', 'invalid')}"
                                    ).model_dump(), status_code=422)

    @app.exception_handler(OptionError)
    async def _option(_request: Request, exc: OptionError) -> JSONResponse:
        return JSONResponse(Refusal(reason="bad_setup", message=str(exc)).model_dump(),
                            status_code=422)

    @app.exception_handler(IllegalActionError)
    async def _illegal(_request: Request, exc: IllegalActionError) -> JSONResponse:
        return JSONResponse(Refusal(reason=exc.reason, message=str(exc)).model_dump(),
                            status_code=422)

    async def writes(request: Request) -> None:
        """A dependency of every request that changes something: the address's rate (with
        ``--redis``, on all the processes together)."""
        if not await rates.write(_address(request)):
            raise Refused("rate_limited", "too many requests from your address: wait a "
                                          "minute", 429)

    Writes = Depends(writes)

    async def lookups(request: Request) -> None:
        """A dependency of every request naming a table or an invite: refused before any work
        while the address's misses (ids that do not exist) have spent its bucket (with
        ``--redis``, on all the processes together)."""
        if not await rates.may_look(_address(request)):
            raise Refused("rate_limited", "too many lookups of tables that do not exist from "
                                          "your address: wait a minute", 429)

    async def reads(request: Request) -> None:
        """A dependency of the reads whose work grows with a table's history (with
        ``--redis``, the address's rate on all the processes together)."""
        await lookups(request)
        if not await rates.read(_address(request)):
            raise Refused("rate_limited", "too many reads of results, records or hands from "
                                          "your address: wait a minute", 429)

    Lookups = Depends(lookups)
    Reads = Depends(reads)
    app.include_router(ladder_router(hub, Reads))
    app.include_router(account_pages_router())
    app.include_router(analysis_router(hub, analyses, config, Writes, Reads, _address))

    def bearer(authorization: str | None) -> str | None:
        """The hash of the request's seat token (the table's owner, perhaps another process,
        checks it; the token itself goes no further)."""
        if authorization and authorization.lower().startswith("bearer "):
            token = authorization[7:].strip()
            return hash_secret(token) if token else None
        return None

    app.state.tournaments = tournaments
    app.include_router(tournaments_router(
        hub, tournaments, Writes, Lookups, bearer,
        lambda http, authorization: account_of(http, authorization)))  # defined below

    # ------------------------------------------------------------------ pages
    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def home() -> HTMLResponse:
        return home_page(config.url)

    @app.get("/rules", response_class=HTMLResponse, include_in_schema=False)
    async def rules() -> HTMLResponse:
        return rules_page()

    @app.get("/help", response_class=HTMLResponse, include_in_schema=False)
    async def help_() -> HTMLResponse:
        return help_page()

    async def _room_page(request: Request, find: Awaitable[TableInfo], missing: str,
                         page: Callable[[TableInfo], HTMLResponse]) -> HTMLResponse:
        """A page about a table, or a "not found" page if there is no such table (a miss)."""
        try:
            info = await find
        except Refused as exc:
            if exc.reason == "not_found":
                await rates.missed(_address(request))
            return missing_page(missing)
        return page(info)

    @app.get("/join/{code}", response_class=HTMLResponse, include_in_schema=False,
             dependencies=[Lookups])
    async def invite_link(request: Request, code: str) -> HTMLResponse:
        return await _room_page(request, invite_table(code),
                                "No table has this invite: check the link.",
                                lambda info: invite_page(f"{config.url}/join/{code}", code,
                                                         info))

    @app.get("/t/{table_id}", response_class=HTMLResponse, include_in_schema=False,
             dependencies=[Lookups])
    async def table_link(request: Request, table_id: str) -> HTMLResponse:
        return await _room_page(request, hub.info(table_id), "No such table.", table_page)

    @app.get("/t/{table_id}/history", response_class=HTMLResponse, include_in_schema=False,
             dependencies=[Lookups])
    async def history_link(request: Request, table_id: str) -> HTMLResponse:
        return await _room_page(request, hub.info(table_id), "No such table.", history_page)

    @app.get("/tournaments", response_class=HTMLResponse, include_in_schema=False)
    async def new_tournament() -> HTMLResponse:
        return tournament_page(None, "A new tournament")

    @app.get("/tournaments/{tid}", response_class=HTMLResponse, include_in_schema=False,
             dependencies=[Lookups])
    async def tournament_link(request: Request, tid: str) -> HTMLResponse:
        try:
            state = await tournaments.state(tid)
        except Refused:
            await rates.missed(_address(request))
            return missing_page("No such tournament.")
        return tournament_page(tid, str(state.config["title"]))

    @app.get("/healthz")
    async def healthz() -> dict[str, Any]:
        await hub.db(hub.store.lobby, 1)  # the database answers
        return {"ok": True, "tables": len(hub.rooms),
                "connections": sum(len(r.connections()) for r in hub.rooms.values())}

    @app.get("/metrics")
    async def metrics() -> Response:
        return Response(hub.metrics.render(), media_type="text/plain; version=0.0.4")

    @app.get("/api/protocol")
    async def protocol() -> dict[str, Any]:
        return json_schema()

    @app.get("/api/variants")
    async def variants() -> dict[str, Any]:
        return variants_info()

    @app.post("/api/rules")
    async def explain_rules(request: RulesQuery) -> dict[str, Any]:
        if request.fit_players:  # the new-table form: the options may move the range
            rules, _ = table_rules(request.model_copy(update={"players": None}))
            info = rules_info(rules, fit_players(rules, request.players))
        else:
            rules, players = table_rules(request)
            info = rules_info(rules, players)
        # whether a table of these rules may be ranked, and why not (said before creating)
        return {**info, "ranked": rankable(request.variant, rules)}

    async def account_of(http: Request | None,
                         authorization: str | None) -> tuple[str, str] | None:
        """The (id, name) of the account a table request is signed in as: an API token
        (``Bearer pat_…``) or the session cookie; None for a guest.  A seat token in the
        header is no account's (the table routes' own Bearer) and is not looked up.  The
        cookie counts only on a request from this server's own pages, as for the account
        routes: another page (a sibling subdomain's is same-site, so the browser sends the
        cookie) cannot seat the cookie's account at a ranked table, where it would forfeit."""
        if http is None:
            return None
        token = authorization[7:].strip() if authorization and \
            authorization.lower().startswith("bearer ") else ""
        if not token.startswith(API_TOKEN_PREFIX) and from_a_browser_elsewhere(http, same_origin):
            return None  # a guest, as far as the table routes are concerned
        found = await find_caller(hub, config, http, authorization
                                  if token.startswith(API_TOKEN_PREFIX) else None)
        return (found.account.id, found.account.name) if found is not None else None

    async def created(request: CreateTable, seed: int | None = None,
                      address: str | None = None, http: Request | None = None,
                      authorization: str | None = None) -> TableCreated:
        """A new table, its host seated; ``seed`` only from a test server's hooks;
        ``address``: the creator's (its budget of tables); ``http``, ``authorization``: who
        is signed in (a ranked table's host must be)."""
        name = _display_name(request.name)
        token = new_token()
        account = await account_of(http, authorization)
        if request.ranked and account is not None:
            name = account[1]  # a ranked table's seats are under the accounts' names
        room, invite, seat = await hub.create(request.model_copy(update={"name": name}), token,
                                              seed, address, account)
        return TableCreated(table=room.id, seat=seat, name=name, token=token,
                            url=f"{config.url}/t/{room.id}", invite=invite,
                            invite_url=f"{config.url}/join/{invite}")

    @app.post("/api/tables", status_code=201, dependencies=[Writes])
    async def create_table(request: CreateTable, http: Request,
                           authorization: Auth = None) -> TableCreated:
        return await created(request, address=_address(http), http=http,
                             authorization=authorization)

    if hooks is not None:  # a test server (server/testing.py): never in ``pitch serve``
        if hub.hooks is not hooks:
            raise ValueError("create_app: hooks are given to the app and its hub together")
        app.include_router(hooks_router(hub.room, hooks, created))

    @app.get("/api/lobby")
    async def lobby() -> list[TableInfo]:
        ids = await hub.db(hub.store.lobby, 100)
        return [await hub.info(i) for i in ids]

    # Every request about a table runs on its room (server/ops.py): in this process, or in
    # the one that owns the table (--redis).
    async def invite_table(code: str) -> TableInfo:
        return await hub.info(await hub.find_invite(code))

    @app.get("/api/tables/{table_id}", dependencies=[Lookups])
    async def table_info(table_id: str) -> TableInfo:
        return await hub.info(table_id)

    @app.get("/api/invites/{code}", dependencies=[Lookups])
    async def invite_info(code: str) -> TableInfo:
        return await invite_table(code)

    @app.post("/api/invites/{code}/seats", status_code=201, dependencies=[Writes, Lookups])
    async def take_seat(code: str, request: TakeSeat, http: Request,
                        authorization: Auth = None) -> SeatTaken:
        return await seat_at(await hub.find_invite(code), request, listed_only=False,
                             account=await account_of(http, authorization))

    @app.post("/api/tables/{table_id}/seats", status_code=201,
              dependencies=[Writes, Lookups])
    async def take_listed_seat(table_id: str, request: TakeSeat, http: Request,
                               authorization: Auth = None) -> SeatTaken:
        return await seat_at(table_id, request, listed_only=True,
                             account=await account_of(http, authorization))

    async def seat_at(table_id: str, request: TakeSeat, listed_only: bool,
                      account: tuple[str, str] | None) -> SeatTaken:
        token = new_token()
        taken = await hub.on_owner(table_id, "take_seat", name=request.name, seat=request.seat,
                                   token_hash=hash_secret(token), listed_only=listed_only,
                                   account_id=account[0] if account else None,
                                   account_name=account[1] if account else None)
        return SeatTaken(table=table_id, seat=taken["seat"], name=taken["name"], token=token,
                         url=f"{config.url}/t/{table_id}")

    @app.post("/api/tables/{table_id}/start", dependencies=[Writes, Lookups])
    async def start(table_id: str, authorization: Auth = None) -> TableInfo:
        return TableInfo.model_validate(await hub.on_owner(
            table_id, "start", token_hash=bearer(authorization)))

    @app.post("/api/tables/{table_id}/leave", dependencies=[Writes, Lookups])
    async def leave(table_id: str, authorization: Auth = None) -> dict[str, Any]:
        left: dict[str, Any] = await hub.on_owner(table_id, "leave",
                                                  token_hash=bearer(authorization))
        return left

    @app.get("/api/tables/{table_id}/payments", dependencies=[Lookups])
    async def payments(table_id: str, authorization: Auth = None) -> PaymentsPreview:
        return PaymentsPreview.model_validate(await hub.on_owner(
            table_id, "payments", token_hash=bearer(authorization)))

    @app.post("/api/tables/{table_id}/settle", dependencies=[Writes, Lookups])
    async def settle(table_id: str, authorization: Auth = None) -> TableInfo:
        return TableInfo.model_validate(await hub.on_owner(
            table_id, "settle", token_hash=bearer(authorization)))

    @app.post("/api/tables/{table_id}/claim", dependencies=[Writes, Lookups])
    async def claim(table_id: str, authorization: Auth = None) -> TableInfo:
        """A ranked match: the side whose every opponent left claims the win."""
        return TableInfo.model_validate(await hub.on_owner(
            table_id, "claim", token_hash=bearer(authorization)))

    @app.post("/api/tables/{table_id}/rematch", dependencies=[Writes, Lookups])
    async def rematch(table_id: str, authorization: Auth = None) -> dict[str, str]:
        made = await hub.on_owner(table_id, "rematch", token_hash=bearer(authorization))
        return {"table": str(made["table"])}

    @app.get("/api/tables/{table_id}/record", response_class=PlainTextResponse,
             dependencies=[Reads])
    async def record(table_id: str, authorization: Auth = None) -> str:
        got = await hub.on_owner(table_id, "record", token_hash=bearer(authorization))
        return str(got["record"])

    @app.get("/api/tables/{table_id}/results", dependencies=[Reads])
    async def results(table_id: str, authorization: Auth = None) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = await hub.on_owner(table_id, "results",
                                                         token_hash=bearer(authorization))
        return found

    @app.get("/api/tables/{table_id}/hands", dependencies=[Reads])
    async def hands(table_id: str, authorization: Auth = None,
                    before: Annotated[int | None, Query(ge=1, le=10**9)] = None
                    ) -> dict[str, Any]:
        """At most ``HANDS_PAGE`` hands an answer, the newest below ``before`` (issue 31): to
        the table's players, and to anyone once the game is over (played cards only)."""
        got = await hub.on_owner(table_id, "hands_source", token_hash=bearer(authorization))
        return await asyncio.to_thread(finished_hands, got["record"], got["names"], before,
                                       played_only=got["stranger"])

    # ------------------------------------------------------------------ WebSocket
    @app.websocket("/ws/{table_id}")
    async def socket(ws: WebSocket, table_id: str) -> None:
        address = ws.client.host if ws.client else "unknown"
        origin = ws.headers.get("origin")
        if origin and not _origin_ok(origin, ws.headers.get("host"), config):
            hub.metrics.refusals.labels("bad_origin").inc()
            await _deny(ws, Refused("bad_origin", f"WebSockets from pages of {origin[:80]!r} "
                                                  "are not allowed here", 403))
            return
        if not await rates.may_look(address):  # its misses are spent: refused before any work
            hub.metrics.refusals.labels("rate_limited").inc()
            await _deny(ws, Refused("rate_limited", "too many lookups of tables that do not "
                                    "exist from your address: wait a minute", 429))
            return
        conn = Connection(ws, address, queue=config.send_queue, rate=config.message_rate,
                          burst=config.message_burst, chat_per_minute=config.chat_per_minute,
                          send_timeout=config.send_timeout, on_drop=hub.metrics.dropped.inc)
        room: Room | Mirror | None = None
        counted = False
        writer: asyncio.Task[None] | None = None
        lease: SocketLease | None = None
        try:
            lease = await sockets.open(address)  # (inside: whatever happens, it is given back)
            if lease is None:
                hub.metrics.refusals.labels("too_many_connections").inc()
                await _deny(ws, Refused("too_many_connections", "too many sockets from your "
                                        "address: close one first", 429))
                return
            await ws.accept()
            writer = conn.start_writer()
            hello = await _hello(ws, conn)
            if hello is None:
                return
            try:  # here, or through the process that owns the table (--redis)
                room = await hub.attach(conn, table_id, hello.token, hello.last_seq)
            except Refused as exc:
                if exc.reason == "not_found":
                    await rates.missed(address)
                conn.send_model(exc.to_message(None))
                conn.close(4000 + exc.status, exc.reason)
                room = None
                return
            hub.count(conn, +1)
            counted = True
            await _serve(ws, conn, room, hub)
        except WebSocketDisconnect:
            pass
        except _BinaryFrame:
            hub.metrics.refusals.labels("bad_message").inc()
            conn.send_model(ErrorMessage(reason="bad_message", message="binary frames are not "
                                         "part of the protocol: send JSON text"))
            conn.close(1003, "bad_message")
        finally:
            # its place is given back at once, and in Redis even if this handler is cancelled
            released = None if lease is None else asyncio.create_task(sockets.close(lease))
            if counted:
                hub.count(conn, -1)
            if room is not None:
                await room.detach(conn)
            conn.close()
            if writer is not None:  # (bounded: a stuck send is cut after send_timeout)
                await asyncio.wait([writer], timeout=config.send_timeout + 5)
            if released is not None:
                await released

    return app


async def _hello(ws: WebSocket, conn: Connection) -> Hello | None:
    """The first message must be a hello in our protocol, within ten seconds."""
    try:
        text = await asyncio.wait_for(_receive_text(ws), 10)
    except TimeoutError:
        conn.send_model(ErrorMessage(reason="hello_first", message="say hello first"))
        conn.close(1008, "hello_first")
        return None
    if text is None:
        return None
    try:
        msg = parse_client_message(_load_json(text))
    except Refused as exc:
        conn.send_model(exc.to_message(None))
        conn.close(1008, "bad_message")
        return None
    except (ValidationError, RecursionError) as exc:
        conn.send_model(ErrorMessage(reason="bad_message", message=_why(exc)))
        conn.close(1008, "bad_message")
        return None
    if not isinstance(msg, Hello):
        conn.send_model(ErrorMessage(reason="hello_first",
                                     message=f"the first message must be hello, not {msg.type}"))
        conn.close(1008, "hello_first")
        return None
    if msg.protocol != PROTOCOL:
        conn.send_model(ErrorMessage(reason="protocol", message=f"this server speaks protocol "
                                                                f"{PROTOCOL}, not {msg.protocol}"))
        conn.close(1008, "protocol")
        return None
    return msg


async def _serve(ws: WebSocket, conn: Connection, room: Room | Mirror, hub: Hub) -> None:
    """Read the client's messages until it goes; every refusal is an error message."""
    while not conn.closed:
        text = await _receive_text(ws)
        if text is None:
            return
        conn.last_seen = time.monotonic()
        if not conn.messages.take():
            conn.strikes += 1
            hub.metrics.refusals.labels("rate_limited").inc()
            if conn.strikes > 3 * hub.config.message_burst:
                conn.close(1008, "rate_limited")
                return
            conn.send_model(ErrorMessage(reason="rate_limited",
                                         message="too many messages: slow down"))
            continue
        conn.strikes = 0
        try:
            msg = _decode(text)
            if isinstance(msg, Act):
                await room.act(conn, msg)
            elif isinstance(msg, Chat):
                await room.chat(conn, msg.text)
            elif isinstance(msg, Ping):
                conn.send_model(Pong(id=msg.id))
            elif isinstance(msg, Hello):
                raise Refused("bad_message", "hello is only the first message")
        except Refused as exc:
            hub.metrics.refusals.labels(exc.reason).inc()
            conn.send_model(exc.to_message(room.seq))


def _load_json(text: str) -> Any:
    """A frame's JSON; ``bad_message`` if it is not JSON or nests too deeply for the parser
    (``"[" * 2000``: a RecursionError, caught here, so the socket lives on — issue 31, 8)."""
    try:
        return json.loads(text)
    except ValueError:
        raise Refused("bad_message", "not JSON: send one JSON object per message") from None
    except RecursionError:
        raise Refused("bad_message", "JSON nested too deeply: a message is a flat JSON "
                                     "object") from None


def _decode(text: str) -> Any:
    data = _load_json(text)
    if not isinstance(data, dict):
        raise Refused("bad_message", "a message is a JSON object with a 'type'")
    if data.get("type") not in CLIENT_TYPES:
        raise Refused("unknown_type", f"unknown message type {str(data.get('type'))[:40]!r}; "
                                      f"types are: {', '.join(CLIENT_TYPES)}")
    try:
        return parse_client_message(data)
    except (ValidationError, RecursionError) as exc:
        raise Refused("bad_message", _why(exc)) from None


class _BinaryFrame(Exception):
    """The client sent a binary frame: refused (``bad_message``), the socket closed 1003."""


async def _deny(ws: WebSocket, refusal: Refused) -> None:
    """Turn a WebSocket down before accepting it: an HTTP refusal (status, reason code and
    words as JSON) where the server can send one, else a bare close."""
    body = JSONResponse(Refusal(reason=refusal.reason, message=refusal.message).model_dump(),
                        status_code=refusal.status)
    try:
        await ws.send_denial_response(body)
    except RuntimeError:  # no denial-response extension: the handshake fails with a 403
        await ws.close(1008, refusal.reason)


async def _receive_text(ws: WebSocket) -> str | None:
    """The next text frame; None when the client went away.  A binary frame is refused."""
    while True:
        message = await ws.receive()
        if message["type"] == "websocket.disconnect":
            return None
        text = message.get("text")
        if text is not None:
            return str(text)
        raise _BinaryFrame


def _why(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        return f"{where or 'message'}: {first.get('msg', 'invalid')}"
    if isinstance(exc, RecursionError):
        return "JSON nested too deeply: a message is a flat JSON object"
    return "not JSON: send one JSON object per message"


def _display_name(name: str) -> str:
    try:
        return check_display_name(name)
    except ValueError as exc:
        raise Refused("bad_name", str(exc), 422) from None


def _address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def _origin_ok(origin: str, host: str | None, config: ServerConfig) -> bool:
    """A browser's WebSocket must come from this server's own pages (or an allowed site).

    Checked against what the server knows itself as, never against the request's Host header
    alone: a page of ``evil.example`` whose name an attacker points at this server (DNS
    rebinding) sends ``Host: evil.example:P`` and ``Origin: http://evil.example:P``, which
    agree (issue 31, finding 12).  Its own pages are ``config.url`` (``--public-url``, else
    ``http://host:port``) and ``--allow-origin``'s; without a public URL also the loopback
    names on the bound port, and a Host that is an IP address (no name to rebind) as its own
    Origin, so a server on 0.0.0.0 still serves a LAN's ``http://192.168.1.5:8000``."""
    origin = origin.rstrip("/")
    own = urlsplit(config.url)  # a public URL may have a path; an Origin never has
    if origin == f"{own.scheme}://{own.netloc}" or origin in {
            o.rstrip("/") for o in config.allowed_origins}:
        return True
    try:
        parts = urlsplit(origin)
        port = parts.port or {"http": 80, "https": 443}.get(parts.scheme)
    except ValueError:
        return False
    name = parts.hostname or ""
    if config.public_url is not None:  # behind a proxy: its origin alone
        return False
    if name in _LOOPBACK and parts.scheme == "http" and (port == config.port
                                                          or config.port == 0):
        return True
    return bool(host) and parts.netloc == host and _is_ip(name)


#: the names of this machine a local server's pages may be opened at
_LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1"})


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def _safe_url(url: str) -> str:
    """A database URL without its password, for logs."""
    parts = urlsplit(url)
    if parts.password:
        return url.replace(f":{parts.password}@", ":***@")
    return url
