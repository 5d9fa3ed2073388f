"""A money table over real sockets: a guest joins by invite at the next break, players leave
between hands and are paid exactly what the engine says (the MoneySession replayed from the
downloaded record), and the settlement pays everyone seated."""

from __future__ import annotations

import asyncio
from fractions import Fraction
from typing import Any

import pytest

import pitchcards as pc
from pitchcards.client import Client, ServerError, TableConnection
from pitchcards.events import HandScored, PlayerJoined, PlayerLeft, Settled
from pitchcards.notation import parse_record
from server_helpers import FAST, healthy, server_fixture

pytestmark = pytest.mark.timeout(120)

server = server_fixture()

#: Nobody plays by hand here: a seat without a socket goes to a random stand-in at once, and
#: the breaks between hands last long enough to leave in one.
MONEY: dict[str, Any] = {"variant": "money", "players": 3, "bots": {2: "random"},
                         "settings": {**FAST, "grace": 0, "stand_in": "random",
                                      "hand_pause": 1.5}}


def _of(conn: TableConnection, kind: type) -> list[Any]:
    return [e for e in conn.events if isinstance(e, kind)]


def test_joins_and_leaves_between_hands_are_paid_what_the_engine_says(server):
    async def run() -> None:
        async with Client(server.url) as api:
            ann = await api.create_table("Ann", **MONEY)
            bob = await api.take_seat(ann.invite or "", "Bob")
            await api.start(ann)
            async with await api.connect(table=ann.table) as watcher:
                await watcher.wait_for(lambda: watcher.view is not None
                                       and watcher.view.seat_to_act is not None, 30)
                # Carl joins by invite during play: seated at the next break
                carl = await api.take_seat(ann.invite or "", "Carl")
                assert carl.seat is None
                # Carl's socket before he is dealt in, dropped and resumed: the public events
                async with await api.connect(carl) as carl_conn:
                    assert carl_conn.you["seat"] is None
                    await carl_conn.wait_for(lambda: carl_conn.seq >= watcher.seq, 10)
                    await carl_conn.drop()
                    await carl_conn.resume()
                    assert carl_conn.you["name"] == "Carl" and not carl_conn.errors
                # Bob leaves during a hand: paid at the next break
                left = await api.leave(bob)
                hand_at_leave = len(_of(watcher, HandScored))
                await watcher.wait_for(lambda: len(_of(watcher, PlayerJoined)) == 1, 30)
                joined = _of(watcher, PlayerJoined)[0]
                assert joined.name == "Carl"
                if left["pending"]:
                    await watcher.wait_for(lambda: bool(_of(watcher, PlayerLeft)), 30)
                bob_left = _of(watcher, PlayerLeft)[0]
                assert bob_left.name == "Bob"
                if not left["pending"]:  # the break came first: paid there and then
                    assert Fraction(left["payout"]) == bob_left.payout
                assert len(_of(watcher, HandScored)) >= hand_at_leave
                # the table goes on with Carl (a stand-in: he has no socket open)
                await watcher.wait_for(lambda: watcher.view is not None
                                       and "Carl" in (watcher.view.names or ()), 30)
                # Ann leaves in the break after a hand: paid at once
                scored = len(_of(watcher, HandScored))
                await watcher.wait_for(lambda: len(_of(watcher, HandScored)) > scored, 30)
                ann_left = await api.leave(ann)
                await watcher.wait_for(lambda: len(_of(watcher, PlayerLeft)) == 2, 30)
                paid_ann = _of(watcher, PlayerLeft)[1]
                assert paid_ann.name == "Ann"
                if not ann_left["pending"]:
                    assert Fraction(ann_left["payout"]) == paid_ann.payout
                # Carl asks for the settlement: everyone seated is paid, the game is over
                await api.settle(carl)
                await watcher.wait_for(lambda: bool(_of(watcher, Settled)), 30)
                settled = _of(watcher, Settled)[0]
                assert set(settled.payouts) == {"Carl", "Cy"}
                await watcher.wait_for(lambda: watcher.info["status"] == "over", 10)
            # the engine, replaying the downloaded record, pays the same, to the fraction
            record = await api.record(carl)
            session = pc.replay(parse_record(record))
            assert isinstance(session, pc.MoneySession) and session.is_over
            assert session.payouts["Bob"] == bob_left.payout
            assert session.payouts["Ann"] == paid_ann.payout
            assert {n: session.payouts[n] for n in settled.payouts} == settled.payouts
            assert sum(session.payouts.values()) == 0  # against the average: zero-sum
            info = await api.table(ann.table)
            assert info["status"] == "over" and info["pending"] == []
            # after the settlement: nothing more to settle or leave
            for call in (api.settle(carl), api.leave(carl)):
                with pytest.raises(ServerError) as refused:
                    await call
                assert refused.value.reason == "game_over"
            assert (await api.table(ann.table))["seq"] == info["seq"]
        assert healthy(server.url)

    asyncio.run(run())


def test_leaving_a_table_that_is_not_for_money_is_refused(server):
    async def run() -> None:
        async with Client(server.url) as api:
            ann = await api.create_table("Ann", bots={1: "random", 2: "random", 3: "random"},
                                         settings=FAST)
            for call in (api.leave, api.settle):
                reply = await api.http.post(f"/api/tables/{ann.table}/{call.__name__}",
                                            headers={"Authorization": f"Bearer {ann.token}"})
                assert reply.status_code == 409
                assert reply.json()["reason"] == "join_leave_not_allowed"
            await api.start(ann)
            reply = await api.http.post(f"/api/tables/{ann.table}/leave",
                                        headers={"Authorization": f"Bearer {ann.token}"})
            assert reply.json()["reason"] == "join_leave_not_allowed"

    asyncio.run(run())
