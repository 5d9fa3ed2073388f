"""Progressive Pitch on the server: "all tables stop when the head table finishes a round"
(issue 34, docs/tournaments.md).  One in-process server; one round of three hands.

The deal is chosen by who holds a seat: every player is a no-show (a bot plays) but one at
table 1, who holds that table inside its first hand.  The head table plays its three hands and
ends; table 1 is then stopped — its hand in play is its last — and only when the director
marks the held player a no-show does that hand end, the round with it.  The standings are
checked against the core fed the tables' stored logs.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

import test_server_tournaments as base
from pitchcards.server.tournament_rounds import ProgressiveRounds
from pitchcards.tournament import Progressive, TournamentError
from server_helpers import FAST, app_fixture
from test_server_tournament_formats import noshow, rounds_of, start, stored, table_results
from test_server_tournaments import _fresh_address  # noqa: F401 - each test's address clean

server = app_fixture()


def test_the_other_tables_stop_when_the_head_table_finishes(server: Any) -> None:
    url = server.url
    made = base.create(url, format="progressive", rounds=1, boards_per_round=3,
                  settings={**FAST, "grace": 3600})  # a held seat waits for its player
    tid, director = made["tournament"], made["director_token"]
    players = [f"P{i}" for i in range(8)]  # two tables of four
    for name in players:
        base.register(url, tid, name)
    tables = start(url, tid, director)["tables"]
    held = tables[1]["seats"][0]
    noshow(url, tid, director, *(p for p in players if p != held))
    head, foot = tables[0]["id"], tables[1]["id"]

    def head_over() -> bool:
        return bool(httpx.get(f"{url}/api/tables/{head}", timeout=30).json()["status"]
                    == "over")

    base.wait_until(head_over, "the head table's three hands")
    # the foot table is told to stop, but its hand in play waits for the held player
    base.wait_until(lambda: base.stored_hands(server.args.db, [foot])[foot].stopped,
                    "the stop")
    assert base.info(url, tid)["status"] == "running"
    assert httpx.get(f"{url}/api/tables/{foot}", timeout=30).json()["status"] == "playing"
    noshow(url, tid, director, held)
    final = base.wait_until(lambda: (i := base.info(url, tid))["status"] == "over" and i,
                            "the end")

    hands = base.stored_hands(server.args.db, [head, foot])
    assert len(hands[head].table.session.hands) == 3
    assert len(hands[foot].table.session.hands) == 1  # stopped inside its first hand
    seed, entries = stored(server, tid)
    (results,) = [table_results(server, ids) for ids in rounds_of(entries).values()]
    night = Progressive(players, seed=seed)
    assert [tuple(t["entrants"]) for t in tables] == list(night.tables)
    night.record_round(results)
    assert [(s["entrant"], s["matchpoints"]) for s in final["standings"]] \
        == [(s.entrant, str(s.score)) for s in night.standings()]


def test_a_stopped_table_counts_the_hands_it_finished_and_the_head_plays_them_all() -> None:
    rounds = ProgressiveRounds(Progressive([f"P{i}" for i in range(9)], seed=3), 3, 2)
    rounds.begin(0)  # a table of four, then one of five
    with pytest.raises(TournamentError, match="plays 3 hands"):
        rounds.record(0, 0, [[1, 0]])  # the head table plays every hand of the round
    with pytest.raises(TournamentError, match="at most 3 hands of 5 sides"):
        rounds.record(0, 1, [[1, 0]])
    rounds.record(0, 1, [])  # stopped before it finished a hand: no points
    rounds.record(0, 0, [[1, 0], [0, 2], [3, 0]])
    assert rounds.round_complete(0)
    assert rounds.night.scores == {**{n: 0 for n in rounds.night.scores},
                                   **{n: 4 if s % 2 == 0 else 2 for s, n in enumerate(
                                       rounds.plans(0)[0].seats)}}
