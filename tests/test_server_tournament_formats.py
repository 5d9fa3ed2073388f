"""Progressive and Swiss tournaments on the server (issue 34): ``/api/tournaments`` with
``format`` ``progressive`` and ``swiss``, against one in-process server on a real SQLite file.

Cheap by design: one hand a round, two rounds, random bots in every seat (the registered
players are marked no-shows, so the rounds run themselves) — but for the one player who holds
a round while a late arrival registers.  Each event's standings and seatings are worked out
again by the core from the tables' stored logs and the tournament's stored seed, and every
path a stranger or a player may take is checked for cards (each table is dealt hands of its
own: none of another table's may reach a player before the tournament is over).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx

from account_helpers import app_client
from pitchcards.cards import format_cards
from pitchcards.server.store import Store
from pitchcards.server.tournament_state import TournamentState
from pitchcards.server.tournament_store import StoredTournament, TournamentStore
from pitchcards.tournament import Progressive, Swiss
from server_helpers import FAST, RawReply, app_fixture, hello, raw_socket
from test_server_tournaments import (  # _fresh_address: every test's address starts clean
    _fresh_address,  # noqa: F401
    another_table_played,
    assert_no_cards_in_answers,
    auth,
    card_words,
    create,
    info,
    played_mask,
    register,
    stored_hands,
    wait_until,
)

server = app_fixture()


def noshow(url: str, tid: str, director: str, *names: str) -> None:
    for name in names:
        httpx.post(f"{url}/api/tournaments/{tid}/noshow", json={"name": name},
                   headers=auth(director), timeout=30).raise_for_status()


def start(url: str, tid: str, director: str) -> dict[str, Any]:
    reply = httpx.post(f"{url}/api/tournaments/{tid}/start", headers=auth(director),
                       timeout=30)
    assert reply.status_code == 200, reply.text
    return dict(reply.json())


def stored_tournament(server: Any, tid: str) -> StoredTournament:
    store = Store(server.args.db)
    try:
        found = TournamentStore(store).load(tid)
        assert found is not None
        return found
    finally:
        store.close()


def stored(server: Any, tid: str) -> tuple[int, list[dict[str, Any]]]:
    """The tournament's secret seed and its events, as stored."""
    found = stored_tournament(server, tid)
    return found.seed, found.entries


def table_results(server: Any, table_ids: list[str]) -> list[list[int]]:
    """Each table's total score change per side over its hands, from its stored log."""
    states = stored_hands(server.args.db, table_ids)
    out = []
    for table_id in table_ids:
        hands = states[table_id].table.session.hands
        assert states[table_id].status == "over"
        out.append([sum(side) for side in zip(*(h.result.deltas for h in hands), strict=True)])
    return out


def rounds_of(entries: list[dict[str, Any]]) -> dict[int, list[str]]:
    return {e["round"]: e["tables"] for e in entries if e["op"] == "round"}


