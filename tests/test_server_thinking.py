"""A bot thinks outside its table's lock (issue 29): while a hard or expert bot (or a turn
timer's stand-in) thinks, the table answers a spectator's attach, a chat and a player's
out-of-turn action, and the bot's choice is applied only if the table is still where it was
when the bot was given its view.

"While it thinks" is made certain with the test server's hooks: the bot is held in its thought
(it has its view, the lock is free) until the test releases it — no timing decides anything."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
from typing import Any

import pytest

from pitchcards.client import Client, ServerError
from pitchcards.events import ActionTaken
from server_helpers import FAST, hooked_table, play_held, server_fixture

pytestmark = pytest.mark.timeout(120)

server = server_fixture(hooked=True)

#: Ann (a person) at seat 0 and three experts.
EXPERTS: dict[str, Any] = {"bots": {1: "expert", 2: "expert", 3: "expert"}, "settings": FAST}


async def _thought(api: Client, table: str, hold: bool, bot: bool = True) -> dict[str, Any]:
    reply = await api.http.post(f"/_test/tables/{table}/thought",
                                json={"hold": hold, "bot": bot}, timeout=120)
    assert reply.status_code == 200, reply.text
    result: dict[str, Any] = reply.json()
    return result


def test_the_table_answers_while_an_expert_thinks(server):
    async def run() -> None:
        async with Client(server.url) as api:
            ann = await hooked_table(api, "Ann", seed=1_000_000_000_000_029, **EXPERTS)
            await api.start(ann)
            async with await api.connect(ann) as table:
                await table.wait_for(lambda: table.view is not None and bool(table.view.hand))
                if table.is_my_turn():  # Ann first: she passes, so an expert is to act
                    await table.act("pass")
                held = await _thought(api, ann.table, True)
                assert held["thinking"] and held["to_act"] not in (None, 0), held
                await table.wait_for(lambda: table.seq >= held["seq"])
                # the expert holds its thought: the table still answers
                async with await api.connect(table=ann.table) as spectator:
                    # welcomed and caught up (the snapshot of the position the expert thinks on)
                    await spectator.wait_for(lambda: spectator.seq == held["seq"]
                                             and spectator.view is not None)
                    assert spectator.info["seats"][held["to_act"]]["level"] == "expert"
                await table.say("still there?")
                await table.wait_for(lambda: any(m["text"] == "still there?"
                                                 for m in table.chat))
                with pytest.raises(ServerError) as refused:
                    await table.act("pass")
                assert refused.value.reason == "not_your_turn", refused.value
                assert table.seq == held["seq"]  # nothing moved
                # released, the expert acts: the position is the one it was given
                released = await _thought(api, ann.table, False)
                assert released["applied"] is True, released
                await table.wait_for(lambda: any(
                    isinstance(e, ActionTaken) and e.seq > held["seq"] and e.by_bot
                    and e.seat == held["to_act"] for e in table.events))

    asyncio.run(run())


def test_a_stand_ins_thought_is_dropped_when_the_player_acted_meanwhile(server):
    async def run() -> None:
        async with Client(server.url) as api:
            ann = await hooked_table(api, "Ann", seed=1_000_000_000_000_031,
                                     bots={1: "random", 2: "random", 3: "random"},
                                     settings={**FAST, "turn_timer": 1.0,
                                               "stand_in": "expert"})
            await api.start(ann)
            async with await api.connect(ann) as table:
                await play_held(api, table, random.Random(29))
                assert table.is_my_turn() and table.view is not None
                # Ann waits: the timer runs out and her stand-in starts thinking ...
                held = await _thought(api, ann.table, True, bot=False)
                assert held["thinking"] and held["to_act"] == 0, held
                # ... and she acts herself before it has decided
                await table.act(str(table.view.legal_actions[0]))
                mine = table.seq
                released = await _thought(api, ann.table, False)
                assert released["applied"] is False and released["seq"] == mine, released
                stood_in = [e for e in table.events if isinstance(e, ActionTaken)
                            and e.seat == 0 and e.by_bot]
                assert stood_in == [] and table.seq >= mine, stood_in

    asyncio.run(run())


def _bot_workers(server_pid: int) -> list[int]:
    """The server's bot workers: the children of its forkserver (server/think_pool.py)."""
    parents: dict[int, int] = {}
    commands: dict[int, bytes] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError):
                with open(f"/proc/{entry}/stat") as f:
                    parents[int(entry)] = int(f.read().rsplit(")", 1)[1].split()[1])
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    commands[int(entry)] = f.read()
    forkservers = [pid for pid, parent in parents.items()
                   if parent == server_pid and b"forkserver" in commands.get(pid, b"")]
    return [pid for pid, parent in parents.items() if parent in forkservers]


def test_a_bot_worker_killed_between_thoughts_is_replaced_and_the_table_plays_on(server):
    """kill -9 of the worker the experts think in: the next thought finds the pool broken,
    a fresh pool is started, the thought is asked again and its action applied."""
    assert server.proc is not None  # the hooked server runs as a process of its own

    async def run() -> None:
        async with Client(server.url) as api:
            ann = await hooked_table(api, "Ann", seed=1_000_000_000_000_029, **EXPERTS)
            await api.start(ann)
            async with await api.connect(ann) as table:
                await table.wait_for(lambda: table.view is not None and bool(table.view.hand))

                async def a_bot_to_act() -> None:  # Ann plays until a bot is to act
                    while table.is_my_turn():
                        seq = table.seq
                        assert table.view is not None
                        await table.act(str(table.view.legal_actions[0]))
                        await table.wait_for(lambda seq=seq: table.seq > seq)

                await a_bot_to_act()
                first = await _thought(api, ann.table, True)
                assert (await _thought(api, ann.table, False))["applied"] is True
                await table.wait_for(lambda: table.seq > first["seq"])  # a worker has thought
                await a_bot_to_act()
                held = await _thought(api, ann.table, True)
                assert server.proc is not None
                workers = _bot_workers(server.proc.pid)
                assert workers, "the server has no bot worker"
                for pid in workers:
                    os.kill(pid, signal.SIGKILL)
                released = await _thought(api, ann.table, False)
                assert released["applied"] is True, released
                await table.wait_for(lambda: any(
                    isinstance(e, ActionTaken) and e.seq > held["seq"] and e.by_bot
                    and e.seat == held["to_act"] for e in table.events))
                assert set(_bot_workers(server.proc.pid)).isdisjoint(workers)

    asyncio.run(run())
