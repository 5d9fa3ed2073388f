"""The tournament formats' own work for a large room: pairing, moving and ranking.

What a director's server does between the last table's end and the next round's deal, without
the server: Swiss pairing (pairs and cutthroat), the progressive movement, and duplicate
standings (the barometer), for 40 tables (160 seats) by default, results drawn from a seeded
random.Random.  Prints a table: per round, the median and the slowest time, and how many
rounds had to repeat a meeting.

    .venv/bin/python benchmarks/bench_tournament.py              # 40 tables, 7 rounds
    .venv/bin/python benchmarks/bench_tournament.py --tables 2 --rounds 2
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import time
from collections.abc import Callable
from functools import partial

from pitchcards.tournament import Duplicate, Progressive, Swiss


def _timed(step: Callable[[], object]) -> float:
    start = time.perf_counter()
    step()
    return (time.perf_counter() - start) * 1000


def swiss(entrants: int, rounds: int, table_size: int, rng: random.Random) -> tuple[list[float],
                                                                                       int]:
    event = Swiss([f"e{i}" for i in range(entrants)], rounds=rounds, table_size=table_size,
                  seed=rng.randrange(2**32))
    times: list[float] = []
    repeats = 0
    for _ in range(rounds):
        met = {n: set(s) for n, s in event.met.items()}
        times.append(_timed(event.pair))
        seating = event.pair()
        repeats += any(b in met[a] for t in seating.tables
                       for a, b in itertools.combinations(t, 2))
        event.record([[rng.randrange(12) for _ in t] for t in seating.tables])
    return times, repeats


def progressive(players: int, rounds: int, rng: random.Random) -> list[float]:
    night = Progressive([f"p{i}" for i in range(players)], seed=rng.randrange(2**32))
    times: list[float] = []
    for _ in range(rounds):
        results = [[rng.randrange(12) for _ in range(2 if len(t) == 4 else len(t))]
                   for t in night.tables]
        times.append(_timed(partial(night.record_round, results)))
    return times


def duplicate(tables: int, rounds: int, boards: int, rng: random.Random) -> list[float]:
    event = Duplicate([f"pair {i}" for i in range(2 * tables)], boards_per_round=boards,
                      rounds=min(rounds, tables), seed=rng.randrange(2**32))
    times: list[float] = []
    for r in range(event.rounds):
        for play in event.schedule:
            if play.round == r:
                event.record(play.board.number, play.table,
                             (rng.randrange(-4, 5), rng.randrange(-4, 5)))
        times.append(_timed(partial(event.standings, through_round=r)))
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=40, help="tables of four (default 40)")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    seats = 4 * args.tables
    rows: list[tuple[str, list[float], str]] = []
    times, repeats = swiss(2 * args.tables, args.rounds, 2, rng)
    rows.append((f"Swiss pairs, {2 * args.tables} pairs: pair()", times,
                 f"{repeats} with a repeat"))
    times, repeats = swiss(seats, args.rounds, 4, rng)
    rows.append((f"Swiss cutthroat, {seats} players: pair()", times,
                 f"{repeats} with a repeat"))
    rows.append((f"progressive, {seats} players: record_round()",
                 progressive(seats, args.rounds, rng), ""))
    dup_tables = min(args.tables, 10)
    rows.append((f"duplicate, {dup_tables} tables x 3 boards: standings()",
                 duplicate(dup_tables, args.rounds, 3, rng), ""))
    print(f"tournament formats: {args.tables} tables ({seats} seats), {args.rounds} rounds, "
          f"seed {args.seed}")
    print(f"| {'step':<48} | rounds | median ms | max ms | note |")
    print(f"|{'-' * 50}|--------|-----------|--------|------|")
    for name, values, note in rows:
        print(f"| {name:<48} | {len(values):>6} | {statistics.median(values):>9.2f} | "
              f"{max(values):>6.2f} | {note} |")


if __name__ == "__main__":
    main()