def test_a_progressive_night_with_a_late_arrival_to_its_standings(server: Any) -> None:
    url = server.url
    made = create(url, format="progressive", rounds=2, boards_per_round=1,
                  settings={**FAST, "grace": 3600})
    tid, director = made["tournament"], made["director_token"]
    players = [f"P{i}" for i in range(9)]  # tables of four and five
    for name in players:
        register(url, tid, name)
    noshow(url, tid, director, *players[1:])  # P0 holds round 0: her seat waits for her
    started = start(url, tid, director)
    assert started["bots"] == [] and sorted(len(t["seats"]) for t in started["tables"]) == [4, 5]
    late = register(url, tid, "Zed")
    assert late["from_round"] == 1 and late["entrant"] == "Zed"
    assert httpx.get(f"{url}/api/tournaments/{tid}/me", headers=auth(late["tokens"]["Zed"]),
                     timeout=30).json()["table_id"] is None
    noshow(url, tid, director, "P0", "Zed")
    final = wait_until(lambda: (i := info(url, tid))["status"] == "over" and i, "the end")

    # the night again, by the core, from the stored seed and the tables' logs
    seed, entries = stored(server, tid)
    rounds = rounds_of(entries)
    night = Progressive(players, seed=seed)
    night.arrive("Zed")
    seatings = []
    for round_ in (0, 1):
        seatings.append(night.tables)
        night.record_round(table_results(server, rounds[round_]))
    assert [len(t) for t in seatings[1]] == [4, 3, 3]  # ten players: a four and two threes
    assert final["tables"] and [tuple(t["entrants"]) for t in final["tables"]] \
        == list(seatings[1])
    expected = [(s.rank, s.entrant, str(s.score), s.played) for s in night.standings()]
    got = [(s["rank"], s["entrant"], s["matchpoints"], s["boards"])
           for s in final["standings"]]
    assert got == expected
    assert "Zed (from round 2)" in {s["shown"] for s in final["standings"]}
    # a restarted server rebuilds the same night from the stored events alone
    again = TournamentState(stored_tournament(server, tid))
    assert [(p.seats, p.boards) for r in (0, 1) for p in again.plans_of(r)] \
        == [(tuple(s), p.boards) for r in (0, 1) for s, p in zip(
            seatings[r], again.plans_of(r), strict=True)]
    assert [s.entrant for s in again.standings()] == [s["entrant"] for s in final["standings"]]
    # the tables of three and five play the odd-table variant, each for himself
    odd = httpx.get(f"{url}/api/tables/{rounds[0][1]}", timeout=30).json()
    assert odd["variant"] == "auction" and len(odd["seats"]) == 5, odd
    # over: every table's hands, face up
    hands = httpx.get(f"{url}/api/tournaments/{tid}/boards", timeout=30).json()
    assert [(h["round"], h["table"]) for h in hands] == [(0, 0), (0, 1), (1, 0), (1, 1), (1, 2)]
    assert all(len(h["hands"][0]["hands"]) == len(h["seats"]) for h in hands)


def test_the_boards_show_only_played_cards_never_a_ten_point_discard(server: Any) -> None:
    # issue 31, finding 9: a card never played (ten-point's three discards a seat) is never
    # public, not even on the tournament's boards once it is over
    url = server.url
    made = create(url, format="progressive", variant="ten-point", rounds=1,
                  boards_per_round=1, settings={**FAST, "grace": 3600})
    tid, director = made["tournament"], made["director_token"]
    players = [f"T{i}" for i in range(4)]
    for name in players:
        register(url, tid, name)
    noshow(url, tid, director, *players)
    start(url, tid, director)
    wait_until(lambda: info(url, tid)["status"] == "over", "the end")
    table_id = rounds_of(stored(server, tid)[1])[0][0]
    hand = stored_hands(server.args.db, [table_id])[table_id].table.session.hands[0]
    discarded = {a.card for _, a in hand.history if a.kind == "discard"}
    assert len(discarded) >= 4 * 3  # the deal had discards to hide
    tables = httpx.get(f"{url}/api/tournaments/{tid}/boards", timeout=30).json()
    table = tables[0]  # (bots fill the progressive's second table)
    assert (table["round"], table["table"]) == (0, 0)
    shown = table["hands"][0]["hands"]
    played = played_mask(hand)
    assert shown == [format_cards(m & played) for m in hand.dealt]
    assert not {format_cards(1 << c) for c in discarded} & card_words(shown)


