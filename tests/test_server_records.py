"""Records, rematch, /healthz and /metrics over real sockets against a real ``pitch serve``:
a player downloads the record (during a hand: the finished hands only, no seed), a spectator or
a wrong token cannot, the whole match's record replays to the final scores; the host's rematch
seats the same people with the same tokens and tells the others; the metrics count tables,
connections, actions and their latency.

The server is a test server (tests/hooked_serve.py --hold-bots): every table is dealt from a
chosen seed and its bots (and stand-ins) act only between the test's steps — a rematch's too."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

import pitchcards as pc
from pitchcards.cards import card_name, cards_of
from pitchcards.client import Client, Seat, ServerError
from pitchcards.events import HandScored, MatchWon
from pitchcards.notation import parse_record
from server_helpers import (
    FAST,
    QUICK_LIMITS,
    app_fixture,
    healthy,
    hooked_table,
    play_held,
)

pytestmark = pytest.mark.timeout(120)

server = app_fixture(extra=(*QUICK_LIMITS, "--hold-bots"), hooked=True)

#: The first side to the target wins, made bid or not (B-R8's options): a whole match of a
#: few hands, where "bidder goes out" with a random player took 18 to 94 hands to 3 points.
FIRST_TO_TARGET: dict[str, Any] = {"win_rule": "first_to_target_HLJG_order",
                                   "win_requires_made_bid": False}
#: Ann (host) and Bob, people, with two bots.
PAIR: dict[str, Any] = {"bots": {1: "easy", 3: "easy"}}


async def _pair(api: Client, seed: int, target: int = 3, options: dict[str, Any] | None = None,
                **settings: Any) -> tuple[Seat, Seat]:
    """Ann (seat 0) and Bob (seat 2) at a match to ``target`` dealt from ``seed``, started
    (``options``: more rules options)."""
    ann = await hooked_table(api, "Ann", seed=seed, settings={**FAST, **settings}, **PAIR,
                             options={"target": target, **(options or {})})
    bob = await api.take_seat(ann.invite or "", "Bob")
    await api.start(ann)
    return ann, bob


async def _away(api: Client, table: str, seat: int) -> None:
    """The person at ``seat``, who never connects (grace 0), has their stand-in there."""
    async with await api.connect(table=table) as watcher:
        await watcher.wait_for(lambda: bool(watcher.info["seats"][seat]["away"]), 30)


def test_a_record_during_a_hand_holds_only_finished_hands_and_no_seed(server):
    async def run() -> None:
        async with Client(server.url) as api:
            # Bob is away from the start: a stand-in plays for him (held with the bots)
            ann, bob = await _pair(api, 2, 7, grace=0, stand_in="easy")  # 4 points a hand
            await _away(api, ann.table, 2)
            async with await api.connect(ann) as table:
                # the first hand played out, the second dealt and waiting for Ann
                ran = await play_held(api, table, random.Random(2), until=lambda: bool(
                    [e for e in table.events if isinstance(e, HandScored)]))
                assert table.is_my_turn() and not table.over, ran
                scored = [e for e in table.events if isinstance(e, HandScored)]
                assert [e.hand for e in scored] == [0]
                for seat in (ann, bob):
                    record = await api.record(seat)
                    header = record.split("\n\n", 1)[0]
                    assert "seed" not in header
                    replayed = pc.replay(parse_record(record))
                    assert len(replayed.hands) == 1
                    assert replayed.side_scores() == list(scored[0].scores)
                    # the hand in play, its cards and its actions so far, are not in it
                    assert "hand 2" not in record.lower()
                # a spectator (no token) and wrong tokens cannot download it
                for headers in ({}, {"Authorization": "Bearer nope"}):
                    reply = await api.http.get(f"/api/tables/{ann.table}/record",
                                               headers=headers)
                    assert reply.status_code == 401
                    assert reply.json()["reason"] == "bad_token"
                other = await api.create_table("Cy", settings=FAST)
                with pytest.raises(ServerError) as refused:
                    await api.record(Seat(server.url, ann.table, other.token, "Cy", 0))
                assert refused.value.reason == "bad_token"
                # a table not started has nothing to download yet
                with pytest.raises(ServerError) as refused:
                    await api.record(other)
                assert refused.value.reason == "not_started"

    asyncio.run(run())


def test_the_whole_match_replays_to_the_final_scores_and_the_host_gets_a_rematch(server):
    async def run() -> None:
        async with Client(server.url) as api:
            # Ann is away (a stand-in plays for her); Bob plays to the end
            # dealt so that the match is over after three hands
            ann, bob = await _pair(api, 6, options=FIRST_TO_TARGET, grace=0, stand_in="easy")
            await _away(api, ann.table, 0)
            async with await api.connect(bob) as bob_conn:
                with pytest.raises(ServerError) as refused:  # not before it is over
                    await api.rematch(ann)
                assert refused.value.reason == "started"
                await play_held(api, bob_conn, random.Random(6), until=lambda: False)
                assert bob_conn.over
                won = [e for e in bob_conn.events if isinstance(e, MatchWon)]
                info = await api.table(ann.table)
                assert info["status"] == "over"
                record = await api.record(bob)
                replayed = pc.replay(parse_record(record))
                assert len(replayed.hands) == 3
                assert replayed.is_over and replayed.winner is not None
                assert won and replayed.side_scores() == list(won[0].scores)
                assert replayed.side_scores() == list(
                    await _spectator_scores(api, ann.table))
                # only the host asks for the rematch
                with pytest.raises(ServerError) as refused:
                    await api.rematch(bob)
                assert refused.value.reason == "not_host" and refused.value.status == 403
                again = await api.rematch(ann)
                assert again.table != ann.table
                await bob_conn.wait_for(lambda: bob_conn.rematch is not None, 10)
                assert bob_conn.rematch == again.table
                assert (await api.rematch(ann)).table == again.table  # asked twice: one table
            other = await api.create_table("Cy", settings=FAST)  # a stranger: another table's
            new = await api.table(again.table)
            assert [(s["seat"], s["name"], s["kind"]) for s in new["seats"]] == \
                [(s["seat"], s["name"], s["kind"]) for s in info["seats"]]
            assert new["status"] == "playing"
            assert (await api.table(ann.table))["rematch"] == again.table
            # each links to the other: the rematch back to the finished table (issue 30)
            assert new["rematch_of"] == ann.table
            assert (await api.table(ann.table))["rematch_of"] is None  # no one's rematch
            # the link back tells a stranger nothing the old table did not already show
            # everyone (its results are public, docs/protocol.md "Who may do what"): its
            # record still wants a seat's token of that table, and another table's token is
            # no key to its hands; without a token the hands of a finished game are anyone's,
            # played cards only (issue 33)
            for path, token in (("record", None), ("record", other.token),
                                ("hands", other.token)):
                headers = {"Authorization": f"Bearer {token}"} if token else {}
                answer = await api.http.get(f"/api/tables/{ann.table}/{path}", headers=headers)
                assert answer.status_code == 401, (path, answer.text)
                assert answer.json()["reason"] == "bad_token", (path, answer.text)
            public = await api.http.get(f"/api/tables/{ann.table}/hands")
            assert public.status_code == 200 and public.json()["hands"]
            # the same tokens act at the new table
            bob_again = Seat(server.url, again.table, bob.token, "Bob", bob.seat)
            async with await api.connect(bob_again) as conn:
                assert conn.you["name"] == "Bob" and conn.you["seat"] == bob.seat
            async with await api.connect(again) as conn:
                assert conn.you["name"] == "Ann" and conn.you["host"]

    asyncio.run(run())


async def _spectator_scores(api: Client, table: str) -> list[int]:
    async with await api.connect(table=table) as watcher:
        await watcher.wait_for(lambda: watcher.view is not None, 10)
        assert watcher.view is not None
        return list(watcher.view.scores or ())


def _metrics(url: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    reply = httpx.get(url + "/metrics", timeout=10)
    assert reply.status_code == 200
    assert reply.headers["content-type"].startswith("text/plain")
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(reply.text) for s in family.samples}


def test_finding9_a_thrown_in_hand_shows_no_card_in_record_hands_or_results(server):
    """Issue 31, finding 9: four people pass, the cards are thrown in (all_pass="redeal");
    /record, /hands and /results show none of that hand's cards (each seat saw only its own,
    and no card of it was played) — and the record replays to the same scores."""
    async def run() -> None:
        async with Client(server.url) as api:
            ann = await hooked_table(api, "Ann", seed=3109, settings=FAST,
                                     options={"all_pass": "redeal", "target": 3})
            others = [await api.take_seat(ann.invite or "", n) for n in ("Bob", "Cy", "Dee")]
            await api.start(ann)
            conns = [await api.connect(seat) for seat in (ann, *others)]
            try:
                dealt: set[str] = set()
                for conn in conns:
                    await conn.wait_for(lambda c=conn: c.view is not None
                                        and c.view.hand_mask != 0, 30)
                    assert conn.view is not None
                    dealt |= {card_name(c) for c in cards_of(conn.view.hand_mask)}
                assert len(dealt) == 24
                for _ in range(4):  # seats 0-3 are Ann, Bob, Cy, Dee: the seat to act passes
                    assert conns[0].view is not None and conns[0].view.seat_to_act is not None
                    mover, seq = conns[conns[0].view.seat_to_act], conns[0].seq
                    await mover.act("pass")
                    await asyncio.gather(*(c.wait_for(lambda c=c, seq=seq: c.seq > seq, 30)
                                           for c in conns))
                await conns[0].wait_for(lambda: any(e.type == "hand_scored"
                                                    for e in conns[0].events), 30)
            finally:
                for conn in conns:
                    await conn.close()
            record = await api.record(ann)
            hand_1 = record.split("\nhand 1 ")[1]
            assert "\noutcome bids pass pass pass pass" in hand_1
            assert "\ndeal " not in record and "\nresult thrown in\n" in hand_1
            hands = (await api.http.get(f"/api/tables/{ann.table}/hands", headers={
                "Authorization": f"Bearer {ann.token}"})).json()["hands"]
            assert [s["action"] for s in hands[0]["steps"]] == [None] + ["pass"] * 4
            assert all(s["hands"] == [[]] * 4 for s in hands[0]["steps"])
            results = (await api.http.get(f"/api/tables/{ann.table}/results")).text
            for text in (record, str(hands), results):
                assert not any(f" {card}" in text or f"'{card}'" in text or f'"{card}"' in text
                               for card in dealt), text[:300]
            game = pc.replay(parse_record(record))
            assert game.results[0].thrown_in and game.scores == [0, 0, 0, 0]

    asyncio.run(run())


def test_healthz_and_metrics_count_tables_connections_actions_and_latency(server):
    async def run() -> None:
        async with Client(server.url) as api:
            # Bob: a stand-in, held with the bots between Ann's actions
            ann, _bob = await _pair(api, 3, grace=0, stand_in="random")
            await _away(api, ann.table, 2)
            before = _metrics(server.url)
            for name in ("pitch_tables_loaded", "pitch_action_latency_seconds_count"):
                assert (name, ()) in before, sorted(before)[:20]
            assert before[("pitch_tables_loaded", ())] >= 1
            async with await api.connect(ann) as table, \
                    await api.connect(table=ann.table) as _watcher:
                now = _metrics(server.url)
                players = now.get(("pitch_connections", (("role", "player"),)), 0)
                watchers = now.get(("pitch_connections", (("role", "spectator"),)), 0)
                assert players - before.get(("pitch_connections", (("role", "player"),)), 0) \
                    == 1
                assert watchers - before.get(
                    ("pitch_connections", (("role", "spectator"),)), 0) == 1
                health = httpx.get(server.url + "/healthz", timeout=10).json()
                assert health["ok"] and health["tables"] >= 1 and health["connections"] >= 2
                # Ann acts three times: three player actions, three latencies observed
                rng = random.Random(1)
                for _ in range(3):
                    await play_held(api, table, rng)  # the bots' turns, up to Ann's
                    assert table.is_my_turn() and table.view is not None
                    await table.act(str(rng.choice(table.view.legal_actions)))
                after = _metrics(server.url)
            key = ("pitch_actions_total", (("by", "player"),))
            assert after[key] - before.get(key, 0) == 3
            assert after[("pitch_actions_total", (("by", "bot"),))] > 0
            latency = ("pitch_action_latency_seconds_count", ())
            assert after[latency] - before[latency] == 3
            assert after[("pitch_action_latency_seconds_sum", ())] > 0
            assert ("pitch_action_latency_seconds_bucket", (("le", "0.1"),)) in after
            # the sockets closed: counted out
            assert await _eventually_counted_out(server.url, before)
            assert healthy(server.url)

    asyncio.run(run())


async def _eventually_counted_out(url: str, before: dict[Any, float]) -> bool:
    """The server counts a socket out when its side of the close is done."""
    key = ("pitch_connections", (("role", "player"),))
    for _ in range(1200):  # up to a minute: only a hang takes that long
        if _metrics(url).get(key, 0) == before.get(key, 0):
            return True
        await asyncio.sleep(0.05)
    return False
