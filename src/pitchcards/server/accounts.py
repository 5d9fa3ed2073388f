"""Optional accounts on ``pitch serve`` (issue 32, item 1): register a name, sign in and out,
API tokens for terminals and bots.  Guests play as before; nothing here touches a table, and a
guest's seat tokens keep working after they register.

Routes (docs/protocol.md, "Accounts"; docs/accounts.md says what is stored and why)::

    POST   /api/accounts           register (Credentials) -> Me, signed in      (201)
    POST   /api/session            sign in (Credentials) -> Me, a new session
    DELETE /api/session            sign out (this session)                       (204)
    GET    /api/me                 the signed-in account -> Me                   (session or token)
    DELETE /api/me/sessions        sign out everywhere                           (session)
    POST   /api/me/password        change the password (PasswordChange)          (session)
    DELETE /api/me                 delete the account (PasswordCheck)            (session)
    POST   /api/me/tokens          a new API token (NewToken) -> TokenCreated    (session, 201)
    GET    /api/me/tokens          the account's API tokens -> [TokenListed]     (session)
    DELETE /api/me/tokens/{id}     revoke one                                    (session, 204)

A browser is signed in by a session cookie (HttpOnly, SameSite=Lax, Secure when the public
URL is https) naming a server-side session; a terminal or bot sends ``Authorization: Bearer
<API token>``.  Managing the account (tokens, password, deletion, sign out everywhere) needs a
session: a token that leaks can be revoked from the browser, but cannot lock its owner out.

Cross-site requests: every write here must not come from a browser's page of another site —
the same Origin check as the WebSocket's (``app._origin_ok``: ``--public-url``,
``--allow-origin``, the loopback names), made before the body is read.  That covers the writes a
cookie authenticates and the sign-in and registration a browser sends (no login CSRF); a
terminal sends no Origin and is no browser.  docs/accounts.md says why this and not a CSRF token.
"""

from __future__ import annotations

import asyncio
import dataclasses
import re
import secrets
from collections.abc import Callable
from typing import Annotated

from fastapi import APIRouter, Depends, Header, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from . import account_store as db
from .config import ServerConfig
from .hub import Hub
from .names import name_key
from .passwords import check_password, hash_password, needs_rehash, verify
from .protocol import check_display_name
from .rating_store import BOT_ACCOUNT_NAMES
from .room import Refused
from .shared_limits import SignInGate
from .store import hash_secret

__all__ = ["API_TOKEN_PREFIX", "BOT_NAMES", "MAX_TOKENS", "SESSION_COOKIE", "Caller",
           "Credentials", "Me", "NewToken", "PasswordChange", "PasswordCheck", "TokenCreated",
           "TokenListed",
           "accounts_router", "find_caller", "session_cookie"]

#: The session cookie's name (the ``__Host-`` prefix when served over https: the browser then
#: insists on Secure, Path=/ and no Domain, so a sibling subdomain cannot plant one).
SESSION_COOKIE = "pitch_session"
#: The bots' accounts, one per level (issue 32: a ladder from day one); no person may take these
#: names, even before the bot's account exists.
BOT_NAMES = BOT_ACCOUNT_NAMES
_BOT_KEYS = frozenset(name_key(n) for n in BOT_NAMES.values())
#: How an API token begins (a seat token never does: the table routes tell them apart)
API_TOKEN_PREFIX = "pat_"
#: API tokens one account may hold
MAX_TOKENS = 20
#: Argon2id hashes at once (each takes 64 MiB for some tens of milliseconds)
_HASHING_AT_ONCE = 2
#: The one answer to a failed sign-in, whatever failed (no such name, wrong password, a bot)
_BAD_SIGN_IN = "that name and password do not match an account"

#: An API token's public id (16 hex digits)
_TOKEN_ID = re.compile(r"[0-9a-f]{16}")

