"""A table answers while its bots think (issue 29): the time from a person's message to its
answer at a table where three experts think, on this checkout's server and, with
``--server-src``, on another checkout's (before/after, one run).

One table: Ann (this script) at seat 0 and three ``expert`` bots at their full budget, no bot
delay or hand pause, so an expert is nearly always thinking.  Ann plays a random legal action
on her turns; meanwhile a second socket of hers sends, ``--rate`` times a second:

an action decided on a position long gone (``seq`` 0), which the table refuses as ``stale``
under the room's lock — the answer's time is the lock's wait; and a spectator connects (its
welcome, also under the lock) once a second.  (A chat is not measured: it takes no lock, and
its limit of 20 a minute would refuse the probes.)  Printed: count,
median and p99 (ms) of each, per server.

    .venv/bin/python benchmarks/bench_thinking.py --seconds 20
    git worktree add /tmp/old main
    .venv/bin/python benchmarks/bench_thinking.py --seconds 20 --server-src /tmp/old/src

Timing is never asserted anywhere: this prints a table (docs/server.md quotes it).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from pitchcards.client import Client
from server_helpers import QUICK_LIMITS, free_port

HERE = Path(__file__).resolve().parent.parent / "src"


def start_server(src: Path, workdir: Path) -> tuple[subprocess.Popen[bytes], str]:
    """``pitch serve`` from the package in ``src`` on a new SQLite file."""
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(src), XDG_DATA_HOME=str(workdir / "data"))
    log = open(workdir / "server.log", "ab")  # noqa: SIM115 - closed with the process
    proc = subprocess.Popen(
        [sys.executable, "-m", "pitchcards.cli", "serve", "--port", str(port),
         "--db", f"sqlite:///{workdir / 'bench.db'}", "--log-level", "warning", *QUICK_LIMITS],
        stdout=log, stderr=subprocess.STDOUT, env=env, stdin=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    for _ in range(600):
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                return proc, url
        time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start: " + (workdir / "server.log").read_text())


async def measure(url: str, seconds: float, rate: float, seed: int) -> dict[str, list[float]]:
    rng = random.Random(seed)
    out: dict[str, list[float]] = {"stale action": [], "spectator welcome": []}
    async with Client(url) as api:
        ann = await api.create_table("Ann", bots={1: "expert", 2: "expert", 3: "expert"},
                                     settings={"bot_delay": 0, "hand_pause": 0})
        await api.start(ann)
        async with await api.connect(ann) as table, await api.connect(ann) as probe:
            end = time.perf_counter() + seconds

            async def play() -> None:
                while time.perf_counter() < end and not table.over:
                    view = await table.my_turn(timeout=60)
                    if view is None:
                        return
                    await table.act(str(rng.choice(view.legal_actions)))

            async def probe_loop() -> None:
                while time.perf_counter() < end and not table.over:
                    await asyncio.sleep(1 / rate)
                    errors = len(probe.errors)
                    t0 = time.perf_counter()
                    await probe.send({"type": "act", "action": "pass", "seq": 0})
                    await probe.wait_for(lambda: len(probe.errors) > errors, 60)  # noqa: B023
                    out["stale action"].append(time.perf_counter() - t0)

            async def watch_loop() -> None:
                while time.perf_counter() < end and not table.over:
                    await asyncio.sleep(1.0)
                    t0 = time.perf_counter()
                    async with await api.connect(table=ann.table) as spectator:
                        await spectator.wait_for(lambda: bool(spectator.info), 60)
                        out["spectator welcome"].append(time.perf_counter() - t0)

            await asyncio.gather(play(), probe_loop(), watch_loop())
    return out


def p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100)[98] if len(values) >= 2 else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="measured time per server")
    parser.add_argument("--rate", type=float, default=10.0, help="probes a second")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--server-src", type=Path, default=None, metavar="OLD/src",
                        help="also measure the server of another checkout (its src folder)")
    args = parser.parse_args()
    runs = [("this checkout", HERE)]
    if args.server_src is not None:
        runs.insert(0, (f"{args.server_src}", args.server_src.resolve()))
    print(f"3 experts thinking, {args.seconds:.0f} s per server, {args.rate:.0f} probes/s\n")
    print(f"{'server':<28} {'message':<18} {'n':>5} {'median ms':>10} {'p99 ms':>8}")
    for label, src in runs:
        with tempfile.TemporaryDirectory() as tmp:
            proc, url = start_server(src, Path(tmp))
            try:
                got = asyncio.run(measure(url, args.seconds, args.rate, args.seed))
            finally:
                proc.terminate()
                proc.wait(10)
        for kind, values in got.items():
            median = statistics.median(values) * 1000 if values else float("nan")
            print(f"{label:<28} {kind:<18} {len(values):>5} {median:>10.1f} "
                  f"{p99(values) * 1000:>8.1f}")


if __name__ == "__main__":
    main()
