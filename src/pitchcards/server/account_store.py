"""Where accounts are kept (issue 32): accounts, their sessions and API tokens, and their
ratings, in the server's own database (migration ``0003``), SQLite or PostgreSQL.

* ``accounts``: a random id, the display name and its lookalike-aware key
  (:func:`~.names.name_key`, unique: ``Аlpha`` cannot sit beside ``Alpha``), the password's
  Argon2id hash (``None`` for a bot's account, which cannot sign in) and, for a bot, its level;
* ``sessions``: a signed-in browser's session, by the **SHA-256 of its id** (256 random bits
  sent in the cookie only: a stolen database gives no way in), with its expiry;
* ``api_tokens``: a terminal's or bot's personal token, hashed the same way, with a public id
  (to list and revoke it), a label and when it was last used;
* ``ratings``, ``rated_matches``, ``rating_changes``: :mod:`.rating_store`.
* ``player_stats``: :mod:`.stat_store`.

Every function is synchronous: the server runs them on its database thread (``Hub.db``); being
in the database, a session made by one process is honoured by every other (``--redis``).
"""

from __future__ import annotations

import dataclasses
import hmac
import time
from typing import Any

from sqlalchemy import (
    Column,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    delete,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

__all__ = ["Account", "TokenInfo", "accounts", "add_token", "api_tokens", "create_account",
           "delete_account", "end_session", "end_sessions", "find_account", "get_account",
           "list_tokens", "metadata", "player_stats", "rated_matches", "rating_changes", "ratings",
           "revoke_token", "session_account", "sessions", "set_password", "start_session",
           "token_account"]

metadata = MetaData()

accounts = Table(
    "accounts", metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("name_key", String(128), nullable=False, unique=True),
    Column("password_hash", Text, nullable=True),     # Argon2id; None: a bot's account
    Column("bot_level", String(16), nullable=True, unique=True),
    Column("created", Float, nullable=False),
)

sessions = Table(
    "sessions", metadata,
    Column("id_hash", String(64), primary_key=True),  # SHA-256 of the cookie's session id
    Column("account_id", String(32), ForeignKey("accounts.id", ondelete="CASCADE"),
           nullable=False),
    Column("created", Float, nullable=False),
    Column("expires", Float, nullable=False),
)

api_tokens = Table(
    "api_tokens", metadata,
    Column("id", String(16), primary_key=True),       # public: to list and revoke it
    Column("account_id", String(32), ForeignKey("accounts.id", ondelete="CASCADE"),
           nullable=False),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("label", String(64), nullable=False),
    Column("created", Float, nullable=False),
    Column("last_used", Float, nullable=True),
)

ratings = Table(
    "ratings", metadata,
    Column("account_id", String(32), ForeignKey("accounts.id", ondelete="CASCADE"),
           primary_key=True),
    Column("pool", String(32), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("matches", Integer, nullable=False),
    Column("updated", Float, nullable=False),
)

#: a rated player's playing statistics per pool (play_stats.Stats's hand counts), added in
#: the transaction that rates each ranked match (server/stat_store.py); matches and wins are
#: the ratings' own (``ratings.matches``, first places in ``rating_changes``)
player_stats = Table(
    "player_stats", metadata,
    Column("account_id", String(32), ForeignKey("accounts.id", ondelete="CASCADE"),
           primary_key=True),
    Column("pool", String(32), primary_key=True),
    Column("hands", Integer, nullable=False),
    Column("points", Integer, nullable=False),
    Column("bids", Integer, nullable=False),
    Column("made", Integer, nullable=False),
    Column("moons", Integer, nullable=False),
)

rated_matches = Table(
    "rated_matches", metadata,
    Column("key", String(64), primary_key=True),      # the match's idempotency key
    Column("pool", String(32), nullable=False),
    Column("at", Float, nullable=False),
)

rating_changes = Table(
    "rating_changes", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("match_key", String(64), ForeignKey("rated_matches.key", ondelete="CASCADE"),
           nullable=False),
    Column("account_id", String(32), ForeignKey("accounts.id", ondelete="SET NULL"),
           nullable=True),                            # None: the account was deleted
    Column("side", Integer, nullable=False),
    Column("place", Integer, nullable=False),
    Column("mu_before", Float, nullable=False),
    Column("sigma_before", Float, nullable=False),
    Column("mu_after", Float, nullable=False),
    Column("sigma_after", Float, nullable=False),
)

# the indexes migration 0003 made (a session's, a token's, a rating's and a change's lookups)
Index("sessions_account", sessions.c.account_id)
Index("api_tokens_account", api_tokens.c.account_id)
Index("ratings_pool", ratings.c.pool, ratings.c.mu, ratings.c.account_id)
Index("rating_changes_account", rating_changes.c.account_id, rating_changes.c.id)
Index("rating_changes_match", rating_changes.c.match_key)


@dataclasses.dataclass(frozen=True, slots=True)
class Account:
    """One account as stored (``password_hash`` never leaves the server)."""

    id: str
    name: str
    password_hash: str | None
    bot_level: str | None
    created: float


@dataclasses.dataclass(frozen=True, slots=True)
class TokenInfo:
    """An API token as its owner sees it listed (never the token itself)."""

    id: str
    label: str
    created: float
    last_used: float | None


def _account(row: Any) -> Account:
    return Account(row.id, row.name, row.password_hash, row.bot_level, row.created)


def create_account(engine: Engine, account_id: str, name: str, key: str,
                   password_hash: str | None, bot_level: str | None = None) -> Account | None:
    """A new account; None (nothing stored) if its name's key is taken."""
    now = time.time()
    try:
        with engine.begin() as conn:
            conn.execute(insert(accounts).values(
                id=account_id, name=name, name_key=key, password_hash=password_hash,
                bot_level=bot_level, created=now))
    except IntegrityError:
        return None
    return Account(account_id, name, password_hash, bot_level, now)


def find_account(engine: Engine, key: str) -> Account | None:
    """The account whose name has ``key`` (:func:`~.names.name_key`)."""
    with engine.connect() as conn:
        row = conn.execute(select(accounts).where(accounts.c.name_key == key)).first()
    return None if row is None else _account(row)


def get_account(engine: Engine, account_id: str) -> Account | None:
    with engine.connect() as conn:
        row = conn.execute(select(accounts).where(accounts.c.id == account_id)).first()
    return None if row is None else _account(row)


def set_password(engine: Engine, account_id: str, password_hash: str) -> None:
    with engine.begin() as conn:
        conn.execute(update(accounts).where(accounts.c.id == account_id).values(
            password_hash=password_hash))


def replace_password(engine: Engine, account_id: str, password_hash: str) -> None:
    """A password changed by its owner: the new hash, and every session and API token of the
    account ended in the same transaction — whoever knew the old password, and any token they
    made with it, is out (the caller opens a new session for the owner)."""
    with engine.begin() as conn:
        conn.execute(update(accounts).where(accounts.c.id == account_id).values(
            password_hash=password_hash))
        conn.execute(delete(sessions).where(sessions.c.account_id == account_id))
        conn.execute(delete(api_tokens).where(api_tokens.c.account_id == account_id))


def delete_account(engine: Engine, account_id: str) -> None:
    """The account, its sessions, tokens and ratings go; its part in rated matches stays,
    without a name (``account_id`` set to NULL: others' histories keep their opponents)."""
    with engine.begin() as conn:
        conn.execute(delete(sessions).where(sessions.c.account_id == account_id))
        conn.execute(delete(api_tokens).where(api_tokens.c.account_id == account_id))
        conn.execute(delete(ratings).where(ratings.c.account_id == account_id))
        conn.execute(delete(player_stats).where(player_stats.c.account_id == account_id))
        conn.execute(update(rating_changes).where(
            rating_changes.c.account_id == account_id).values(account_id=None))
        conn.execute(delete(accounts).where(accounts.c.id == account_id))


# ---------------------------------------------------------------------- sessions
def start_session(engine: Engine, account_id: str, id_hash: str, lifetime: float,
                  replacing: str | None = None) -> None:
    """A new session for ``account_id``; the session the browser brought (``replacing``, the
    hash of its id), if any, ends in the same transaction — a session id is never carried
    across a sign-in (no fixation).  Expired sessions are swept on the way."""
    now = time.time()
    with engine.begin() as conn:
        if replacing is not None:
            conn.execute(delete(sessions).where(sessions.c.id_hash == replacing))
        conn.execute(delete(sessions).where(sessions.c.expires <= now))
        conn.execute(insert(sessions).values(id_hash=id_hash, account_id=account_id,
                                             created=now, expires=now + lifetime))


def session_account(engine: Engine, id_hash: str) -> Account | None:
    """The account of a live session (None: no such session, or it expired).  The row is found
    by the hash; the hashes are compared again in constant time before it is believed."""
    with engine.connect() as conn:
        row = conn.execute(select(sessions.c.id_hash, accounts).join(
            accounts, accounts.c.id == sessions.c.account_id).where(
            sessions.c.id_hash == id_hash, sessions.c.expires > time.time())).first()
    if row is None or not hmac.compare_digest(row.id_hash, id_hash):
        return None
    return _account(row)


def end_session(engine: Engine, id_hash: str) -> None:
    with engine.begin() as conn:
        conn.execute(delete(sessions).where(sessions.c.id_hash == id_hash))


def end_sessions(engine: Engine, account_id: str) -> int:
    """Sign out everywhere: every session of the account ends (its API tokens stay)."""
    with engine.begin() as conn:
        return conn.execute(delete(sessions).where(
            sessions.c.account_id == account_id)).rowcount


# ---------------------------------------------------------------------- API tokens
def add_token(engine: Engine, account_id: str, token_id: str, token_hash: str,
              label: str) -> TokenInfo:
    now = time.time()
    with engine.begin() as conn:
        conn.execute(insert(api_tokens).values(id=token_id, account_id=account_id,
                                               token_hash=token_hash, label=label,
                                               created=now, last_used=None))
    return TokenInfo(token_id, label, now, None)


def list_tokens(engine: Engine, account_id: str) -> list[TokenInfo]:
    with engine.connect() as conn:
        rows = conn.execute(select(api_tokens).where(
            api_tokens.c.account_id == account_id).order_by(api_tokens.c.created)).all()
    return [TokenInfo(r.id, r.label, r.created, r.last_used) for r in rows]


def revoke_token(engine: Engine, account_id: str, token_id: str) -> bool:
    """False if the account has no token of that id (another's token is not touched)."""
    with engine.begin() as conn:
        return conn.execute(delete(api_tokens).where(
            api_tokens.c.id == token_id, api_tokens.c.account_id == account_id)).rowcount == 1


def token_account(engine: Engine, token_hash: str) -> Account | None:
    """The account of an API token (its ``last_used`` noted), or None."""
    with engine.begin() as conn:
        row = conn.execute(select(api_tokens.c.token_hash, api_tokens.c.id.label("token_id"),
                                  accounts).join(
            accounts, accounts.c.id == api_tokens.c.account_id).where(
            api_tokens.c.token_hash == token_hash)).first()
        if row is None or not hmac.compare_digest(row.token_hash, token_hash):
            return None
        conn.execute(update(api_tokens).where(api_tokens.c.id == row.token_id).values(
            last_used=time.time()))
    return _account(row)