def test_a_swiss_of_pairs_with_a_bye_never_repeats_and_ranks_as_the_core(server: Any) -> None:
    url = server.url
    made = create(url, format="swiss", rounds=2, boards_per_round=1,
                  settings={**FAST, "grace": 3600})  # round 0 waits for its players
    tid, director = made["tournament"], made["director_token"]
    names = [("A1", "A2"), ("B1", "B2"), ("C1", "C2"), ("D1", "D2"), ("E1", "E2")]
    tokens: dict[str, str] = {}
    for pair in names:
        tokens.update(register(url, tid, *pair)["tokens"])
    started = start(url, tid, director)
    assert len(started["tables"]) == 2 and len(started["byes"]) == 1
    assert all(len(t["seats"]) == 4 and t["entrants"][0] == t["entrants"][2]
               for t in started["tables"])
    sitting_out = started["byes"][0].split(" & ")[0]
    me = httpx.get(f"{url}/api/tournaments/{tid}/me", headers=auth(tokens[sitting_out]),
                   timeout=30).json()
    assert me["bye"] is True and me["table_id"] is None and me["round"] == 0, me
    noshow(url, tid, director, *(n for pair in names for n in pair))  # bots play it out

    final = wait_until(lambda: (i := info(url, tid))["status"] == "over" and i, "the end")

    seed, entries = stored(server, tid)
    rounds = rounds_of(entries)
    swiss = Swiss([" & ".join(p) for p in names], rounds=2, table_size=2, seed=seed)
    met: set[frozenset[str]] = set()
    byes = []
    for round_ in (0, 1):
        seating = swiss.pair()
        byes.extend(seating.byes)
        for table in seating.tables:
            assert frozenset(table) not in met  # no pairing repeats
            met.add(frozenset(table))
        swiss.record(table_results(server, rounds[round_]))
    assert len(set(byes)) == 2  # nobody sits out twice while another has not
    expected = [(s.rank, s.entrant, str(s.score)) for s in swiss.standings()]
    assert [(s["rank"], s["entrant"], s["matchpoints"]) for s in final["standings"]] \
        == expected


def test_a_cutthroat_swiss_seats_fours_and_threes(server: Any) -> None:
    url = server.url
    made = create(url, format="swiss", partnership=False, variant="auction", rounds=1,
                  boards_per_round=1, settings={**FAST})
    tid, director = made["tournament"], made["director_token"]
    players = [f"S{i}" for i in range(5)]
    for name in players:
        register(url, tid, name)
    noshow(url, tid, director, *players)
    started = start(url, tid, director)  # two bots: at least six, two threes
    assert started["bots"] == ["bot 1"]
    assert sorted(len(t["seats"]) for t in started["tables"]) == [3, 3]
    final = wait_until(lambda: (i := info(url, tid))["status"] == "over" and i, "the end")
    assert len(final["standings"]) == len(started["entrants"])
    assert {s["entrant"] for s in final["standings"] if s["bot"]} == set(started["bots"])


def test_variants_must_play_as_the_format_scores(server: Any) -> None:
    url = server.url
    for body in ({"format": "progressive", "variant": "auction"},      # cutthroat at four
                 {"format": "progressive", "odd_variant": "auction-partners"},  # not at 3, 5
                 {"format": "swiss", "variant": "auction"},            # pairs need partners
                 {"format": "swiss", "partnership": False, "variant": "auction-partners",
                  "odd_variant": "auction-partners"}):
        reply = httpx.post(f"{url}/api/tournaments", json={"name": "Dora", **body},
                           timeout=30)
        assert reply.status_code == 422, (body, reply.text)
        assert reply.json()["reason"] in ("bad_tournament", "bad_setup"), reply.text
    # a Swiss of pairs registers two names an entry, a progressive night one
    made = create(url, format="progressive")
    one = httpx.post(f"{url}/api/tournaments/{made['tournament']}/entries",
                     json={"names": ["Ann", "Bob"]}, timeout=30)
    assert one.status_code == 422 and "1 name an entry" in one.text, one.text


