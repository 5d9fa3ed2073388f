"""The server end to end, in its simplest use: two people and two bots play a whole match over
real sockets, on SQLite and on PostgreSQL, and the record they download replays to the same
scores."""

from __future__ import annotations

import asyncio
import random

import pytest

import pitchcards as pc
from pitchcards.client import Client, Seat
from pitchcards.notation import parse_record
from server_helpers import FAST, QUICK_LIMITS, running_app

pytestmark = pytest.mark.timeout(300)  # a whole match: only a hang takes this long


async def _play(api: Client, seat: Seat, rng: random.Random) -> list[pc.View]:
    views = []
    async with await api.connect(seat) as table:
        while not table.over:
            view = await table.my_turn(timeout=30)
            if view is None:
                break
            views.append(view)
            await table.act(str(rng.choice(view.legal_actions)))
        assert not table.errors
    return views


async def _match(url: str) -> None:
    async with Client(url) as api:
        ann = await api.create_table("Ann", variant="auction", bots={1: "random", 3: "easy"},
                                     settings=FAST)
        bob = await api.take_seat(ann.invite or "", "Bob")
        assert bob.seat == 2
        await api.start(ann)
        await asyncio.gather(_play(api, ann, random.Random(1)), _play(api, bob, random.Random(2)))
        info = await api.table(ann.table)
        assert info["status"] == "over"
        record = await api.record(bob)
        replayed = pc.replay(parse_record(record))
        assert replayed.winner is not None
        async with await api.connect(table=ann.table) as watcher:  # a spectator's snapshot
            await watcher.wait_for(lambda: watcher.view is not None, 10)
            assert watcher.view is not None
            assert list(watcher.view.scores or ()) == replayed.side_scores()
        assert "seed" not in record.split("\n\n", 1)[0]


@pytest.mark.parametrize("db", ["sqlite", "postgres"])
def test_two_people_and_two_bots_play_a_match(tmp_path, db):
    with running_app(tmp_path, db, extra=QUICK_LIMITS) as server:
        asyncio.run(_match(server.url))
