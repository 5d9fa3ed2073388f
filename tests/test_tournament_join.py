"""``pitch play --join <tournament link>`` (issue 34): the terminal enters a tournament and
sits at the table ``/me`` names, round after round, until the standings.

One in-process server; the table screen is replaced by a scripted player (random legal
actions over the real WebSocket, with the seat the command gives it), so the test checks the
command's part: the link, the entry, the secret kept for a second ``--join``, and the right
table each round.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx
import pytest

from pitchcards.cli import main
from pitchcards.client import ServerError, TableConnection
from pitchcards.tui.tournament_join import enter, invite_of, tournament_of
from server_helpers import FAST, app_fixture, play_randomly
from test_server_tournaments import (  # _fresh_address: every test's address starts clean
    HANG_S,
    _fresh_address,  # noqa: F401
    auth,
    create,
    register,
)

server = app_fixture()


def test_a_tournament_link_is_told_from_an_invite() -> None:
    assert tournament_of("http://h:8000/tournaments/AbC-_12") == "AbC-_12"
    assert tournament_of("https://h/api/tournaments/x1/") == "x1"
    for other in ("http://h:8000/i/AbC", "AbC", "/tournaments/x1",
                  "http://h/tournaments/x1/standings", "http://h/tournaments/" + "x" * 33):
        assert tournament_of(other) is None, other


def test_pitch_play_join_sits_at_the_right_table_each_round(
        server: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    url = server.url
    made = create(url, rounds=2, boards_per_round=1, settings={**FAST, "grace": 3600})
    tid, director = made["tournament"], made["director_token"]
    for pair in (("Cy", "Di"), ("Ed", "Flo"), ("Gus", "Hal")):
        register(url, tid, *pair)
    seated: list[tuple[str, int | None, dict[str, Any]]] = []

    def scripted_screen(game: Any, pace: str | None = None) -> int:
        """The table screen's stand-in: plays the seat it was given to the table's end."""
        seat = game.seat
        me = httpx.get(f"{url}/api/tournaments/{tid}/me", headers=auth(seat.token),
                       timeout=30).json()
        seated.append((seat.table, seat.seat, me))

        async def play() -> None:
            async with TableConnection(url, seat.table, seat.token) as table:
                await table.open()
                await play_randomly(table, random.Random(len(seated)), timeout=HANG_S)
                await table.wait_for(lambda: table.info.get("status") == "over", HANG_S)

        asyncio.run(play())
        return 0

    monkeypatch.setattr("pitchcards.tui.online.run_online", scripted_screen)
    link = f"{url}/tournaments/{tid}"
    director_done = False

    def start_when_registered(text: str) -> None:
        """The director starts once Ann's entry is in, and sends bots for everyone else."""
        nonlocal director_done
        print(text)
        if "waiting for the tournament to start" in text and not director_done:
            director_done = True
            for name in ("Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"):
                httpx.post(f"{url}/api/tournaments/{tid}/noshow", json={"name": name},
                           headers=auth(director), timeout=30).raise_for_status()
            httpx.post(f"{url}/api/tournaments/{tid}/start", headers=auth(director),
                       timeout=30).raise_for_status()

    monkeypatch.setattr("pitchcards.tui.tournament_join.POLL_S", 0.05)
    from pitchcards.tui import tournament_join as tournament_client

    real = tournament_client.play_tournament

    def with_director(link: str, names: Any, sit: Any, say: Any, **kw: Any) -> int:
        return real(link, names, sit, start_when_registered, poll=0.05, **kw)

    monkeypatch.setattr(tournament_client, "play_tournament", with_director)
    assert main(["play", "--join", link, "--name", "Ann", "--partner", "Bob"]) == 0
    # one table a round, the one /me named, at Ann's seat there
    assert [me["round"] for _, _, me in seated] == [0, 1]
    assert all(table == me["table_id"] and seat == me["seat"] and me["name"] == "Ann"
               for table, seat, me in seated)
    out = capsys.readouterr().out
    assert "The tournament is over. Standings:" in out and "Ann & Bob" in out
    # Bob's secret was said (to give him: review, terminal bugs) and opens Bob's seats
    [said] = [line for line in out.splitlines() if line.startswith("Bob's player secret")]
    bob = httpx.get(f"{url}/api/tournaments/{tid}/me", headers=auth(said.rsplit(" ", 1)[1]),
                    timeout=30)
    assert bob.status_code == 200 and bob.json()["name"] == "Bob", bob.text
    # and kept under Bob's name: --join with --name Bob comes back as Bob, not registering
    assert main(["play", "--join", link, "--name", "Bob"]) == 0
    assert "Bob is in tournament" in capsys.readouterr().out and len(seated) == 2
    # a second --join with the same name comes back with the kept secret (registering again
    # would be refused: the tournament is over) and says the standings
    assert main(["play", "--join", link, "--name", "Ann"]) == 0
    assert "Ann & Bob" in capsys.readouterr().out and len(seated) == 2


def test_a_bad_tournament_link_or_no_name_is_refused(
        server: Any, capsys: pytest.CaptureFixture[str]) -> None:
    link = f"{server.url}/tournaments/nosuchtournament"
    assert main(["play", "--join", link]) == 2
    assert "--name" in capsys.readouterr().err
    assert main(["play", "--join", link, "--name", "Ann"]) == 2
    assert "not_found" in capsys.readouterr().err


def test_pitch_play_join_enters_a_tournament_by_invite(
        server: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    url = server.url
    made = create(url, entry="invite")
    tid, code = made["tournament"], made["invite"]
    assert code and invite_of(f"{url}/tournaments/{tid}?invite={code}") == code
    assert invite_of(f"{url}/tournaments/{tid}") is None
    with pytest.raises(ServerError) as refused:  # no code: the server refuses the entry
        asyncio.run(enter(url, tid, ["Ann", "Bob"]))
    assert refused.value.reason == "bad_token"
    entry = asyncio.run(enter(url, tid, ["Ann", "Bob"], code))
    assert entry.name == "Ann" and [n for n, _ in entry.partners] == ["Bob"]
    # the command line passes --invite, or the link's ?invite=, to the entry
    given: list[str | None] = []

    async def entered(server_: str, tournament: str, names: Any,
                      invite: str | None = None) -> Any:
        given.append(invite)
        raise ServerError("stop", "enough", 0)

    monkeypatch.setattr("pitchcards.tui.tournament_join.enter", entered)
    link = f"{url}/tournaments/{tid}"
    assert main(["play", "--join", link, "--name", "Cy", "--invite", code]) == 2
    assert main(["play", "--join", f"{link}?invite={code}", "--name", "Cy"]) == 2
    assert given == [code, code]
