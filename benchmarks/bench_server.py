"""Load on ``pitch serve``: N tables of four client players over real WebSockets, on one
process or on several sharing the tables through PostgreSQL and Redis (``--processes``).

Each table acts at a steady pace (``--rate`` actions per table per second): when it is a
client's turn it waits for the table's next slot, then plays a random legal card or bid.  The
clients are deliberately cheap (they read ``legal`` from the events, build no views) so that
the server, not the load generator, is what is measured.  For each action it records the time
from sending it to its event reaching all four seats.  Reported per step: actions/s, p50 and
p99 of that latency, errors, the server's CPU and memory per table.  The knee is the first step
whose p99 passes 100 ms.

With ``--processes 1,2,3`` each step runs once per process count, side by side: 1 is one
process on PostgreSQL alone; 2 and 3 share the tables through a Redis the benchmark starts.
Table t is made on (and so owned by) process t mod P, and its four seats connect to processes
t, t+1, t+2, t+3 mod P, as a load balancer would spread them: with several processes most
sockets are on a process that does not own their table.

    .venv/bin/python benchmarks/bench_server.py --tables 50,200,500 --seconds 20
    .venv/bin/python benchmarks/bench_server.py --tables 500 --db postgres
    .venv/bin/python benchmarks/bench_server.py --tables 100,300,500 --processes 1,2,3
    .venv/bin/python benchmarks/bench_server.py --leak-games 1000      # the no-leak check, big
    .venv/bin/python benchmarks/bench_server.py --abuse 0,14 --seconds 60 [--server-src OLD/src]

``--builds`` (issue 35): each step twice or more (``--repeats``), alternating the server's
build: compiled (``src/pitchcards/_compiled``, built by scripts/build_fast.py) and pure Python
(``PITCHCARDS_PURE=1``), one row each, with the server's CPU per action — what the engine's
fast path is worth to a server, where sockets, JSON and the database take their share too.

    .venv/bin/python benchmarks/bench_server.py --tables 500 --builds --repeats 2

``--analyses N,…`` (issue 33): the first ``--tables`` count measured while N analyses of whole
matches to 7 (four medium bots, the server's default budget of 128 deals a decision) run in the
server's worker processes (``--analysis-workers N``), one row per N: the tables' p50/p99 beside
them, and how far the analyses got.

    .venv/bin/python benchmarks/bench_server.py --tables 100 --analyses 0,1,2 --seconds 30

``--abuse N``: issue 31's findings 1, 2 and 7 at once from one address, against a server with
its default limits: N money tables of expert bots (no pauses, grace 0, expert stand-ins) whose
host never connects, GETs of unknown 2 KB table ids and of those tables' results without a
pause — while one table of four client players (the "other table") plays at ``--rate``.
Printed: the server's RSS at the start and end, its CPU (both with the processes it started:
its bots' workers), the other table's p50/p99, and what
the abuser's requests were answered.  ``--server-src OLD/src`` runs another checkout's server
(``git worktree add /tmp/old31 main``) for a before/after.

Timing is never asserted anywhere: this prints a table (docs/server.md quotes it).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from server_helpers import QUICK_LIMITS, running_server


class Seat:
    """One client player: its socket, what it was last told, and its latencies."""

    def __init__(self, table: Table, token: str, seat: int) -> None:
        self.table = table
        self.token = token
        self.seat = seat
        self.ws: websockets.ClientConnection | None = None
        self.seq = 0
        self.legal: list[str] = []

    async def run(self, url: str) -> None:
        async with websockets.connect(url, max_queue=None, ping_interval=None,
                                      open_timeout=60) as ws:
            self.ws = ws
            await ws.send(json.dumps({"type": "hello", "protocol": 1, "token": self.token}))
            async for frame in ws:
                self.receive(json.loads(frame))

    def receive(self, msg: dict) -> None:  # type: ignore[type-arg]
        kind = msg["type"]
        if kind == "event":
            event = msg["event"]
            self.seq = event["seq"]
            self.table.arrived(event["seq"], self.seat)
            if event["type"] == "hand_dealt":
                view = event["view"]
                self.legal = view["legal_actions"] if view["seat_to_act"] == self.seat else []
            elif event["type"] in ("action_taken", "action_undone"):
                self.legal = event.get("legal") or []
            else:
                return  # a trick won, a hand scored: the position was already told
            if self.legal:
                self.table.my_turn(self)
        elif kind == "snapshot" and msg["view"]:
            self.seq = msg["seq"]
            view = msg["view"]
            self.legal = view["legal_actions"] if view["seat_to_act"] == self.seat else []
            if self.legal:
                self.table.my_turn(self)
        elif kind == "error":
            self.table.errors += 1
            self.table.reasons[msg["reason"]] = self.table.reasons.get(msg["reason"], 0) + 1
        elif kind == "ping" and self.ws is not None:
            self.table.spawn(self.ws.send(json.dumps({"type": "pong", "id": msg["id"]})))


class Table:
    """A table's pace and its measurements."""

    def __init__(self, rate: float, rng: random.Random) -> None:
        self.gap = 1.0 / rate
        self.rng = rng
        self.next_slot = time.perf_counter() + rng.random() * self.gap
        self.sent: dict[int, float] = {}      # first seq expected -> send time
        self.seen: dict[int, int] = {}        # seq -> seats that have it
        self.latencies: list[float] = []
        self.errors = 0
        self.reasons: dict[str, int] = {}
        self.actions = 0
        self.running = True
        self.tasks: set[asyncio.Future[None]] = set()

    def my_turn(self, seat: Seat) -> None:
        if self.running:
            self.spawn(self._act(seat, seat.seq, list(seat.legal)))

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` in the background, keeping a reference until it is done."""
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _act(self, seat: Seat, seq: int, legal: list[str]) -> None:
        now = time.perf_counter()
        self.next_slot = max(self.next_slot + self.gap, now)
        await asyncio.sleep(self.next_slot - now)
        if not self.running or seat.ws is None:
            return
        self.sent[seq + 1] = time.perf_counter()
        self.actions += 1
        with contextlib.suppress(websockets.ConnectionClosed):
            await seat.ws.send(json.dumps({"type": "act", "action": self.rng.choice(legal),
                                           "seq": seq}))

    def arrived(self, seq: int, seat: int) -> None:
        if seq not in self.sent:
            return
        got = self.seen.get(seq, 0) + 1
        if got == 4:
            self.latencies.append(time.perf_counter() - self.sent.pop(seq))
            self.seen.pop(seq, None)
        else:
            self.seen[seq] = got


async def open_table(api: httpx.AsyncClient, rate: float,
                     rng: random.Random) -> tuple[Table, list[Seat]]:
    fast = {"bot_delay": 0, "hand_pause": 0}
    reply = await api.post("/api/tables", json={"name": "P0", "variant": "auction",
                                                "options": {"target": 500},
                                                "settings": fast})
    host = reply.json()
    table = Table(rate, rng)
    seats = [Seat(table, host["token"], 0)]
    for i in range(1, 4):
        guest = (await api.post(f"/api/invites/{host['invite']}/seats",
                                json={"name": f"P{i}", "seat": i})).json()
        seats.append(Seat(table, guest["token"], i))
    table.id = host["table"]  # type: ignore[attr-defined]
    table.host = host["token"]  # type: ignore[attr-defined]
    return table, seats


def proc_stats(pid: int) -> tuple[float, int]:
    """(CPU seconds used, resident bytes) of a process, from /proc."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    cpu = (int(fields[11]) + int(fields[12])) / ticks
    with open(f"/proc/{pid}/statm") as f:
        rss = int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    return cpu, rss


def with_descendants(pid: int) -> list[int]:
    """``pid`` and every process under it (a server's bot workers and their forkserver)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError), open(f"/proc/{entry}/stat") as f:
                parents[int(entry)] = int(f.read().rsplit(")", 1)[1].split()[1])
    tree, todo = [pid], [pid]
    while todo:
        parent = todo.pop()
        children = [child for child, ppid in parents.items() if ppid == parent]
        tree += children
        todo += children
    return tree


def tree_stats(pid: int) -> tuple[float, int]:
    """(CPU seconds, resident bytes) of ``pid`` and its descendants (one gone meanwhile
    counts nothing)."""
    cpu = rss = 0.0
    for each in with_descendants(pid):
        with contextlib.suppress(OSError):
            c, r = proc_stats(each)
            cpu, rss = cpu + c, rss + r
    return cpu, int(rss)


def procs_stats(pids: list[int]) -> tuple[float, int]:
    """(CPU seconds, resident bytes) of several processes together."""
    stats = [proc_stats(pid) for pid in pids]
    return sum(c for c, _ in stats), sum(r for _, r in stats)


async def step(bases: list[str], pids: list[int], tables: int, rate: float, seconds: float,
               seed: int, redis_pid: int | None = None) -> dict[str, float]:
    """One measured step: ``tables`` tables on the servers at ``bases`` (table t made on
    server t mod P, its seats on servers t, t+1, … mod P)."""
    rng = random.Random(seed)
    n = len(bases)
    _, rss0 = procs_stats(pids)
    apis = [httpx.AsyncClient(base_url=base, timeout=60) for base in bases]
    try:
        opened = [await open_table(apis[t % n], rate, random.Random(rng.random()))
                  for t in range(tables)]
        runners = []
        for t, (table, seats) in enumerate(opened):
            runners += [asyncio.create_task(s.run(  # type: ignore[attr-defined]
                f"{bases[(t + i) % n].replace('http://', 'ws://')}/ws/{table.id}"))  # type: ignore[attr-defined]
                for i, s in enumerate(seats)]
        await asyncio.sleep(1.0 + tables / 500)  # every socket says hello
        for t, (table, _) in enumerate(opened):
            await apis[t % n].post(f"/api/tables/{table.id}/start",  # type: ignore[attr-defined]
                                   headers={"Authorization": f"Bearer {table.host}"})  # type: ignore[attr-defined]
        await asyncio.sleep(min(5.0, seconds / 4))  # warm up
        for table, _ in opened:
            table.latencies.clear()
            table.actions = 0
        cpu0, _ = procs_stats(pids)
        redis0 = proc_stats(redis_pid)[0] if redis_pid else 0.0
        mine0 = time.process_time()
        t0 = time.perf_counter()
        await asyncio.sleep(seconds)
        elapsed = time.perf_counter() - t0
        cpu1, rss1 = procs_stats(pids)
        redis1 = proc_stats(redis_pid)[0] if redis_pid else 0.0
        mine = time.process_time() - mine0
        for table, _ in opened:
            table.running = False
        for task in runners:
            task.cancel()
        await asyncio.gather(*runners, return_exceptions=True)
    finally:
        for api in apis:
            await api.aclose()
    lat = sorted(x for t, _ in opened for x in t.latencies)
    q = statistics.quantiles(lat, n=100) if len(lat) >= 100 else [float("nan")] * 99
    return {"tables": tables, "connections": 4 * tables,
            "actions_s": len(lat) / elapsed,
            "p50_ms": 1000 * statistics.median(lat) if lat else float("nan"),
            "p99_ms": 1000 * q[98],
            "errors": sum(t.errors for t, _ in opened),
            "reasons": ", ".join(sorted({r for t, _ in opened for r in t.reasons})),
            "cpu_pct": 100 * (cpu1 - cpu0) / elapsed,
            "redis_cpu_pct": 100 * (redis1 - redis0) / elapsed,
            "client_cpu_pct": 100 * mine / elapsed,
            "kb_per_table": (rss1 - rss0) / 1024 / tables}


def _abuser(base: str, tables: int, stop: Any, out: Any) -> None:
    """The abuse in a process of its own (its load is not the measured clients'): its answers
    put on ``out`` once ``stop`` is set."""
    answers: dict[str, int] = {}

    async def run() -> None:
        done = asyncio.Event()
        attack = asyncio.create_task(_abuse(base, tables, done, answers))
        while not stop.is_set():
            await asyncio.sleep(0.2)
        done.set()
        attack.cancel()
        await asyncio.gather(attack, return_exceptions=True)

    asyncio.run(run())
    out.put(answers)


async def _abuse(base: str, tables: int, stop: asyncio.Event,
                 answers: dict[str, int]) -> None:
    """One address against the server: ``tables`` bot tables played by nobody (finding 1),
    lookups of unknown ids (finding 2), reads of the tables' whole results (finding 7)."""
    rng = random.Random(7)
    made: list[str] = []

    def count(kind: str, status: int) -> None:
        key = f"{kind} {status}"
        answers[key] = answers.get(key, 0) + 1

    async with httpx.AsyncClient(base_url=base, timeout=60) as api:
        async def write(path: str, **kw: Any) -> httpx.Response:
            while True:  # inside the write limit: wait when it says so
                reply = await api.post(path, **kw)
                if reply.status_code != 429 or "rate" not in reply.text or stop.is_set():
                    return reply
                await asyncio.sleep(1.0)

        for _ in range(tables):
            reply = await write("/api/tables", json={
                "name": "Mallory", "variant": "money", "players": 4,
                "bots": {"1": "expert", "2": "expert", "3": "expert"},
                "settings": {"bot_delay": 0, "hand_pause": 0, "grace": 0,
                             "stand_in": "expert"}})
            count("create", reply.status_code)
            if reply.status_code != 201:
                continue
            host = reply.json()
            made.append(host["table"])
            started = await write(f"/api/tables/{host['table']}/start",
                                  headers={"Authorization": f"Bearer {host['token']}"})
            count("start", started.status_code)

        async def misses() -> None:
            while not stop.is_set():
                junk = "".join(rng.choice("abcdefghijklmnop") for _ in range(2048))
                count("miss", (await api.get(f"/api/tables/{junk}")).status_code)

        async def results() -> None:
            while not stop.is_set() and made:
                reply = await api.get(f"/api/tables/{rng.choice(made)}/results")
                count("results", reply.status_code)
                if reply.status_code == 429:
                    await asyncio.sleep(0.05)

        await asyncio.gather(*(misses() for _ in range(4)), *(results() for _ in range(4)))


async def abuse_step(base: str, pid: int, tables: int, rate: float, seconds: float,
                     seed: int) -> dict[str, Any]:
    """The other table measured while ``tables`` abuse tables play (``--abuse``)."""
    rng = random.Random(seed)
    _, rss0 = tree_stats(pid)
    answers: dict[str, int] = {}
    spawn = multiprocessing.get_context("spawn")
    stop = spawn.Event()
    out: Any = spawn.Queue()
    async with httpx.AsyncClient(base_url=base, timeout=60) as api:
        table, seats = await open_table(api, rate, rng)
        runners = [asyncio.create_task(s.run(f"{base.replace('http://', 'ws://')}/ws/"
                                             f"{table.id}"))  # type: ignore[attr-defined]
                   for s in seats]
        await asyncio.sleep(1.0)
        await api.post(f"/api/tables/{table.id}/start",  # type: ignore[attr-defined]
                       headers={"Authorization": f"Bearer {table.host}"})  # type: ignore[attr-defined]
        await asyncio.sleep(2.0)
        table.latencies.clear()
        cpu0, _ = tree_stats(pid)
        t0 = time.perf_counter()
        attack = spawn.Process(target=_abuser, args=(base, tables, stop, out)) \
            if tables else None
        if attack is not None:
            attack.start()
        settle = min(seconds / 2, 35.0)  # past the server's 30 s --unattended-pause
        await asyncio.sleep(settle)
        mark = len(table.latencies)
        await asyncio.sleep(seconds - settle)
        elapsed = time.perf_counter() - t0
        cpu1, rss1 = tree_stats(pid)
        stop.set()
        table.running = False
        if attack is not None:
            answers = await asyncio.to_thread(out.get)
            attack.join()
        for task in runners:
            task.cancel()
        await asyncio.gather(*runners, return_exceptions=True)
    def p50_p99(lat: list[float]) -> str:  # (one table: tens of actions; p99 ~ the worst)
        if len(lat) < 2:
            return "– | –"
        q = statistics.quantiles(sorted(lat), n=100, method="inclusive")
        return f"{1000 * statistics.median(lat):.1f} | {1000 * q[98]:.1f}"

    return {"rss0_mb": rss0 / 2**20, "rss1_mb": rss1 / 2**20,
            "cpu_pct": 100 * (cpu1 - cpu0) / elapsed, "actions": len(table.latencies),
            "early": p50_p99(table.latencies[:mark]), "late": p50_p99(table.latencies[mark:]),
            "settle": settle,
            "answers": ", ".join(f"{k}: {v}" for k, v in sorted(answers.items()))}


def abuse_run(args: argparse.Namespace) -> None:
    """``--abuse N,…``: one row per N (docs/server.md, issue 31)."""
    if args.server_src:
        os.environ["PYTHONPATH"] = os.pathsep.join(
            [str(Path(args.server_src).resolve()), os.environ.get("PYTHONPATH", "")])
    print(f"one server process ({args.server_src or 'this checkout'}), {args.db}, default "
          f"limits; the other table: 4 client players, {args.rate} action/s; {args.seconds:.0f} s "
          "from the abuse's start")
    settle = min(args.seconds / 2, 35.0)
    print(f"| abuse tables | RSS start MB | RSS end MB | server CPU % | other table actions | "
          f"p50 ms, first {settle:.0f} s | p99 ms, first {settle:.0f} s | p50 ms, after | "
          "p99 ms, after | the abuser's answers |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for n in (int(x) for x in args.abuse.split(",")):
        with tempfile.TemporaryDirectory() as tmp, running_server(
                Path(tmp), args.db, extra=tuple(args.server_flag)) as server:
            assert server.proc is not None
            r = asyncio.run(abuse_step(server.url, server.proc.pid, n, args.rate, args.seconds,
                                       args.seed))
        print(f"| {n} | {r['rss0_mb']:.0f} | {r['rss1_mb']:.0f} | {r['cpu_pct']:.0f} | "
              f"{r['actions']} | {r['early']} | {r['late']} | {r['answers']} |",
              flush=True)


def _queue_analyses(db_url: str, count: int) -> None:
    """``count`` queued analyses of whole matches in the server's database (as ``POST
    …/analysis`` queues them): its dispatcher takes them within its poll."""
    from pitchcards.analysis import ANALYSIS_BUDGET
    from pitchcards.server import analysis_store
    from pitchcards.server.config import normalise_db_url
    from pitchcards.server.store import Store

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import pitchcards as pc
    from bench_analysis import play_match

    store = Store(normalise_db_url(db_url))
    try:
        for i in range(count):
            text = play_match(pc.RuleSet(target=7), ["medium"] * 4, 100 + i)
            analysis_store.request(store.engine, f"bench{i}", 1, text, ANALYSIS_BUDGET.worlds)
    finally:
        store.close()


def _analyses_progress(db_url: str) -> str:
    from sqlalchemy import select

    from pitchcards.server import analysis_store
    from pitchcards.server.config import normalise_db_url
    from pitchcards.server.store import Store

    store = Store(normalise_db_url(db_url))
    try:
        with store.engine.connect() as conn:
            rows = conn.execute(select(analysis_store.analyses.c.status,
                                       analysis_store.analyses.c.done,
                                       analysis_store.analyses.c.total)).all()
    finally:
        store.close()
    return ", ".join(f"{st} {d}/{t}" for st, d, t in rows) or "none"


def analyses_run(args: argparse.Namespace) -> None:
    """``--analyses N,…``: one row per N (docs/server.md, "Analysis jobs")."""
    tables = int(args.tables.split(",")[0])
    print(f"one server process, {args.db}; {tables} tables, {args.rate} action/s per table, "
          f"{args.seconds:.0f} s; analyses of matches to 7 at 128 deals a decision beside them")
    print("| analyses running | actions/s | p50 ms | p99 ms | errors | server CPU % | "
          "analyses (status done/total decisions) |")
    print("|---|---|---|---|---|---|---|")
    for n in (int(x) for x in args.analyses.split(",")):
        with tempfile.TemporaryDirectory() as tmp, running_server(
                Path(tmp), args.db, extra=(*QUICK_LIMITS, "--analysis-workers", str(max(1, n)),
                                           *args.server_flag)) as server:
            assert server.proc is not None
            _queue_analyses(server.db_url, n)
            r = asyncio.run(step([server.url], [server.proc.pid], tables, args.rate,
                                 args.seconds, args.seed))
            got = _analyses_progress(server.db_url)
        print(f"| {n} | {r['actions_s']:.0f} | {r['p50_ms']:.1f} | {r['p99_ms']:.1f} | "
              f"{r['errors']:.0f} | {r['cpu_pct']:.0f} | {got} |", flush=True)


def leak_run(games: int, db: str) -> None:
    from leak_check import CALL_SETUPS, SETUPS, leaks, play_games, seeds

    with tempfile.TemporaryDirectory() as tmp, \
            running_server(Path(tmp), db, extra=QUICK_LIMITS) as server:
        t0 = time.perf_counter()
        # every setup, call-your-partner's secret partner among them (CP5)
        played = asyncio.run(play_games(server.url, games, concurrency=25, seed=1,
                                        setups=(*SETUPS, *CALL_SETUPS)))
        secret = seeds(str(Path(tmp) / "server.db")) if db == "sqlite" else []
        problems = [p for g in played for p in leaks(g, secret)]
        frames = sum(len(f) for g in played for f in g.frames.values())
        print(f"| games | frames checked | leaks | seconds |\n|---|---|---|---|\n"
              f"| {len(played)} | {frames} | {len(problems)} | {time.perf_counter() - t0:.0f} |")
        for p in problems[:10]:
            print(p)
        if problems:
            raise SystemExit(1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="50,200,500",
                        help="comma-separated table counts, one step each")
    parser.add_argument("--rate", type=float, default=1.0, help="actions per table per second")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured time per step")
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--processes", default=None, metavar="P,…",
                        help="server processes per step, side by side: 1 (PostgreSQL alone) "
                             "and more (PostgreSQL and a Redis of the benchmark's own); "
                             "implies --db postgres")
    parser.add_argument("--server-flag", action="append", default=[], metavar="FLAG",
                        help="pass a flag to pitch serve, e.g. --server-flag=--no-ws-compression")
    parser.add_argument("--leak-games", type=int, default=0, metavar="N",
                        help="instead: play N games and check every frame for leaks")
    parser.add_argument("--abuse", default=None, metavar="N,…",
                        help="instead: one table measured while one address abuses the server "
                             "with N bot tables, unknown ids and results reads (issue 31)")
    parser.add_argument("--server-src", default=None, metavar="DIR",
                        help="run the server from another checkout's src (a before/after)")
    parser.add_argument("--analyses", default=None, metavar="N,…",
                        help="instead: the first --tables count measured while N analyses run "
                             "in the server's worker processes (issue 33)")
    parser.add_argument("--builds", action="store_true",
                        help="each step on the compiled and on the pure-Python server, "
                             "alternating, --repeats times each (issue 35)")
    parser.add_argument("--repeats", type=int, default=1, help="with --builds: runs per build")
    args = parser.parse_args()
    if args.builds:
        builds_run(args)
        return
    if args.analyses:
        analyses_run(args)
        return
    if args.abuse:
        abuse_run(args)
        return
    if args.leak_games:
        leak_run(args.leak_games, args.db)
        return
    if args.processes:
        cluster_run(args)
        return
    print(f"one server process, {args.db} {' '.join(args.server_flag)}; "
          f"{args.rate} action/s per table; "
          f"{args.seconds:.0f} s per step; latency = action sent -> its event at all 4 seats")
    print("| tables | sockets | actions/s | p50 ms | p99 ms | errors | server CPU % | "
          "server KB/table | clients' CPU % |")
    print("|---|---|---|---|---|---|---|---|---|")
    knee = None
    for n in (int(x) for x in args.tables.split(",")):
        with tempfile.TemporaryDirectory() as tmp, running_server(
                Path(tmp), args.db, extra=(*QUICK_LIMITS, *args.server_flag)) as server:
            assert server.proc is not None
            r = asyncio.run(step([server.url], [server.proc.pid], n, args.rate, args.seconds,
                                 args.seed))
        print(f"| {r['tables']:.0f} | {r['connections']:.0f} | {r['actions_s']:.0f} | "
              f"{r['p50_ms']:.1f} | {r['p99_ms']:.1f} | {r['errors']:.0f} | "
              f"{r['cpu_pct']:.0f} | {r['kb_per_table']:.0f} | {r['client_cpu_pct']:.0f} |"
              + (f" errors: {r['reasons']}" if r["reasons"] else ""), flush=True)
        if knee is None and r["p99_ms"] > 100:
            knee = n
    print(f"knee (first step with p99 > 100 ms): {knee if knee is not None else 'not reached'}")


@contextlib.contextmanager
def server_build(build: str) -> Any:
    """The environment a server started inside runs ``build`` in: "compiled" (the default
    when a fresh build is there) or "pure" (``PITCHCARDS_PURE=1``, docs/design.md "Speed")."""
    before = os.environ.pop("PITCHCARDS_PURE", None)
    if build == "pure":
        os.environ["PITCHCARDS_PURE"] = "1"
    try:
        yield
    finally:
        os.environ.pop("PITCHCARDS_PURE", None)
        if before is not None:
            os.environ["PITCHCARDS_PURE"] = before


def builds_run(args: argparse.Namespace) -> None:
    """Each table count on the compiled and the pure server, alternating (issue 35): one row
    per run, then the medians and the ratio of the server's CPU per action."""
    import pitchcards

    if not pitchcards.fast_path().startswith("compiled"):
        sys.exit(f"no compiled build to compare: {pitchcards.fast_path()} "
                 "(run scripts/build_fast.py)")
    print(f"one server process, {args.db}; {args.rate} action/s per table; {args.seconds:.0f} s "
          f"per step; builds alternate, {args.repeats} run(s) each")
    print("| tables | build | actions/s | p50 ms | p99 ms | errors | server CPU % | "
          "server CPU ms/action |")
    print("|---|---|---|---|---|---|---|---|")
    per_action: dict[tuple[int, str], list[float]] = {}
    for n in (int(x) for x in args.tables.split(",")):
        for rep in range(args.repeats):
            order = ("compiled", "pure") if rep % 2 == 0 else ("pure", "compiled")
            for build in order:
                with tempfile.TemporaryDirectory() as tmp, server_build(build), running_server(
                        Path(tmp), args.db, extra=(*QUICK_LIMITS, *args.server_flag)) as server:
                    assert server.proc is not None
                    said = server.output()
                    if f"engine: {build}" not in said:  # the start line names the build
                        sys.exit(f"the {build} server says otherwise:\n{said[-2000:]}")
                    r = asyncio.run(step([server.url], [server.proc.pid], n, args.rate,
                                         args.seconds, args.seed))
                ms = 10 * r["cpu_pct"] / r["actions_s"] if r["actions_s"] else float("nan")
                per_action.setdefault((n, build), []).append(ms)
                print(f"| {n} | {build} | {r['actions_s']:.0f} | {r['p50_ms']:.1f} | "
                      f"{r['p99_ms']:.1f} | {r['errors']:.0f} | {r['cpu_pct']:.0f} | {ms:.2f} |"
                      + (f" errors: {r['reasons']}" if r["reasons"] else ""), flush=True)
    for n in sorted({n for n, _ in per_action}):
        fast = statistics.median(per_action[n, "compiled"])
        slow = statistics.median(per_action[n, "pure"])
        print(f"{n} tables: server CPU per action, median: compiled {fast:.2f} ms, pure "
              f"{slow:.2f} ms: pure / compiled {slow / fast:.2f}x")


def cluster_run(args: argparse.Namespace) -> None:
    """Each table count with each process count, one row each (docs/server.md)."""
    from cluster_helpers import RedisProcess
    from server_helpers import ServerProcess, postgres_database

    counts = [int(x) for x in args.processes.split(",")]
    print(f"PostgreSQL; 1 process alone, more sharing tables through Redis; {args.rate} "
          f"action/s per table; {args.seconds:.0f} s per step; latency = action sent -> its "
          "event at all 4 seats")
    print("| processes | tables | sockets | actions/s | p50 ms | p99 ms | errors | servers' CPU % "
          "| Redis CPU % | servers' KB/table | clients' CPU % |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    knees: dict[int, int | None] = {}
    for n in (int(x) for x in args.tables.split(",")):
        for p in counts:
            with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
                db = stack.enter_context(postgres_database())
                extra: tuple[str, ...] = (*QUICK_LIMITS, *args.server_flag)
                redis = None
                if p > 1:
                    redis = RedisProcess(Path(tmp)).start()
                    stack.callback(redis.kill)
                    extra = ("--redis", redis.url, *extra)
                servers = []
                for _ in range(p):
                    server = ServerProcess(db, workdir=Path(tmp), extra=extra)
                    stack.callback(server.stop)
                    servers.append(server.start())
                pids = [s.proc.pid for s in servers if s.proc is not None]
                r = asyncio.run(step([s.url for s in servers], pids, n, args.rate,
                                     args.seconds, args.seed,
                                     redis.proc.pid if redis and redis.proc else None))
            print(f"| {p} | {r['tables']:.0f} | {r['connections']:.0f} | {r['actions_s']:.0f} | "
                  f"{r['p50_ms']:.1f} | {r['p99_ms']:.1f} | {r['errors']:.0f} | "
                  f"{r['cpu_pct']:.0f} | {r['redis_cpu_pct']:.0f} | {r['kb_per_table']:.0f} | "
                  f"{r['client_cpu_pct']:.0f} |"
                  + (f" errors: {r['reasons']}" if r["reasons"] else ""), flush=True)
            if knees.get(p) is None and r["p99_ms"] > 100:
                knees[p] = n
    for p in counts:
        print(f"{p} process(es): knee (first step with p99 > 100 ms): "
              f"{knees.get(p) or 'not reached'}")


if __name__ == "__main__":
    main()
