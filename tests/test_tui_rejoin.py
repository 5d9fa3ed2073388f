"""``pitch play --join`` after the terminal was closed takes the same seat again: the seat
token is kept in the data folder (readable by you alone), keyed by server and invite."""

from __future__ import annotations

import asyncio
import stat

import pytest

from pitchcards.client import Client
from pitchcards.tui import tokens
from pitchcards.tui.remote import join_table
from server_helpers import FAST, QUICK_LIMITS, running_server

pytestmark = pytest.mark.timeout(120)


async def _rejoin(url: str) -> None:
    async with Client(url) as api:
        host = await api.create_table("Ann", variant="auction", settings=FAST)
        invite = host.invite_url or ""
        bob, _ = await join_table(invite, url, "Bob")
        again, _ = await join_table(invite, url)          # no name: the seat kept for you
        assert (again.token, again.seat, again.name) == (bob.token, bob.seat, "Bob")
        other, _ = await join_table(invite, url, "Cleo")  # another name: another seat
        assert other.token != bob.token and other.seat not in (0, bob.seat)
        await api.start(host)
        async with await api.connect(again) as table:      # the token still acts for Bob
            await table.wait_for(lambda: table.view is not None, 30)
            assert table.you["name"] == "Bob"
        latest, _ = await join_table(invite, url)  # the last seat taken with this invite
        assert latest.name == "Cleo"


def test_join_again_takes_your_seat_back(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "home"))
    with running_server(tmp_path, "sqlite", extra=QUICK_LIMITS) as server:
        asyncio.run(_rejoin(server.url))
    mode = stat.S_IMODE(tokens.seats_file().stat().st_mode)
    assert mode & 0o077 == 0, oct(mode)  # the tokens are yours alone


def test_a_seat_the_server_does_not_know_is_not_reused(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "home"))

    async def run(url: str) -> None:
        async with Client(url) as api:
            host = await api.create_table("Ann", variant="auction", settings=FAST)
            first, _ = await join_table(host.invite or "", url, "Bob")
            tokens.remember(url, host.invite or "", first.__class__(
                url, first.table, "not-a-token", "Zed", 3))
            seat, _ = await join_table(host.invite or "", url)
            assert seat.name == "Guest" and seat.token != "not-a-token"

    with running_server(tmp_path, "sqlite", extra=QUICK_LIMITS) as server:
        asyncio.run(run(server.url))
