"""The test-only hooks (src/pitchcards/server/testing.py): a test server deals a table from the
seed the test chose and its bots act only when the test says; a server started as ``pitch
serve`` has no way to do either — its seeds stay secret and its bots are never held."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from pitchcards.client import Client, TableConnection
from pitchcards.events import ActionTaken
from pitchcards.server.app import create_app
from pitchcards.server.config import ServerConfig
from server_helpers import FAST, app_fixture, hooked_table, run_bots, running_server

pytestmark = pytest.mark.timeout(120)

server = app_fixture(hooked=True)

#: Ann (a person) at seat 0 and three bots that choose at random (from their seeds).
SOLO: dict[str, Any] = {"bots": {1: "random", 2: "random", 3: "random"}, "settings": FAST}


def test_pitch_serve_has_no_test_routes_and_keeps_its_seeds_secret(tmp_path: Path) -> None:
    with running_server(tmp_path) as normal:
        table = {"name": "Ann", "bots": {"1": "random", "2": "random", "3": "random"}}
        hooked = httpx.post(normal.url + "/_test/tables", json={"table": table, "seed": 1},
                            timeout=30)
        assert hooked.status_code == 404, hooked.text
        seeded = httpx.post(normal.url + "/api/tables", json={**table, "seed": 1}, timeout=30)
        assert seeded.status_code == 422, seeded.text
        assert seeded.json()["reason"] == "bad_message" and "seed" in seeded.json()["message"]
        made = httpx.post(normal.url + "/api/tables", json=table, timeout=30).json()
        held = httpx.post(normal.url + f"/_test/tables/{made['table']}/bots",
                          json={"actions": 0}, timeout=30)
        assert held.status_code == 404, held.text
        schema = httpx.get(normal.url + "/openapi.json", timeout=30).json()
        assert not [path for path in schema["paths"] if "_test" in path]


def test_an_app_made_without_hooks_has_no_test_routes(tmp_path: Path) -> None:
    app = create_app(ServerConfig(db_url=f"sqlite:///{tmp_path / 'x.db'}"))
    paths = [getattr(route, "path", "") for route in app.routes]
    assert "/api/tables" in paths
    assert not [path for path in paths if path.startswith("/_test")]
    assert app.state.hub.hooks is None


async def _first_view(api: Client, seed: int) -> tuple[Any, list[Any]]:
    """Ann's view when the first hand is dealt (bots held), and the bots' first actions (up
    to two)."""
    ann = await hooked_table(api, "Ann", seed=seed, **SOLO)
    await api.start(ann)
    async with await api.connect(ann) as table:
        await table.wait_for(lambda: table.view is not None and bool(table.view.hand), 30)
        assert table.view is not None
        dealt = table.view
        if dealt.seat_to_act == 0:  # Ann first: she passes, so the bots have a turn
            await table.act("pass")
        ran = await run_bots(api, ann.table, 2)
        await table.wait_for(lambda: table.seq >= ran["seq"], 30)
        acts = [(e.seat, e.action) for e in table.events
                if isinstance(e, ActionTaken) and e.by_bot]
        return dealt, acts


def test_a_chosen_seed_deals_the_same_hands_and_the_bots_choose_the_same(server) -> None:
    async def run() -> None:
        async with Client(server.url) as api:
            first, first_acts = await _first_view(api, 27)
            again, again_acts = await _first_view(api, 27)
            other, _ = await _first_view(api, 28)
        assert (again.hand, again.dealer, again.seat_to_act) == \
            (first.hand, first.dealer, first.seat_to_act)
        assert again_acts == first_acts and first_acts
        assert other.hand != first.hand

    asyncio.run(run())


def test_held_bots_act_only_as_often_as_the_test_says(server) -> None:
    async def run() -> None:
        async with Client(server.url) as api:
            ann = await hooked_table(api, "Ann", seed=5, **SOLO)
            await api.start(ann)
            async with await api.connect(ann) as table, \
                    await api.connect(table=ann.table) as watcher:
                await table.wait_for(lambda: table.view is not None and bool(table.view.hand), 30)
                assert table.view is not None
                if table.view.seat_to_act == 0:
                    await table.act("pass")
                # held: woken with no allowance, the table's driver stops and no bot acts
                before = (await api.table(ann.table))["seq"]
                still = await run_bots(api, ann.table, 0)
                assert (still["acted"], still["seq"]) == (0, before)
                assert not _bot_actions(watcher)
                ran = await run_bots(api, ann.table, 1)
                assert ran["acted"] == 1 and ran["seq"] > before
                await watcher.wait_for(lambda: watcher.seq >= ran["seq"], 30)
                assert len(_bot_actions(watcher)) == 1
                # asked for more than there are before Ann's turn: they stop at her turn
                ran = await run_bots(api, ann.table, 50)
                assert ran["to_act"] == 0 and 0 <= ran["acted"] < 50
                await table.wait_for(lambda: table.seq >= ran["seq"], 30)
                assert table.is_my_turn()
                assert (await api.table(ann.table))["seq"] == ran["seq"]

    asyncio.run(run())


def _bot_actions(conn: TableConnection) -> list[ActionTaken]:
    return [e for e in conn.events if isinstance(e, ActionTaken) and e.by_bot]


def test_the_turn_clock_a_timed_out_turn_and_a_dropped_players_grace(server) -> None:
    """TableInfo.deadlines carries the turn timer of the seat to act and a dropped player's
    grace, as time left; the turn the timer runs out (the test's expire hook) is played by the
    stand-in and its frame marked timed_out — also when a reconnecting client is sent it again
    — and no other frame is."""
    async def run() -> None:
        async with Client(server.url) as api:
            ann = await hooked_table(api, "Ann", seed=1_000_000_000_000_011,
                                     bots={2: "random", 3: "random"},
                                     settings={**FAST, "turn_timer": 600, "grace": 600})
            bob = await api.take_seat(ann.invite or "", "Bob", 1)
            await api.start(ann)
            async with await api.connect(ann) as table:
                info = await api.table(ann.table)
                grace = [d for d in info["deadlines"] if d["kind"] == "grace"]
                assert [d["name"] for d in grace] == ["Bob"]  # Bob never came
                assert 0 < grace[0]["remaining_ms"] <= grace[0]["total_ms"] == 600_000
                timed_out = 0
                while True:
                    ran = await run_bots(api, ann.table)
                    # the table message that starts the clock follows the turn's last event
                    await table.wait_for(lambda: any(
                        d["kind"] == "turn" and d["seq"] == ran["seq"]  # noqa: B023
                        for d in table.info["deadlines"]), 30)
                    turn = [d for d in table.info["deadlines"] if d["kind"] == "turn"]
                    assert len(turn) == 1 and turn[0]["seq"] == ran["seq"], table.info
                    assert turn[0]["seat"] == ran["to_act"]
                    assert turn[0]["name"] == ("Ann", "Bob")[ran["to_act"]]
                    assert 0 < turn[0]["remaining_ms"] <= turn[0]["total_ms"] == 600_000
                    seq = table.seq
                    expired = await api.http.post(f"/_test/tables/{ann.table}/expire")
                    assert expired.json() == {"expired": True}
                    timed_out += 1
                    await table.wait_for(lambda: table.seq > seq, 30)  # noqa: B023
                    marked = [json.loads(f) for f in table.frames if '"timed_out"' in f]
                    assert len(marked) == timed_out
                    assert marked[-1]["timed_out"] is True
                    assert marked[-1]["event"]["seq"] == seq + 1
                    assert marked[-1]["event"]["seat"] == ran["to_act"]
                    assert marked[-1]["event"]["by_bot"] is True
                    if ran["to_act"] == 0:
                        break
                # Bob comes: his grace ends
                async with await api.connect(bob) as bobs:
                    await bobs.wait_for(lambda: bool(bobs.info), 30)
                    assert not [d for d in bobs.info["deadlines"] if d["kind"] == "grace"]
                # a client catching up from seq 1 is sent the marks again (from the log)
                again_conn = TableConnection(server.url, ann.table, ann.token)
                again_conn.seq = 1
                await again_conn.open()
                async with again_conn:
                    await again_conn.wait_for(lambda: again_conn.seq >= table.seq, 30)
                    replayed = [json.loads(f) for f in again_conn.frames
                                if '"timed_out"' in f]
                    assert [m["event"]["seq"] for m in replayed] == [
                        m["event"]["seq"] for m in marked]

    asyncio.run(run())
