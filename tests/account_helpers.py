"""In-process servers for the account and rating tests: the app under FastAPI's TestClient, on
a real SQLite file of the test's own or a PostgreSQL database made for the test (and dropped
after: :func:`server_helpers.postgres_database`)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from pitchcards.server import ServerConfig, create_app
from pitchcards.server.testing import TestHooks
from server_helpers import postgres_database

#: What a page of the server itself sends (ServerConfig's default URL)
OWN = {"Origin": "http://127.0.0.1:8000"}
EVIL = {"Origin": "http://evil.example"}


@contextlib.contextmanager
def database(kind: str, tmp_path: Path) -> Iterator[str]:
    """A fresh database: ``sqlite`` (a file) or ``postgres``."""
    if kind == "postgres":
        with postgres_database() as url:
            yield url
    else:
        yield f"sqlite:///{tmp_path / 'server.db'}"


def still(limits: Any) -> None:
    """Rate limits on a clock that does not move: nothing comes back while the test runs."""
    limits.clock = lambda: 0.0


@contextlib.contextmanager
def app_client(db_url: str, address: str = "10.0.0.1", hooks: TestHooks | None = None,
               **config: Any) -> Iterator[TestClient]:
    """The app on ``db_url`` (its own process, as far as the database can tell), a client from
    ``address``; ``hooks``: a test server's ``/_test`` routes (server/testing.py)."""
    app = create_app(ServerConfig(db_url=db_url, **config), hooks=hooks)
    with TestClient(app, client=(address, 50000)) as client:
        still(app.state.limits)
        still(app.state.sign_ins)
        yield client


def other(client: TestClient, address: str) -> TestClient:
    """A client of the same running app from another address, with a cookie jar of its own."""
    second = TestClient(client.app, client=(address, 50001))
    second.portal = client.portal  # the app's own event loop (the lifespan runs there)
    return second


def register(client: TestClient, name: str, password: str = "correct horse") -> Any:
    reply = client.post("/api/accounts", json={"name": name, "password": password},
                        headers=OWN)
    assert reply.status_code == 201, reply.text
    return reply


def sign_in(client: TestClient, name: str, password: str = "correct horse") -> Any:
    return client.post("/api/session", json={"name": name, "password": password}, headers=OWN)


def account_token(url: str, name: str) -> str:
    """Register ``name`` on the server at ``url`` and make an API token (the profile page's
    two steps), as a terminal's owner does once."""
    import httpx

    with httpx.Client(base_url=url) as http:
        made = http.post("/api/accounts", json={"name": name, "password": "correct horse"},
                         headers={"Origin": url})
        assert made.status_code == 201, made.text
        token = http.post("/api/me/tokens", json={"label": "terminal"}, headers={"Origin": url})
        assert token.status_code == 201, token.text
        return str(token.json()["token"])
