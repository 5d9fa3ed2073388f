"""Accounts and ratings under load on one process (issue 32, "Measured"): a leaderboard page
with many rated accounts and matches in the database, the cost the rating adds to a match's
end, and a sign-in.

The database is filled in bulk (``--accounts`` accounts each with a rating in every pool,
``--matches`` rated matches of four players each in ``rated_matches``/``rating_changes``), then:

* ``GET /api/leaderboards/{pool}`` through the app (FastAPI's TestClient, in process), and
  ``GET /api/players/{name}``: p50 and p99 of ``--reads`` requests;
* rating a 2×2 match (:func:`rate_match_once`: claim the key, lock four rows, OpenSkill, write)
  against an empty transaction on the same database: p50, p99 and the difference, which is what
  the rating adds to the transaction that records a match's end;
* the same with the four players' statistics added (:func:`add_stats`), as a ranked table's
  end runs it;
* ``POST /api/session`` (an Argon2id check): p50 and p99.

    .venv/bin/python benchmarks/bench_ratings.py                       # 10,000 and 100,000
    .venv/bin/python benchmarks/bench_ratings.py --db postgres
    .venv/bin/python benchmarks/bench_ratings.py --accounts 20 --matches 50 --reads 5   # smoke

Timing is never asserted anywhere: this prints a table (docs/accounts.md quotes it).
"""

from __future__ import annotations

import argparse
import contextlib
import random
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from fastapi.testclient import TestClient
from sqlalchemy import text

from pitchcards.play_stats import Stats
from pitchcards.server import ServerConfig, create_app
from pitchcards.server import account_store as db
from pitchcards.server.rating_store import rate_match, rate_match_once
from pitchcards.server.ratings import POOLS
from pitchcards.server.stat_store import add_stats

ORIGIN = {"Origin": "http://127.0.0.1:8000"}


@contextlib.contextmanager
def _database(kind: str) -> Iterator[str]:
    if kind == "postgres":
        from server_helpers import postgres_database

        with postgres_database() as url:
            yield url
    else:
        with tempfile.TemporaryDirectory() as folder:
            yield f"sqlite:///{folder}/bench.db"


def _fill(engine: object, accounts: int, matches: int, rng: random.Random) -> list[str]:
    """Accounts with a rating in every pool (most settled), and rated matches of four."""
    ids = [uuid.uuid4().hex for _ in range(accounts)]
    now = time.time()
    with engine.begin() as conn:  # type: ignore[attr-defined]
        conn.execute(db.accounts.insert(), [
            {"id": a, "name": f"Player {n}", "name_key": f"player {n}", "password_hash": "x",
             "bot_level": None, "created": now} for n, a in enumerate(ids)])
        conn.execute(db.ratings.insert(), [
            {"account_id": a, "pool": pool, "mu": rng.gauss(25, 4),
             "sigma": rng.uniform(2, 8.3), "matches": rng.randrange(1, 200),
             "updated": now - rng.uniform(0, 200 * 86400)} for a in ids for pool in POOLS])
        pools = list(POOLS)
        for start in range(0, matches, 5000):
            batch = range(start, min(matches, start + 5000))
            keys = [f"table:{uuid.uuid4().hex}" for _ in batch]
            conn.execute(db.rated_matches.insert(), [
                {"key": k, "pool": rng.choice(pools), "at": now} for k in keys])
            conn.execute(db.rating_changes.insert(), [
                {"match_key": k, "account_id": rng.choice(ids), "side": seat // 2,
                 "place": seat // 2, "mu_before": 25.0, "sigma_before": 8.0, "mu_after": 25.5,
                 "sigma_after": 7.9} for k in keys for seat in range(4)])
    with engine.connect().execution_options(  # type: ignore[attr-defined]
            isolation_level="AUTOCOMMIT") as conn:
        conn.execute(text("ANALYZE"))  # the planner's statistics, as autovacuum would make
    return ids


def _times(fn: Callable[[], object], n: int) -> list[float]:
    out = []
    for _ in range(n):
        began = time.perf_counter()
        fn()
        out.append((time.perf_counter() - began) * 1000)
    return out


def _row(what: str, ms: list[float]) -> str:
    ms = sorted(ms)
    p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))]
    return f"| {what} | {len(ms)} | {statistics.median(ms):.2f} | {p99:.2f} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--accounts", type=int, default=10_000)
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--reads", type=int, default=300)
    parser.add_argument("--rates", type=int, default=300)
    parser.add_argument("--sign-ins", type=int, default=30)
    args = parser.parse_args()
    rng = random.Random(32)
    with _database(args.db) as url:
        config = ServerConfig(db_url=url, http_reads_per_minute=10**9,
                              sign_ins_per_minute=10**9, sign_ins_per_hour_per_account=10**9)
        app = create_app(config)
        with TestClient(app, client=("10.0.0.1", 50000)) as client:
            engine = app.state.hub.store.engine
            began = time.perf_counter()
            ids = _fill(engine, args.accounts, args.matches, rng)
            filled = time.perf_counter() - began
            client.post("/api/accounts", json={"name": "Bench", "password": "bench password"},
                        headers=ORIGIN)
            rows = []
            rows.append(_row("GET /api/leaderboards/four-point-partners", _times(
                lambda: client.get("/api/leaderboards/four-point-partners"), args.reads)))
            rows.append(_row("GET /api/players/{name}", _times(
                lambda: client.get(f"/api/players/Player {rng.randrange(args.accounts)}"),
                args.reads)))

            def rate() -> None:
                four = rng.sample(ids, 4)
                rate_match_once(engine, f"table:{uuid.uuid4().hex}", "four-point-partners",
                                [(four[:2], 0), (four[2:], 1)])

            def empty() -> None:
                with engine.begin():
                    pass

            def rate_and_count() -> None:
                # what a ranked table's end runs: the rating and the players' statistics
                four = rng.sample(ids, 4)
                with engine.begin() as conn:
                    if rate_match(conn, f"table:{uuid.uuid4().hex}", "four-point-partners",
                                  [(four[:2], 0), (four[2:], 1)]) is not None:
                        add_stats(conn, "four-point-partners",
                                  {a: Stats(hands=9, points=5, bids=2, made=1) for a in four})

            rated, bare = _times(rate, args.rates), _times(empty, args.rates)
            counted = _times(rate_and_count, args.rates)
            rows.append(_row("rate a 2x2 match (its own transaction)", rated))
            rows.append(_row("rate it and add the 4 players' statistics", counted))
            rows.append(_row("an empty transaction", bare))
            rows.append(_row("POST /api/session (Argon2id)", _times(
                lambda: client.post("/api/session", json={"name": "Bench",
                                                          "password": "bench password"},
                                    headers=ORIGIN), args.sign_ins)))
    print(f"{args.db}: {args.accounts:,} accounts (a rating in each of {len(POOLS)} pools), "
          f"{args.matches:,} rated matches of four; filled in {filled:.1f} s\n")
    print("| what | n | p50 ms | p99 ms |\n|---|---|---|---|")
    print("\n".join(rows))
    print(f"\nthe rating adds {statistics.median(rated) - statistics.median(bare):.2f} ms "
          "(p50) to the transaction that records a match's end; with the statistics "
          f"{statistics.median(counted) - statistics.median(bare):.2f} ms")


if __name__ == "__main__":
    main()