def test_no_other_tables_hands_reach_a_player_before_the_end(server: Any) -> None:
    """Ann's table of the Swiss waits for her; the other plays its hand to the end.  No path
    shows Ann (or a stranger) the other table's cards, and the two tables' hands differ."""
    url = server.url
    made = create(url, format="swiss", rounds=2, boards_per_round=1,
                  settings={**FAST, "grace": 3600})
    tid, director = made["tournament"], made["director_token"]
    ann = register(url, tid, "Ann", "Bob")["tokens"]["Ann"]
    register(url, tid, "Cy", "Di")
    noshow(url, tid, director, "Cy", "Di")
    started = start(url, tid, director)
    me, other, theirs = another_table_played(server, tid, ann, started["tables"])
    cards = card_words(theirs)
    reply: RawReply = asyncio.run(raw_socket(url, other, [], hello=hello(ann), quiet=5))
    assert reply.errors == ["bad_token"] and not reply.of_type("event")
    assert httpx.get(f"{url}/api/tables/{other}/results", timeout=30).status_code == 403
    assert httpx.get(f"{url}/api/tournaments/{tid}/boards", timeout=30).status_code == 409
    assert_no_cards_in_answers(url, tid, ann, cards)
    # Ann's own table holds other hands than the finished one (each table its own deal)
    mine = stored_hands(server.args.db, [me["table_id"]])[me["table_id"]].table.session.hands
    assert [format_cards(m) for m in mine[0].dealt] != theirs
    noshow(url, tid, director, "Ann", "Bob")
    wait_until(lambda: info(url, tid)["status"] == "over", "the end")


def test_a_late_entry_between_rounds_joins_the_next_seating_or_is_refused(server: Any) -> None:
    """Round 0 over, round 1 not yet open (an hour's pause): a Swiss pairs a late entry in
    round 1; a progressive night has seated round 1 already, so with two rounds there is no
    round left for a latecomer."""
    url = server.url
    for fmt, names, joins in (("swiss", ("Zed", "Yan"), 1), ("progressive", ("Zed",), None)):
        made = create(url, format=fmt, rounds=2, boards_per_round=1, pause=3600,
                      settings={**FAST})
        tid, director = made["tournament"], made["director_token"]
        start(url, tid, director)  # bots only: round 0 plays itself
        wait_until(lambda t=tid: (s := info(url, t)["standings"]) and s[0]["boards"] == 1,
                   "round 0's results")
        late = httpx.post(f"{url}/api/tournaments/{tid}/entries", json={"names": list(names)},
                          timeout=30)
        if joins is None:
            assert late.status_code == 409 and late.json()["reason"] == "bad_tournament", \
                late.text
        else:
            assert late.status_code == 201 and late.json()["from_round"] == joins, late.text


def test_a_progressive_night_goes_on_after_a_restart(tmp_path: Any) -> None:
    """The server stops mid-round (P0's table waits for her); a new one on the same database
    resumes the night from its events and tables, and it plays to its end."""
    db = f"sqlite:///{tmp_path / 'server.db'}"
    players = [f"P{i}" for i in range(8)]
    with app_client(db) as client:
        made = client.post("/api/tournaments", json={
            "name": "Dora", "format": "progressive", "rounds": 2, "boards_per_round": 1,
            "pause": 0, "fill": "random", "settings": {**FAST, "grace": 3600}}).json()
        tid, director = made["tournament"], auth(made["director_token"])
        for name in players:
            assert client.post(f"/api/tournaments/{tid}/entries",
                               json={"names": [name]}).status_code == 201
        for name in players[1:]:
            client.post(f"/api/tournaments/{tid}/noshow", json={"name": name},
                        headers=director).raise_for_status()
        client.post(f"/api/tournaments/{tid}/start", headers=director).raise_for_status()
        before = client.get(f"/api/tournaments/{tid}").json()
        assert before["status"] == "running" and before["round"] == 0
    with app_client(db) as client:  # a new server on the same database
        after = client.get(f"/api/tournaments/{tid}").json()
        assert (after["round"], after["tables"]) == (0, before["tables"])
        client.post(f"/api/tournaments/{tid}/noshow", json={"name": "P0"},
                    headers=director).raise_for_status()
        deadline = time.monotonic() + 120  # a hang guard only
        while (final := client.get(f"/api/tournaments/{tid}").json())["status"] != "over":
            assert time.monotonic() < deadline, final
            time.sleep(0.05)
    assert final["round"] == 1 and all(s["boards"] == 2 for s in final["standings"])