#: An account route's bearer token (module level: FastAPI resolves the routes' annotations in
#: this module's namespace).
Auth = Annotated[str | None, Header(description="Bearer <API token>")]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Credentials(_Body):
    """A name and password: to register, or to sign in."""

    name: str = Field(min_length=1, max_length=64, description="the display name")
    password: str = Field(max_length=1024, description="8 to 256 characters")


class PasswordChange(_Body):
    current: str = Field(max_length=1024)
    new: str = Field(max_length=1024, description="8 to 256 characters")


class PasswordCheck(_Body):
    password: str = Field(max_length=1024)


class NewToken(_Body):
    label: str = Field("token", min_length=1, max_length=64,
                       description="what the token is for (a display name's characters)")


class Me(_Body):
    """The signed-in account."""

    name: str
    created: float
    via: str = Field(description="how this request was signed in: session or token")


class TokenListed(_Body):
    id: str
    label: str
    created: float
    last_used: float | None


class TokenCreated(TokenListed):
    token: str = Field(description="the token itself: shown this once, stored only hashed")


@dataclasses.dataclass(frozen=True, slots=True)
class Caller:
    """Who a request is: the account, and the session's hash (None: an API token)."""

    account: db.Account
    session: str | None


def session_cookie(config: ServerConfig) -> str:
    """The session cookie's name (``__Host-`` prefixed over https)."""
    return f"__Host-{SESSION_COOKIE}" if config.url.startswith("https://") else SESSION_COOKIE


async def find_caller(hub: Hub, config: ServerConfig, request: Request,
                      authorization: str | None) -> Caller | None:
    """Who a request is signed in as: an API token (``Authorization: Bearer pat_…``; one
    that is not valid is refused, ``signed_out``), else the session cookie's account, else
    None.  The account routes and the table routes (a ranked table's seats) ask alike."""
    engine = hub.store.engine
    if authorization and authorization.lower().startswith("bearer "):
        token = authorization[7:].strip()
        found = await hub.db(db.token_account, engine, hash_secret(token)) if token else None
        if found is None:
            raise Refused("signed_out", "that API token is not valid (revoked, or never "
                                        "was): make a new one on your profile", 401)
        return Caller(found, None)
    session_id = request.cookies.get(session_cookie(config))
    if not session_id:
        return None
    session = hash_secret(session_id)
    account = await hub.db(db.session_account, engine, session)
    return None if account is None else Caller(account, session)


def from_a_browser_elsewhere(request: Request,
                             same_origin: Callable[[str, str | None], bool]) -> bool:
    """A request a browser sent from a page that is not this server's: its Origin is another
    site's (``same_origin(origin, host)`` says not), or (no Origin) its fetch metadata says it
    came from elsewhere — a sibling subdomain's page is same-*site*, so SameSite=Lax still
    sends the cookie.  A request with neither is no browser's (a terminal, a script) and
    carries no cookie of a victim.  The account routes refuse such writes; the table routes
    do not take the session cookie's account from them (app.py ``account_of``)."""
    origin = request.headers.get("origin")
    if origin is not None:
        return not same_origin(origin, request.headers.get("host"))
    site = request.headers.get("sec-fetch-site")
    return site is not None and site not in ("same-origin", "none")


