"""A tournament on one ``pitch serve`` process (issue 34, "Measured"): ``--tables`` tables of
four (``2 * tables`` registered pairs, or ``4 * tables`` players for ``--format progressive``;
none connected: with a grace of 0 the tables' stand-ins play every seat at once, no pauses),
``--rounds`` rounds of ``--boards`` boards (hands).  ``--format``: ``pairs`` (duplicate,
Mitchell: 2–10 tables), ``progressive`` or ``swiss`` (fixed pairs), which seat any number of
tables — so 40 tables is measured with them.

Printed, side by side for each table count: the p50 and p99 of ``GET .../standings`` asked in a
loop by one client while the tournament runs; and, per round change, the time from the last
table's end (its last log entry) to the next round's first deal and to its last table's first
deal, read afterwards from the database's own timestamps.  The pause between rounds is 0.
Timing is never asserted anywhere: this prints a table (docs/tournaments.md quotes it).

``--clients K``: the first K registered players (each player of a pair) are scripted clients
over real WebSockets: each asks ``/me`` where it sits, plays a random legal action as soon as it
is its turn, and moves on to its next round's table; the p50/p99 of its actions (sent → the
``action_taken`` back on its own socket) are printed too.  The other seats' stand-ins play at once.

    .venv/bin/python benchmarks/bench_tournament_server.py --tables 3,5,10 --rounds 3
    .venv/bin/python benchmarks/bench_tournament_server.py --format swiss --tables 40
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import websockets
from sqlalchemy import select

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from pitchcards.server.store import Store, log
from pitchcards.server.tournament_store import TournamentStore
from server_helpers import QUICK_LIMITS, running_server


async def _play_table(ws_url: str, token: str, acts: list[float], rng: random.Random) -> None:
    """One seat of one table: a random legal action at once whenever it is this seat's turn."""
    sent: dict[int, float] = {}
    async with websockets.connect(ws_url, max_queue=None, ping_interval=None,
                                  open_timeout=60) as ws:
        await ws.send(json.dumps({"type": "hello", "protocol": 1, "token": token}))
        seat: int | None = None
        async for frame in ws:
            msg = json.loads(frame)
            legal: list[str] = []
            if msg["type"] == "welcome":
                seat = msg["you"]["seat"]
            elif msg["type"] == "ping":
                await ws.send(json.dumps({"type": "pong", "id": msg["id"]}))
            elif msg["type"] == "snapshot" and msg.get("view"):
                view = msg["view"]
                legal = view["legal_actions"] if view["seat_to_act"] == seat else []
                seq = msg["seq"]
            elif msg["type"] == "event":
                event = msg["event"]
                seq = event["seq"]
                if seq in sent:
                    acts.append(time.perf_counter() - sent.pop(seq))
                if event["type"] == "hand_dealt":
                    view = event["view"]
                    legal = view["legal_actions"] if view["seat_to_act"] == seat else []
                elif event["type"] in ("action_taken", "action_undone"):
                    legal = event.get("legal") or []
            if legal:
                sent[seq + 1] = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "action": rng.choice(legal),
                                          "seq": seq}))


async def _client(url: str, tid: str, token: str, acts: list[float], seed: int) -> None:
    """A scripted player: its table each round (``/me``), played until it moves on."""
    rng = random.Random(seed)
    playing: tuple[str, asyncio.Task[None]] | None = None
    async with httpx.AsyncClient(timeout=60) as http:
        while True:
            me = (await http.get(f"{url}/api/tournaments/{tid}/me",
                                 headers={"Authorization": f"Bearer {token}"})).json()
            table = me["table_id"] if not me["bot"] else None
            if playing is not None and (playing[0] != table or playing[1].done()):
                playing[1].cancel()
                with contextlib.suppress(BaseException):
                    await playing[1]
                playing = None
            if me["status"] == "over":
                return
            if table is not None and playing is None:
                ws = f"{url.replace('http://', 'ws://')}/ws/{table}"
                playing = (table, asyncio.create_task(_play_table(ws, token, acts, rng)))
            await asyncio.sleep(0.2)


def _clients(url: str, tid: str, tokens: list[str], acts: list[float]) -> threading.Thread:
    async def every() -> None:
        await asyncio.gather(*(_client(url, tid, t, acts, i) for i, t in enumerate(tokens)))

    thread = threading.Thread(target=asyncio.run, args=(every(),), daemon=True)
    thread.start()
    return thread


