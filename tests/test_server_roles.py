"""Who may do what at a table (issue 31, finding 5; the roles table in docs/protocol.md), one
test per cell, over real sockets against a real test server.

One money table is brought to the state where every role exists at once: Ann (the host) and
Bob are seated, Cy has left (departed: paid, his token still his), Dee's join waits for the next
break (pending), a spectator watches with no token, and a stranger holds another table's token.
A hand is in play and nobody acts, so the table stands still: the deal is chosen (the test
server's seed) and the moves are the test's own (no bot at the table, no turn timer, a grace
longer than the test).

Each cell asks the server once.  A refusal names its reason and changes nothing; what a role
may do is answered (``leave`` and ``settle`` in a hand wait for the break, which never comes
here, so the table still stands still after them: they run last)."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from pitchcards.client import Client, Seat, TableConnection
from server_helpers import (
    FAST,
    QUICK_LIMITS,
    RawReply,
    hello,
    hooked_table,
    raw_socket,
    running_app,
    settled_info,
)

pytestmark = pytest.mark.timeout(180)

#: No seat goes to a stand-in while the cells run: the grace outlasts the test.
HELD = {**FAST, "grace": 3600}

ROLES = ("host", "seated", "departed", "pending", "spectator", "stranger")
ACTIONS = ("start", "act", "chat", "rematch", "record", "results", "leave", "settle")

#: The answer of each cell in that state: "ok", or the refusal's reason code.  ``act`` by a
#: seated player reaches the engine (``engine``: a refusal of the game's own, here for a card
#: played during the auction), ``start`` and ``rematch`` by the host are refused by the table's
#: state (``started``: a match starts once; a rematch follows a finished game).
EXPECTED: dict[str, dict[str, str]] = {
    "host": {"start": "started", "act": "engine", "chat": "ok", "rematch": "started",
             "record": "ok", "results": "ok", "leave": "ok", "settle": "ok"},
    "seated": {"start": "not_host", "act": "engine", "chat": "ok", "rematch": "not_host",
               "record": "ok", "results": "ok", "leave": "ok", "settle": "ok"},
    "departed": {"start": "not_host", "act": "not_seated", "chat": "not_seated",
                 "rematch": "not_host", "record": "ok", "results": "ok",
                 "leave": "not_seated", "settle": "not_seated"},
    "pending": {"start": "not_host", "act": "not_seated", "chat": "not_seated",
                "rematch": "not_host", "record": "ok", "results": "ok",
                "leave": "not_seated", "settle": "not_seated"},
    "spectator": {"start": "bad_token", "act": "spectator", "chat": "spectator",
                  "rematch": "bad_token", "record": "bad_token", "results": "ok",
                  "leave": "bad_token", "settle": "bad_token"},
    "stranger": {"start": "bad_token", "act": "bad_token", "chat": "bad_token",
                 "rematch": "bad_token", "record": "bad_token", "results": "ok",
                 "leave": "bad_token", "settle": "bad_token"},
}


class Scene:
    """The table with every role, and the server it is on."""

    def __init__(self, url: str, seats: dict[str, Seat | None], table: str) -> None:
        self.url = url
        self.seats = seats
        self.table = table


async def _play_out_hand_one(seats: list[Seat], conns: list[TableConnection],
                             rng: random.Random) -> None:
    """Ann, Bob and Cy play random legal moves until the first hand is scored.

    A change's events may come in more than one frame (the last card's ``action_taken``, then
    the trick and the score), so each step waits for a state that says what comes next: the
    hand scored, or a seat to act whose own connection has caught up with the watcher."""
    watcher = conns[0]

    def scored() -> bool:
        return any(e.type == "hand_scored" for e in watcher.events)

    def someone_to_act() -> bool:
        return watcher.view is not None and watcher.view.seat_to_act is not None

    while True:
        await watcher.wait_for(lambda: scored() or someone_to_act(), 30)
        if scored():
            return
        assert watcher.view is not None
        to_act, seq = watcher.view.seat_to_act, watcher.seq
        mover = conns[[s.seat for s in seats].index(to_act)]
        await mover.wait_for(lambda m=mover, n=seq, t=to_act: m.seq >= n and m.view is not None
                             and m.view.seat_to_act == t, 30)
        assert mover.view is not None
        await mover.act(str(rng.choice(mover.view.legal_actions)))
        await watcher.wait_for(lambda n=seq: watcher.seq > n, 30)


async def _make_scene(url: str) -> Scene:
    async with Client(url) as api:
        ann = await hooked_table(api, "Ann", seed=3105, variant="money", players=3,
                                 settings=HELD)
        bob = await api.take_seat(ann.invite or "", "Bob")
        cy = await api.take_seat(ann.invite or "", "Cy")
        await api.start(ann)
        conns = [await api.connect(seat) for seat in (ann, bob, cy)]
        try:
            for conn in conns:
                await conn.wait_for(lambda c=conn: c.view is not None
                                    and c.view.seat_to_act is not None, 30)
            left = await api.leave(cy)  # in the hand: he goes at its end
            assert left["pending"] is True
            await _play_out_hand_one([ann, bob, cy], conns, random.Random(3105))
            await conns[0].wait_for(lambda: any(e.type == "player_left"
                                                for e in conns[0].events), 30)
            await conns[0].wait_for(lambda: conns[0].view is not None
                                    and conns[0].view.seat_to_act is not None, 30)
        finally:
            for conn in conns:
                await conn.close()
        dee = await api.take_seat(ann.invite or "", "Dee")  # a hand in play: at the break
        assert dee.seat is None
        info = await api.table(ann.table)
        assert info["pending"] == ["join Dee"], info
        assert [s["name"] for s in info["seats"]] == ["Ann", "Bob"], info
        other = await hooked_table(api, "Zed", seed=1, settings=FAST)
        return Scene(url, {"host": ann, "seated": bob, "departed": cy, "pending": dee,
                           "spectator": None, "stranger": other}, ann.table)


@pytest.fixture(scope="module")
def scene(tmp_path_factory: Any) -> Iterator[Scene]:
    with running_app(tmp_path_factory.mktemp("roles"), extra=(*QUICK_LIMITS, "--hold-bots"),
                        hooked=True) as server:
        yield asyncio.run(_make_scene(server.url))


async def _http(scene: Scene, role: str, action: str) -> tuple[str, dict[str, Any]]:
    seat = scene.seats[role]
    method = "GET" if action in ("record", "results") else "POST"
    headers = {"Authorization": f"Bearer {seat.token}"} if seat is not None else {}
    async with Client(scene.url) as api:
        reply = await api.http.request(method, f"/api/tables/{scene.table}/{action}",
                                       headers=headers)
    if reply.status_code == 200:
        return "ok", {}
    body = reply.json()
    return str(body["reason"]), body


async def _socket(scene: Scene, role: str, action: str) -> tuple[str, dict[str, Any]]:
    seat = scene.seats[role]
    async with Client(scene.url) as api:
        info = await api.table(scene.table)
    text = f"hello from the {role}"  # earlier chat comes with the welcome: this one is ours

    def said(reply: RawReply) -> bool:
        return any(m["text"] == text for m in reply.of_type("chat"))

    frame = ({"type": "chat", "text": text} if action == "chat" else
             {"type": "act", "action": "play AS", "seq": info["seq"]})
    reply = await raw_socket(scene.url, scene.table, [json.dumps(frame)],
                             hello=hello(seat.token if seat else None),
                             until=lambda r: bool(r.errors) or said(r), quiet=10)
    if reply.errors:
        error = reply.of_type("error")[0]
        reason = str(error["reason"])
        if action == "act" and reason not in ("not_seated", "spectator", "bad_token"):
            return "engine", error
        return reason, error
    assert said(reply), reply.messages
    return "ok", {}


@pytest.mark.parametrize("action", ACTIONS)
@pytest.mark.parametrize("role", ROLES)
def test_finding5_roles(scene: Scene, role: str, action: str) -> None:
    """One cell of the roles table: ``role`` asks to ``action``."""
    async def run() -> None:
        async with Client(scene.url) as api:
            before = await api.table(scene.table)
        if action in ("act", "chat"):
            got, body = await _socket(scene, role, action)
        else:
            got, body = await _http(scene, role, action)
        assert got == EXPECTED[role][action], (role, action, body)
        if got != "ok":
            assert body.get("message"), body
            async with Client(scene.url) as api:
                after = await api.table(scene.table)
            assert settled_info(after) == settled_info(before), (role, action)

    asyncio.run(run())
