"""The arena on a Ray cluster against the local process pool (issue 37): what Ray costs, and what
64 workers would give.

    .venv/bin/python benchmarks/bench_cluster.py [--games 100] [--rounds 3] [--tiny 2000]
                                                 [--bots heuristic,random]

Needs the ``[cluster]`` extra.  One Ray cluster with two CPUs is started on this machine (its
temporary files in a fresh folder, not the shared ``/tmp/ray``) and kept for every round; each
round, alternating, plays the same ``--games`` duplicate games of ``auction-partners`` between
``--bots`` (seed 1) four ways: the process pool with 1 and 2 jobs, and the cluster with 1 and 2
workers, checking that all four give the same results.  Ray starts its workers at nice 15
(``RAY_worker_niceness``), below every other process of a shared machine; run with
``RAY_worker_niceness=0`` to compare the pool and the cluster on equal terms.  Then ``--tiny``
jobs that do nothing go through the pool and the cluster (two workers), for the per-job
overhead.  Printed: games per
second and the speed-up of two workers over one (medians of the rounds), the cluster's start
and stop, the overhead per tiny job, what the cluster adds to the arena, and the arena on paper
for 64 workers: a driver hands out and collects one job each *overhead* seconds while each
worker plays a game each *game* seconds, so the games per second are at most
``min(workers / game, 1 / overhead)``.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import logging
import os
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from typing import Any

import ray

from pitchcards.bots import ray_cluster
from pitchcards.bots.arena import ArenaResult, run_arena

VARIANT = "auction-partners"


def nothing(item: int) -> int:
    """The tiny job: no work, so its time is all overhead."""
    return item


def niceness(_: int) -> int:
    """The niceness of the process running this job."""
    return os.nice(0)


def same_results(a: ArenaResult, b: ArenaResult) -> bool:
    """The arena's results without its timings (elapsed, jobs, decision times)."""
    def strip(r: ArenaResult) -> dict[str, Any]:
        d = r.to_dict()
        d["stats"] = [{k: v for k, v in s.items() if k not in ("ms_median", "ms_p99")}
                      for s in d["stats"]]
        return {k: v for k, v in d.items() if k not in ("elapsed", "jobs")}
    return strip(a) == strip(b)


def per_job_us(run: Callable[[], object], jobs: int) -> float:
    t = time.perf_counter()
    run()
    return (time.perf_counter() - t) / jobs * 1e6


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=100, help="duplicate games per arena")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--tiny", type=int, default=2000, help="tiny jobs per overhead round")
    ap.add_argument("--bots", default="heuristic,random")
    a = ap.parse_args(argv)
    bots = a.bots.split(",")
    temp = tempfile.mkdtemp(prefix="ray")
    t = time.perf_counter()
    ray.init(address="local", num_cpus=2, include_dashboard=False, _temp_dir=temp,
             logging_level=logging.WARNING, log_to_driver=False)
    started = time.perf_counter() - t
    try:
        nice = next(ray_cluster.as_completed(niceness, [0], 1))
        rate: dict[str, list[float]] = {}
        wall: dict[str, list[float]] = {}
        reference: ArenaResult | None = None
        for _ in range(a.rounds):
            for where, jobs in (("pool", 1), ("ray", 1), ("pool", 2), ("ray", 2)):
                t = time.perf_counter()
                r = run_arena(VARIANT, bots, games=a.games, seed=1, jobs=jobs,
                              cluster="auto" if where == "ray" else None)
                wall.setdefault(f"{where} {jobs}", []).append(time.perf_counter() - t)
                rate.setdefault(f"{where} {jobs}", []).append(
                    r.games * r.seatings / r.elapsed)
                reference = reference or r
                assert same_results(r, reference), f"{where} with {jobs} gave other results"
        tiny: dict[str, list[float]] = {"pool": [], "ray": []}
        items = list(range(a.tiny))
        with concurrent.futures.ProcessPoolExecutor(2) as pool:
            list(pool.map(nothing, items[:8]))  # the workers started
            for _ in range(a.rounds):
                tiny["pool"].append(per_job_us(lambda: list(pool.map(nothing, items)), a.tiny))
                tiny["ray"].append(per_job_us(
                    lambda: list(ray_cluster.as_completed(nothing, items, 4)), a.tiny))
    finally:
        t = time.perf_counter()
        ray.shutdown()
        stopped = time.perf_counter() - t
        shutil.rmtree(temp, ignore_errors=True)
    assert reference is not None
    games = reference.games * reference.seatings
    med = {k: statistics.median(v) for k, v in rate.items()}
    print(f"# {a.games} duplicate games ({games} games) of {VARIANT}, {' vs '.join(bots)}, "
          f"seed 1; {a.rounds} alternating rounds, medians; all four gave the same results")
    print(f"{'where':10s} {'workers':>7s} {'games/s':>8s} {'wall s':>7s} {'speed-up':>8s}")
    for key in ("pool 1", "pool 2", "ray 1", "ray 2"):
        where, jobs = key.split()
        one = med[f"{where} 1"]
        print(f"{where:10s} {jobs:>7s} {med[key]:8.2f} {statistics.median(wall[key]):7.2f} "
              f"{med[key] / one:8.2f}")
    print(f"ray / pool games/s: 1 worker {med['ray 1'] / med['pool 1']:.3f}, "
          f"2 workers {med['ray 2'] / med['pool 2']:.3f}")
    over = {k: statistics.median(v) for k, v in tiny.items()}
    print(f"\n# {a.tiny} tiny jobs, 2 workers, medians of {a.rounds} rounds")
    print(f"per job: pool {over['pool']:.0f} us, ray {over['ray']:.0f} us "
          f"(ray / pool {over['ray'] / over['pool']:.2f})")
    print(f"cluster start {started:.1f} s, stop {stopped:.1f} s; its workers at nice {nice} "
          "(RAY_worker_niceness, Ray's default 15: on a busy shared machine they get less CPU "
          "than the pool's processes at nice 0)")
    game_s = 1 / med["pool 1"]
    added = (statistics.median(wall["ray 2"]) - statistics.median(wall["pool 2"])
             + started + stopped)
    print(f"\n# what the cluster adds to this arena ({games} games, 2 workers): "
          f"{added:+.1f} s with its start and stop, "
          f"{statistics.median(wall['ray 2']) - statistics.median(wall['pool 2']):+.1f} s "
          f"on a running cluster")
    overhead_s = over["ray"] / 1e6
    print(f"\n# on paper, 64 workers: a game {game_s * 1e3:.0f} ms (pool, 1 worker), "
          f"Ray's overhead {overhead_s * 1e6:.0f} us a job (driver-bound)")
    for label, per_game in (("these games", game_s), ("expert vs heuristic (0.85 s a game)", 0.85)):
        rate64 = min(64 / per_game, 1 / overhead_s)
        print(f"{label:36s} {rate64:8.1f} games/s = {rate64 * per_game:5.1f}x one worker "
              f"({'workers' if 64 / per_game < 1 / overhead_s else 'driver'} the limit); "
              f"1000 games in {1000 / rate64 + started:.0f} s with the start")


if __name__ == "__main__":
    main()