def run(tables: int, rounds: int, boards: int, fmt: str = "pairs",
        clients: int = 0) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp, \
            running_server(Path(tmp), "sqlite", extra=QUICK_LIMITS) as proc:
        url = proc.url
        http = httpx.Client(timeout=60)
        made = http.post(f"{url}/api/tournaments", json={
            "name": "Dora", "format": fmt, "variant": "auction-partners",
            "boards_per_round": boards, "rounds": rounds, "pause": 0, "fill": "random",
            "settings": {"grace": 0, "bot_delay": 0, "hand_pause": 0,
                         "stand_in": "random"}}).json()
        tid = made["tournament"]
        entries = [[f"P{p}"] for p in range(4 * tables)] if fmt == "progressive" \
            else [[f"N{p}", f"S{p}"] for p in range(2 * tables)]
        tokens: list[str] = []
        for names in entries:
            reply = http.post(f"{url}/api/tournaments/{tid}/entries", json={"names": names})
            reply.raise_for_status()
            tokens += reply.json()["tokens"].values()
        started = time.perf_counter()
        http.post(f"{url}/api/tournaments/{tid}/start",
                  headers={"Authorization": f"Bearer {made['director_token']}"}
                  ).raise_for_status()
        acts: list[float] = []
        thread = _clients(url, tid, tokens[:clients], acts) if clients else None
        standings: list[float] = []
        while True:
            t0 = time.perf_counter()
            http.get(f"{url}/api/tournaments/{tid}/standings").raise_for_status()
            standings.append(time.perf_counter() - t0)
            if http.get(f"{url}/api/tournaments/{tid}").json()["status"] == "over":
                break
        total = time.perf_counter() - started
        if thread is not None:
            thread.join(60)
        changes = round_changes(proc.db_url, tid)
    return {"standings": standings, "changes": changes, "total": total, "acts": acts}


def round_changes(db_url: str, tid: str) -> list[tuple[float, float]]:
    """Per round change: (last end → first deal, last end → every table dealt), seconds."""
    store = Store(db_url)
    try:
        stored = TournamentStore(store).load(tid)
        assert stored is not None
        by_round = {e["round"]: e["tables"] for e in stored.entries if e["op"] == "round"}
        out = []
        with store.engine.connect() as conn:
            def entries(table_id: str) -> list[tuple[str, float]]:
                return [(json.loads(r[0])["op"], r[1]) for r in conn.execute(
                    select(log.c.entry, log.c.at).where(log.c.table_id == table_id)
                    .order_by(log.c.n))]

            for r in sorted(by_round)[1:]:
                ended = max(entries(t)[-1][1] for t in by_round[r - 1])
                firsts = [next(at for op, at in entries(t) if op == "deal")
                          for t in by_round[r]]
                out.append((min(firsts) - ended, max(firsts) - ended))
        return out
    finally:
        store.close()


def ms(values: list[float], q: float) -> str:
    ordered = sorted(values)
    return f"{1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]:.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="10")
    parser.add_argument("--format", default="pairs", choices=("pairs", "progressive", "swiss"))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--boards", type=int, default=2)
    parser.add_argument("--clients", type=int, default=0,
                        help="players played by scripted WebSocket clients")
    args = parser.parse_args()
    print(f"{args.format} tournament, {args.rounds} rounds of {args.boards} boards, one "
          f"process, SQLite, {args.clients} scripted clients; milliseconds")
    print("| tables | seats | standings p50 | standings p99 | requests | end → first deal "
          "(median, max) | end → all dealt (median, max) | whole event s | actions p50 | "
          "actions p99 | actions |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for tables in (int(t) for t in args.tables.split(",")):
        got = run(tables, args.rounds, args.boards, args.format, args.clients)
        acts = got["acts"] or [float("nan")]
        first = [c[0] for c in got["changes"]]
        every = [c[1] for c in got["changes"]]
        print(f"| {tables} | {4 * tables} | {ms(got['standings'], 0.5)} | "
              f"{ms(got['standings'], 0.99)} | {len(got['standings'])} | "
              f"{1000 * statistics.median(first):.0f}, {1000 * max(first):.0f} | "
              f"{1000 * statistics.median(every):.0f}, {1000 * max(every):.0f} | "
              f"{got['total']:.1f} | {ms(acts, 0.5)} | {ms(acts, 0.99)} | "
              f"{len(got['acts'])} |", flush=True)


if __name__ == "__main__":
    main()