def accounts_router(hub: Hub, config: ServerConfig, limits: SignInGate,
                    same_origin: Callable[[str, str | None], bool],
                    address: Callable[[Request], str]) -> APIRouter:
    """The account routes.  ``same_origin(origin, host)``: whether a browser's request comes
    from this server's own pages; ``address``: a request's client address."""
    engine = hub.store.engine
    hashing = asyncio.Semaphore(_HASHING_AT_ONCE)
    secure = config.url.startswith("https://")
    cookie_name = session_cookie(config)

    async def argon2(fn: Callable[..., object], *args: object) -> object:
        async with hashing:
            return await asyncio.to_thread(fn, *args)

    def refuse_cross_site(request: Request) -> None:
        """Every write here (a dependency of the router, so it is checked before the body is
        read): not from a browser's page of another site."""
        if request.method in ("GET", "HEAD", "OPTIONS"):
            return
        if from_a_browser_elsewhere(request, same_origin):
            hub.metrics.refusals.labels("bad_origin").inc()
            raise Refused("bad_origin", "requests that change an account come from this "
                                        "server's own pages", 403)

    router = APIRouter(dependencies=[Depends(refuse_cross_site)])

    async def caller(request: Request, authorization: str | None) -> Caller | None:
        return await find_caller(hub, config, request, authorization)

    async def signed_in(request: Request, authorization: str | None,
                        session_only: bool = False) -> Caller:
        found = await caller(request, authorization)
        if found is None:
            raise Refused("signed_out", "sign in first", 401)
        if session_only and found.session is None:
            raise Refused("signed_out", "an API token cannot manage its account: sign in "
                                        "with your password", 403)
        return found

    async def throttle(request: Request, key: str | None) -> None:
        if not await limits.attempt(address(request), key):
            hub.metrics.refusals.labels("rate_limited").inc()
            raise Refused("rate_limited", "too many sign-in attempts: wait a few minutes", 429)

    async def open_session(response: Response, account: db.Account,
                           request: Request) -> None:
        """A fresh session id (never the one the browser brought: that one ends)."""
        session_id = secrets.token_urlsafe(32)
        brought = request.cookies.get(cookie_name)
        await hub.db(db.start_session, engine, account.id, hash_secret(session_id),
                     config.session_lifetime, hash_secret(brought) if brought else None)
        response.set_cookie(cookie_name, session_id, max_age=int(config.session_lifetime),
                            path="/", secure=secure, httponly=True, samesite="lax")

    def me(found: Caller) -> Me:
        return Me(name=found.account.name, created=found.account.created,
                  via="token" if found.session is None else "session")

    def new_password(password: str) -> str:
        try:
            return check_password(password)
        except ValueError as exc:
            raise Refused("bad_password", str(exc), 422) from None

    # ------------------------------------------------------------------ register, sign in
    @router.post("/api/accounts", status_code=201, tags=["accounts"])
    async def register(body: Credentials, request: Request, response: Response) -> Me:
        try:
            name = check_display_name(body.name)
        except ValueError as exc:
            raise Refused("bad_name", str(exc), 422) from None
        password = new_password(body.password)
        key = name_key(name)
        if key in _BOT_KEYS:
            raise Refused("name_registered", f"{name!r} is a bot's name: choose another", 409)
        await throttle(request, None)
        hashed = str(await argon2(hash_password, password))
        account = await hub.db(db.create_account, engine, secrets.token_hex(16), name, key,
                               hashed)
        if account is None:
            raise Refused("name_registered", f"{name!r} is taken (or looks like a name that is): "
                                        "choose another", 409)
        await open_session(response, account, request)
        return me(Caller(account, ""))

    @router.post("/api/session", tags=["accounts"])
    async def sign_in(body: Credentials, request: Request, response: Response) -> Me:
        key = name_key(" ".join(body.name.split()))
        await throttle(request, key)
        # a name no account can have (not a display name) is not looked up, but costs the same
        account = await hub.db(db.find_account, engine, key) if _may_be_a_name(body.name) \
            else None
        stored = account.password_hash if account is not None else None
        # the same work and the same answer for a name with no account (a dummy hash)
        if not bool(await argon2(verify, stored, body.password)) or account is None \
                or stored is None:
            raise Refused("bad_sign_in", _BAD_SIGN_IN, 401)
        if needs_rehash(stored):
            await hub.db(db.set_password, engine, account.id,
                         str(await argon2(hash_password, body.password)))
        await open_session(response, account, request)
        return me(Caller(account, ""))

    @router.delete("/api/session", status_code=204, tags=["accounts"])
    async def sign_out(request: Request) -> Response:
        done = Response(status_code=204)
        session_id = request.cookies.get(cookie_name)
        if session_id:
            await hub.db(db.end_session, engine, hash_secret(session_id))
        done.delete_cookie(cookie_name, path="/", secure=secure, httponly=True,
                           samesite="lax")
        return done

    # ------------------------------------------------------------------ the account
    @router.get("/api/me", tags=["accounts"])
    async def whoami(request: Request, authorization: Auth = None) -> Me:
        return me(await signed_in(request, authorization))

    @router.delete("/api/me/sessions", tags=["accounts"])
    async def sign_out_everywhere(request: Request,
                                  authorization: Auth = None) -> dict[str, int]:
        found = await signed_in(request, authorization, session_only=True)
        ended = await hub.db(db.end_sessions, engine, found.account.id)
        return {"ended": ended}

    async def password_matches(found: Caller, password: str) -> None:
        if not bool(await argon2(verify, found.account.password_hash, password)):
            raise Refused("bad_sign_in", "that is not your password", 401)

    @router.post("/api/me/password", tags=["accounts"])
    async def change_password(body: PasswordChange, request: Request, response: Response,
                              authorization: Auth = None) -> Me:
        found = await signed_in(request, authorization, session_only=True)
        await throttle(request, name_key(found.account.name))
        await password_matches(found, body.current)
        hashed = str(await argon2(hash_password, new_password(body.new)))
        # every other browser and every API token too (they may be a thief's)
        await hub.db(db.replace_password, engine, found.account.id, hashed)
        await open_session(response, found.account, request)
        return me(found)

    @router.delete("/api/me", status_code=204, tags=["accounts"])
    async def delete_me(body: PasswordCheck, request: Request,
                        authorization: Auth = None) -> Response:
        found = await signed_in(request, authorization, session_only=True)
        await throttle(request, name_key(found.account.name))
        await password_matches(found, body.password)
        await hub.db(db.delete_account, engine, found.account.id)
        done = Response(status_code=204)
        done.delete_cookie(cookie_name, path="/", secure=secure, httponly=True,
                           samesite="lax")
        return done

    # ------------------------------------------------------------------ API tokens
    @router.post("/api/me/tokens", status_code=201, tags=["accounts"])
    async def new_token(body: NewToken, request: Request,
                        authorization: Auth = None) -> TokenCreated:
        found = await signed_in(request, authorization, session_only=True)
        try:
            label = check_display_name(body.label)
        except ValueError as exc:
            raise Refused("bad_name", f"a token's label: {exc}", 422) from None
        if len(await hub.db(db.list_tokens, engine, found.account.id)) >= MAX_TOKENS:
            raise Refused("too_many_tokens", f"an account has at most {MAX_TOKENS} API tokens: "
                                             "revoke one first", 409)
        token = API_TOKEN_PREFIX + secrets.token_urlsafe(32)
        info = await hub.db(db.add_token, engine, found.account.id, secrets.token_hex(8),
                            hash_secret(token), label)
        return TokenCreated(id=info.id, label=info.label, created=info.created,
                            last_used=None, token=token)

    @router.get("/api/me/tokens", tags=["accounts"])
    async def tokens(request: Request, authorization: Auth = None) -> list[TokenListed]:
        found = await signed_in(request, authorization, session_only=True)
        return [TokenListed(id=t.id, label=t.label, created=t.created, last_used=t.last_used)
                for t in await hub.db(db.list_tokens, engine, found.account.id)]

    @router.delete("/api/me/tokens/{token_id}", status_code=204, tags=["accounts"])
    async def revoke(token_id: str, request: Request, authorization: Auth = None) -> Response:
        found = await signed_in(request, authorization, session_only=True)
        if not _TOKEN_ID.fullmatch(token_id) or not await hub.db(
                db.revoke_token, engine, found.account.id, token_id):
            raise Refused("not_found", "you have no API token of that id", 404)
        return Response(status_code=204)

    return router


def _may_be_a_name(name: str) -> bool:
    """Whether ``name`` passes the display-name rules (only such names have accounts)."""
    try:
        check_display_name(name)
    except ValueError:
        return False
    return True
