"""``pitch bot --join``: a bot in its own process takes a seat by invite URL and plays the
match to its end against a person connected through the Python client (the server: the app in
the test process; the bot: a process of its own)."""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys

import pytest

from pitchcards.client import Client
from server_helpers import FAST, QUICK_LIMITS, running_app

pytestmark = pytest.mark.timeout(120)

SHORT = {"target": 1, "win_rule": "first_to_target_HLJG_order", "win_requires_made_bid": False}


async def _game(url: str) -> tuple[int, str, dict]:
    async with Client(url) as api:
        me = await api.create_table("Ann", variant="auction", options=SHORT, bots={2: "random"},
                                    settings=FAST)
        bot = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "pitchcards.cli", "bot", "--join", me.invite_url or "",
            "--level", "easy", "--name", "Robo", stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        for _ in range(2400):  # the bot sits down (a process start: up to two minutes)
            info = await api.table(me.table)
            if any(s["name"] == "Robo" for s in info["seats"]):
                break
            await asyncio.sleep(0.05)
        await api.start(me)
        rng = random.Random(5)
        async with await api.connect(me) as table:
            while not table.over:
                view = await table.my_turn(timeout=60)
                if view is None:
                    break
                await table.act(str(rng.choice(view.legal_actions)))
        out, _ = await asyncio.wait_for(bot.communicate(), 60)
        return bot.returncode or 0, out.decode(), await api.table(me.table)


def test_a_bot_joins_by_invite_and_plays_to_the_end(tmp_path):
    with running_app(tmp_path, "sqlite", extra=QUICK_LIMITS) as server:
        code, out, info = asyncio.run(_game(server.url))
    assert code == 0, out
    assert "seated as Robo" in out
    assert "game over" in out
    assert info["status"] == "over"
    robo = next(s for s in info["seats"] if s["name"] == "Robo")
    assert robo["kind"] == "human"  # a client of its own, not a server bot


def test_a_bad_invite_is_a_clear_error(tmp_path):
    with running_app(tmp_path, "sqlite") as server:
        done = subprocess.run([sys.executable, "-m", "pitchcards.cli", "bot", "--join",
                               f"{server.url}/join/nosuchcode"], capture_output=True,
                              text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode == 2
    assert "not_found" in done.stderr and "invite" in done.stderr
    assert "Traceback" not in done.stderr
