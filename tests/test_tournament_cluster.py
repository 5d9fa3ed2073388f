"""A tournament shared by two processes (issue 34, "several processes share a tournament like a
table"): two ``pitch serve`` processes on one PostgreSQL database and a Redis of the test's own.

The first process starts a progressive night and so holds its tables.  One player holds a seat
at table 1 (everyone else is a no-show: bots play), so round 0 cannot end while the test acts.
The head table finishes and table 1 is stopped; then the first process is killed (kill -9).
The director marks the held player a no-show on the second process, which takes the dead
process's tables over (their locks went with its database session; it resumes the running
tournaments every two seconds), finishes round 0, opens round 1 and plays it to the end.  The
stored events hold each step once: one ``round`` a round, one ``result`` a table, one ``over``
(the events are fenced on their version, like a table's log)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import httpx
import pytest

from cluster_helpers import running_cluster
from pitchcards.server.store import Store
from pitchcards.server.tournament_store import TournamentStore
from server_helpers import FAST
from test_server_tournaments import wait_until

pytestmark = pytest.mark.timeout(180)

def test_a_round_goes_on_when_the_process_holding_it_is_killed(tmp_path: Path) -> None:
    with running_cluster(tmp_path, n=2) as cluster:
        first, second = cluster.servers
        made = httpx.post(f"{first.url}/api/tournaments", json={
            "name": "Dora", "format": "progressive", "rounds": 2, "boards_per_round": 1,
            "pause": 0, "fill": "random", "settings": {**FAST, "grace": 3600}},
            timeout=30).json()
        tid, director = made["tournament"], made["director_token"]
        auth = {"Authorization": f"Bearer {director}"}
        players = [f"P{i}" for i in range(8)]
        for name in players:
            httpx.post(f"{first.url}/api/tournaments/{tid}/entries", json={"names": [name]},
                       timeout=30).raise_for_status()
        started = httpx.post(f"{first.url}/api/tournaments/{tid}/start", headers=auth,
                             timeout=30).json()
        head, foot = (t["id"] for t in started["tables"])
        held = started["tables"][1]["seats"][0]
        for name in players:
            if name != held:
                httpx.post(f"{first.url}/api/tournaments/{tid}/noshow", json={"name": name},
                           headers=auth, timeout=30).raise_for_status()
        wait_until(lambda: any(e.get("op") == "stop" for _, e in cluster.log_entries(foot)),
              "the head table's end, and table 1 stopped")
        first.kill9()

        reply = httpx.post(f"{second.url}/api/tournaments/{tid}/noshow", json={"name": held},
                           headers=auth, timeout=30)
        assert reply.status_code == 200, reply.text
        final = wait_until(lambda: (i := httpx.get(f"{second.url}/api/tournaments/{tid}",
                                              timeout=30).json())["status"] == "over" and i,
                      "the night's end on the second process")
        assert final["round"] == 1 and len(final["standings"]) == 8

        store = Store(cluster.db_url)
        try:
            stored = TournamentStore(store).load(tid)
        finally:
            store.close()
        assert stored is not None
        steps = Counter(
            (e["op"], e.get("round"), e.get("table")) for e in stored.entries
            if e["op"] in ("round", "result", "over"))
        assert set(steps.values()) == {1}, steps  # each step written once
        assert {k for k in steps if k[0] == "result"} == {
            ("result", r, t) for r in (0, 1) for t in (0, 1)}
        for table_id in (head, foot):  # each table's log whole: n = 1, 2, 3 …
            log = cluster.log_entries(table_id)
            assert [n for n, _ in log] == list(range(1, len(log) + 1))
        assert sum(e["op"] == "stop" for _, e in cluster.log_entries(foot)) == 1
