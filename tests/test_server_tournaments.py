"""Tournaments on the server (issue 34): ``/api/tournaments`` against a real server (uvicorn
in this process on a real SQLite file, real WebSocket clients), and a real ``pitch serve``
killed with -9 mid-round on SQLite and PostgreSQL.

* a duplicate tournament of three tables played by scripted clients and bots to its end, its
  standings checked against standings worked out again by the core from the tables' stored
  logs, and every table's hands checked to be the boards' cards;
* the director's no-show, withdrawal and late entry;
* hidden boards: while a round is on, nobody reaches another table's board by any path
  (spectating, its results, its record and hands, its analysis, the tournament's boards,
  standings, CSV);
* abuse: a hostile name, a non-director starting or withdrawing, unknown ids.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import update

from pitchcards.cards import format_cards
from pitchcards.client import TableConnection
from pitchcards.server.room_state import RoomState
from pitchcards.server.store import PlayerRow, Store
from pitchcards.server.tournament_store import tournaments
from pitchcards.tournament import Duplicate
from server_helpers import (
    FAST,
    QUICK_LIMITS,
    RawReply,
    app_fixture,
    hello,
    play_randomly,
    raw_socket,
    running_server,
)

server = app_fixture()


@pytest.fixture(autouse=True)
def _fresh_address(request: pytest.FixtureRequest) -> None:
    """Every test here creates its tournaments from 127.0.0.1 on one server: each starts with
    none of them counted against the address's limit (tested on its own below)."""
    if "server" in request.fixturenames:
        service = request.getfixturevalue("server").app.state.tournaments
        with service.store.engine.begin() as conn:  # the count is the database's (0008)
            conn.execute(update(tournaments).values(creator=None))

#: how long a test waits for a condition: only a hang takes this long
HANG_S = 120.0


def create(url: str, **changes: Any) -> dict[str, Any]:
    body = {"name": "Dora", "title": "Club night", "format": "pairs",
            "variant": "auction-partners", "boards_per_round": 2, "rounds": 2, "pause": 0,
            "fill": "random", "settings": {**FAST, "grace": 0}, **changes}
    reply = httpx.post(f"{url}/api/tournaments", json=body, timeout=30)
    assert reply.status_code == 201, reply.text
    return dict(reply.json())


def register(url: str, tid: str, *names: str, **extra: Any) -> dict[str, Any]:
    reply = httpx.post(f"{url}/api/tournaments/{tid}/entries",
                       json={"names": list(names), **extra}, timeout=30)
    assert reply.status_code == 201, reply.text
    return dict(reply.json())


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def info(url: str, tid: str) -> dict[str, Any]:
    reply = httpx.get(f"{url}/api/tournaments/{tid}", timeout=30)
    assert reply.status_code == 200, reply.text
    return dict(reply.json())


def wait_until(check: Any, what: str) -> Any:
    """Poll ``check()`` until it returns something true; the deadline only catches a hang."""
    deadline = time.monotonic() + HANG_S
    while time.monotonic() < deadline:
        got = check()
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError(f"waited {HANG_S}s for {what}")


async def play_tournament(url: str, tid: str, token: str, seed: int) -> int:
    """A scripted player: ask where to sit, play that table with random legal actions until
    it ends, and again each round until the tournament is over; returns the rounds played."""
    rng = random.Random(seed)
    played: set[str] = set()
    async with httpx.AsyncClient(timeout=30) as http:
        deadline = time.monotonic() + HANG_S
        while time.monotonic() < deadline:
            me = (await http.get(f"{url}/api/tournaments/{tid}/me",
                                 headers=auth(token))).json()
            if me["status"] == "over":
                return len(played)
            if me["table_id"] is None or me["table_id"] in played:
                await asyncio.sleep(0.05)
                continue
            async with TableConnection(url, me["table_id"], token) as table:
                await table.open()
                assert table.you["seat"] == me["seat"], (table.you, me)
                await play_randomly(table, rng, timeout=HANG_S)
                await table.wait_for(lambda t=table: t.info.get("status") == "over", HANG_S)
            played.add(me["table_id"])
    raise AssertionError("the tournament did not end")


def played_mask(hand: Any) -> int:
    """The cards played (or pitched) in a finished hand: all of it that is public."""
    return sum(1 << a.card for _, a in hand.history
               if a.kind in ("play", "pitch") and a.card is not None)


def stored_hands(db_url: str, table_ids: list[str]) -> dict[str, Any]:
    """Each table as its stored log rebuilds it (the tables' records)."""
    store = Store(db_url)
    try:
        out = {}
        for table_id in table_ids:
            stored = store.load(table_id)
            assert stored is not None
            out[table_id] = RoomState(stored, 1000)
        return out
    finally:
        store.close()


def test_a_duplicate_tournament_is_played_through_the_api_to_its_standings(
        server: Any) -> None:
    url = server.url
    # the seats wait for their players (an hour's grace): the scripted pair plays every
    # board of theirs; the director marks the others no-shows, so bots play for them
    made = create(url, rounds=3, settings={**FAST, "grace": 3600})
    tid, director = made["tournament"], made["director_token"]
    scripted = register(url, tid, "Ann", "Bob")
    others = ("Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo")
    for pair in range(0, len(others), 2):  # five pairs: a bot pair fills the third table
        register(url, tid, *others[pair:pair + 2])
    for name in others:
        httpx.post(f"{url}/api/tournaments/{tid}/noshow", json={"name": name},
                   headers=auth(director), timeout=30).raise_for_status()
    started = httpx.post(f"{url}/api/tournaments/{tid}/start", headers=auth(director),
                         timeout=30)
    assert started.status_code == 200, started.text
    assert started.json()["bots"] == ["bot 1"] and len(started.json()["tables"]) == 3

    async def both() -> list[int]:
        return list(await asyncio.gather(*(
            play_tournament(url, tid, token, seed) for seed, token in
            enumerate(scripted["tokens"].values()))))

    assert asyncio.run(both()) == [3, 3]
    final = wait_until(lambda: (i := info(url, tid))["status"] == "over" and i, "the end")
    assert final["round"] == 2

    # the standings again, from the tables' stored logs, by the core
    events = stored_tournament_events(server, tid)
    rounds = {e["round"]: e["tables"] for e in events if e["op"] == "round"}
    again = Duplicate(final["entrants"], boards_per_round=2, seed=0, rounds=3)
    boards = {b["board"]: b for b in httpx.get(f"{url}/api/tournaments/{tid}/boards",
                                               timeout=30).json()}
    states = stored_hands(server.args.db, [t for ids in rounds.values() for t in ids])
    for round_, ids in rounds.items():
        for table, table_id in enumerate(ids):
            state = states[table_id]
            hands = state.table.session.hands
            assert state.status == "over" and len(hands) == 2
            for board, hand in zip(again.boards_of_round(round_), hands, strict=True):
                again.record(board.number, table, list(hand.result.deltas))
                # every table dealt the board's cards, by the board's dealer; the boards show
                # only the cards played there (issue 31, finding 9)
                played = played_mask(hand)
                shown = boards[board.number]["tables"][table]["hands"]
                assert [format_cards(m & played) for m in hand.dealt] == shown
                assert all(set(f.split()) <= set(format_cards(m).split())
                           for f, m in zip(boards[board.number]["hands"], hand.dealt,
                                           strict=True))
                assert hand.dealer == boards[board.number]["dealer"]
    expected = [(s.rank, s.entrant, round(s.percent, 2), s.played) for s in again.standings()]
    got = [(s["rank"], s["entrant"], s["percent"], s["boards"]) for s in final["standings"]]
    assert got == expected
    assert {s["entrant"] for s in final["standings"] if s["bot"]} == {"bot 1"}
    csv_text = httpx.get(f"{url}/api/tournaments/{tid}/standings.csv", timeout=30).text
    assert csv_text.splitlines()[0].startswith("rank,entrant,percent")
    assert len(csv_text.splitlines()) == 7
    # over, the tournament's tables may be analysed (their boards are public now)
    analysed = httpx.get(f"{url}/api/tables/{rounds[0][0]}/analysis", timeout=30)
    assert analysed.status_code == 200 and analysed.json()["status"] == "none", analysed.text


def stored_tournament_events(server: Any, tid: str) -> list[dict[str, Any]]:
    from pitchcards.server.tournament_store import TournamentStore

    store = Store(server.args.db)
    try:
        stored = TournamentStore(store).load(tid)
        assert stored is not None
        return stored.entries
    finally:
        store.close()


def card_words(hands: list[str]) -> set[str]:
    return {card for hand in hands for card in hand.split()}


def another_table_played(server: Any, tid: str, token: str, tables: list[dict[str, Any]]
                         ) -> tuple[dict[str, Any], str, list[str]]:
    """The player's ``/me``, and the round's other table (``tables``: the round's) once it
    has played its first hand, with that hand's cards as dealt."""
    url = server.url
    me = httpx.get(f"{url}/api/tournaments/{tid}/me", headers=auth(token), timeout=30).json()
    other = next(t["id"] for t in tables if t["id"] != me["table_id"])
    db_url = server.args.db
    wait_until(lambda: stored_hands(db_url, [other])[other].status == "over", "the other table")
    hands = [format_cards(m) for m in stored_hands(db_url, [other])[other]
             .table.session.hands[0].dealt]
    return me, other, hands


def assert_no_cards_in_answers(url: str, tid: str, token: str, cards: set[str]) -> None:
    """None of ``cards`` in the tournament's answers to the player of ``token``."""
    for path in ("", "/standings", "/standings.csv", "/me"):
        text = httpx.get(f"{url}/api/tournaments/{tid}{path}", headers=auth(token),
                         timeout=30).text
        words = set(text.replace('"', " ").replace(",", " ").split())
        assert not words & cards, (path, words & cards)


def test_a_board_stays_hidden_until_the_player_has_played_it(server: Any) -> None:
    """Ann's table waits for her (her grace is long and she never acts); the other table
    plays the same boards to their end.  No path shows Ann those boards' cards."""
    url = server.url
    made = create(url, rounds=2, settings={**FAST, "grace": 3600})
    tid = made["tournament"]
    ann = register(url, tid, "Ann", "Bob")["tokens"]["Ann"]
    started = httpx.post(f"{url}/api/tournaments/{tid}/start",
                         headers=auth(made["director_token"]), timeout=30).json()
    # the other table (bots only) plays its boards to their end
    me, other, hands = another_table_played(server, tid, ann, started["tables"])
    cards = card_words(hands)

    # spectating the other table: refused before anything is sent
    reply: RawReply = asyncio.run(raw_socket(url, other, [], hello=hello(None), quiet=5))
    assert reply.errors == ["tournament_table"] and not reply.of_type("event")
    # ... and with Ann's secret, which is no seat there
    reply = asyncio.run(raw_socket(url, other, [], hello=hello(ann), quiet=5))
    assert reply.errors == ["bad_token"] and not reply.of_type("event")
    # its score sheet, record and hands
    assert httpx.get(f"{url}/api/tables/{other}/results", timeout=30).status_code == 403
    got = httpx.get(f"{url}/api/tables/{other}/results", headers=auth(ann), timeout=30)
    assert got.status_code == 401, got.text  # her secret is no seat there
    # her own table's score sheet is hers: its page asks for it with her seat's token (it was
    # refused, a console error on her table's page whenever a hand ended before it loaded)
    mine = httpx.get(f"{url}/api/tables/{me['table_id']}/results", headers=auth(ann), timeout=30)
    assert mine.status_code == 200, mine.text
    for path in ("record", "hands"):
        got = httpx.get(f"{url}/api/tables/{other}/{path}", headers=auth(ann), timeout=30)
        assert got.status_code == 401, (path, got.text)
    # its analysis (every seat's candidate cards): refused to strangers and players alike,
    # though that table is over, for the tournament is not
    for headers in ({}, auth(ann)):
        for ask in (httpx.post, httpx.get):
            got = ask(f"{url}/api/tables/{other}/analysis", headers=headers, timeout=30)
            assert got.status_code == 403, got.text
            assert got.json()["reason"] == "tournament_table", got.text
    # the director's dispute view of the finished table waits for the round's end (a director
    # may also play, at a slower table)
    dispute = f"{url}/api/tournaments/{tid}/rounds/0/tables"
    other_number = next(t["table"] for t in started["tables"] if t["id"] == other)
    early = httpx.get(f"{dispute}/{other_number}/record",
                      headers=auth(made["director_token"]), timeout=30)
    assert early.status_code == 409 and early.json()["reason"] == "round_on", early.text
    # the tournament's boards wait for its end; its pages show no card
    assert httpx.get(f"{url}/api/tournaments/{tid}/boards", timeout=30).status_code == 409
    assert_no_cards_in_answers(url, tid, ann, cards)
    # the history page of the other table is a page without its hands (they come from the
    # hands API above, for a seat's token only)
    page = httpx.get(f"{url}/t/{other}/history", timeout=30).text
    assert not any(hand in page for hand in hands)
    # the director settles it: bots play Ann's and Bob's seats, and their table ends too
    for name in ("Ann", "Bob"):
        httpx.post(f"{url}/api/tournaments/{tid}/noshow", json={"name": name},
                   headers=auth(made["director_token"]), timeout=30).raise_for_status()
    wait_until(lambda: info(url, tid)["round"] == 1, "round 1")
    late = httpx.get(f"{dispute}/{other_number}/record", headers=auth(made["director_token"]),
                     timeout=30)
    assert late.status_code == 200 and set(late.text.split()) & cards, late.text


def test_the_directors_no_show_withdrawal_and_late_entry(server: Any) -> None:
    url = server.url
    made = create(url, rounds=2, settings={**FAST, "grace": 3600})
    tid, director = made["tournament"], made["director_token"]
    ann = register(url, tid, "Ann", "Bob")["tokens"]
    register(url, tid, "Cy", "Di")
    register(url, tid, "Ed", "Flo")
    httpx.post(f"{url}/api/tournaments/{tid}/start", headers=auth(director), timeout=30)
    # the round waits for Ann and Bob (their grace is an hour): the late pair is in next round
    late = register(url, tid, "Zed", "Yan")
    assert late["from_round"] == 1 and late["entrant"] == "Zed & Yan"
    zed = httpx.get(f"{url}/api/tournaments/{tid}/me", headers=auth(late["tokens"]["Zed"]),
                    timeout=30).json()
    assert zed["table_id"] is None  # not in this round: a bot plays the seats it takes
    for name in ("Cy", "Di", "Ed", "Flo"):  # nobody plays for them: bots do
        httpx.post(f"{url}/api/tournaments/{tid}/noshow", json={"name": name},
                   headers=auth(director), timeout=30).raise_for_status()
    # Bob is a no-show: a bot plays his seat at once; Ann & Bob then withdraw
    me = httpx.get(f"{url}/api/tournaments/{tid}/me", headers=auth(ann["Bob"]),
                   timeout=30).json()
    httpx.post(f"{url}/api/tournaments/{tid}/noshow", json={"name": "Bob"},
               headers=auth(director), timeout=30).raise_for_status()
    assert httpx.get(f"{url}/api/tournaments/{tid}/me", headers=auth(ann["Bob"]),
                     timeout=30).json()["bot"] is True
    table = httpx.get(f"{url}/api/tables/{me['table_id']}", timeout=30).json()
    assert table["seats"][me["seat"]]["away"] is True
    withdrawn = httpx.post(f"{url}/api/tournaments/{tid}/withdraw", json={"name": "Ann & Bob"},
                           headers=auth(director), timeout=30)
    assert withdrawn.status_code == 200 and withdrawn.json()["withdrawn"] == ["Ann & Bob"]
    # round 1 seats the late pair, and a bot for each of Ann and Bob
    round1 = wait_until(lambda: (i := info(url, tid))["round"] == 1 and i, "round 1")
    seated = {}
    for table in round1["tables"]:
        for seat in httpx.get(f"{url}/api/tables/{table['id']}", timeout=30).json()["seats"]:
            seated[seat["name"]] = seat["kind"]
    assert seated["Zed"] == "human" and seated["Ann"] == "bot" and seated["Bob"] == "bot"
    zed = httpx.get(f"{url}/api/tournaments/{tid}/me", headers=auth(late["tokens"]["Zed"]),
                    timeout=30).json()
    assert zed["round"] == 1 and zed["table_id"] in {t["id"] for t in round1["tables"]}
    for name in ("Zed", "Yan"):  # they do not come after all
        httpx.post(f"{url}/api/tournaments/{tid}/noshow", json={"name": name},
                   headers=auth(director), timeout=30).raise_for_status()
    final = wait_until(lambda: (i := info(url, tid))["status"] == "over" and i, "the end")
    last = final["standings"][-1]
    assert last["entrant"] == "Ann & Bob" and last["withdrawn"] is True
    assert "Zed & Yan (from round 2)" in {s["shown"] for s in final["standings"]}


def test_abuse_hostile_names_strangers_and_unknown_ids(server: Any) -> None:
    url = server.url
    made = create(url, title="<script>alert(1)</script>")
    tid = made["tournament"]
    assert info(url, tid)["title"] == "<script>alert(1)</script>"  # text, stored as given
    bad = httpx.post(f"{url}/api/tournaments/{tid}/entries",
                     json={"names": ["<img src=x onerror=alert(1)>", "Bob"]}, timeout=30)
    assert bad.status_code == 422 and bad.json()["reason"] == "bad_name"
    one = register(url, tid, "Ann", "Bob")
    again = httpx.post(f"{url}/api/tournaments/{tid}/entries", json={"names": ["ann", "Cy"]},
                       timeout=30)
    assert again.status_code == 409 and again.json()["reason"] == "bad_name"
    # a player's secret is not the director's, and no secret is no director
    for headers in (auth(one["tokens"]["Ann"]), {}, auth("x" * 43)):
        for path, body in (("start", None), ("withdraw", {"name": "Ann & Bob"}),
                           ("noshow", {"name": "Ann"})):
            got = httpx.post(f"{url}/api/tournaments/{tid}/{path}", json=body,
                             headers=headers, timeout=30)
            assert got.status_code in (403, 422), (path, got.text)
            if got.status_code == 403:
                assert got.json()["reason"] == "not_director"
    assert info(url, tid)["status"] == "registering"
    # unknown ids: a refusal, nothing kept
    service = server.app.state.tournaments
    for path in ("", "/standings", "/me", "/boards"):
        got = httpx.get(f"{url}/api/tournaments/nope{path}", timeout=30)
        assert got.status_code == 404 and got.json()["reason"] == "not_found"
    long_id = httpx.get(f"{url}/api/tournaments/{'x' * 200}", timeout=30)
    assert long_id.status_code == 404
    assert "nope" not in service.states
    # entry by invite: without the code, refused
    invited = create(url, entry="invite")
    refused = httpx.post(f"{url}/api/tournaments/{invited['tournament']}/entries",
                         json={"names": ["Ann", "Bob"]}, timeout=30)
    assert refused.status_code == 403
    register(url, invited["tournament"], "Ann", "Bob", invite=invited["invite"])
    # a tournament table's config cannot be asked for through POST /api/tables
    sneaky = httpx.post(f"{url}/api/tables", json={"name": "Eve", "boards": [[1, 0, 7]],
                                                   "tournament": tid}, timeout=30)
    assert sneaky.status_code == 422


@pytest.mark.parametrize("db", ["sqlite", "postgres"])
def test_kill_9_mid_round_and_the_round_goes_on(tmp_path: Path, db: str) -> None:
    with running_server(tmp_path, db, extra=QUICK_LIMITS) as proc:
        url = proc.url
        made = create(url, rounds=2, settings={**FAST, "grace": 3600})
        tid, director = made["tournament"], made["director_token"]
        ann = register(url, tid, "Ann", "Bob")["tokens"]
        register(url, tid, "Cy", "Di")
        httpx.post(f"{url}/api/tournaments/{tid}/start", headers=auth(director),
                   timeout=30).raise_for_status()
        for name in ("Cy", "Di"):  # bots play for them
            httpx.post(f"{url}/api/tournaments/{tid}/noshow", json={"name": name},
                       headers=auth(director), timeout=30).raise_for_status()
        me = httpx.get(f"{url}/api/tournaments/{tid}/me", headers=auth(ann["Ann"]),
                       timeout=30).json()
        # the other table ends; Ann's waits for her
        others = [t["id"] for t in info(url, tid)["tables"] if t["id"] != me["table_id"]]
        wait_until(lambda: all(httpx.get(f"{url}/api/tables/{t}", timeout=30).json()["status"]
                               == "over" for t in others), "the other table's end")
        wait_until(lambda: json.dumps(stored_tournament_events_url(proc.db_url, tid))
                   .count('"result"') == 1, "its result stored")
        # Bob does not come: marked a no-show mid-round, his table's stand-in plays for him
        httpx.post(f"{url}/api/tournaments/{tid}/noshow", json={"name": "Bob"},
                   headers=auth(director), timeout=30).raise_for_status()
        proc.kill9()
        proc.start()
        assert info(url, tid)["round"] == 0
        # Ann comes back and plays (Bob's stand-in too, after the restart); the round ends and
        # the next one starts by itself
        assert asyncio.run(play_tournament(url, tid, ann["Ann"], 0)) == 2
        final = info(url, tid)
        assert final["status"] == "over" and all(s["boards"] == 4 for s in final["standings"])


def stored_tournament_events_url(db_url: str, tid: str) -> list[dict[str, Any]]:
    from pitchcards.server.tournament_store import TournamentStore

    store = Store(db_url)
    try:
        stored = TournamentStore(store).load(tid)
        return stored.entries if stored is not None else []
    finally:
        store.close()


def test_abuse_a_tournament_is_bounded_and_so_are_an_addresses(server: Any,
                                                               monkeypatch: Any) -> None:
    """A tournament's tables are outside the per-address table budgets: its players and the
    tournaments one address has open are capped instead (the cap lowered here to 4 players,
    two pairs)."""
    from pitchcards.server import tournaments

    url = server.url
    monkeypatch.setattr(tournaments, "MAX_PLAYERS", 4)
    tid = create(url)["tournament"]
    register(url, tid, "Ann", "Bob")
    register(url, tid, "Cy", "Di")
    full = httpx.post(f"{url}/api/tournaments/{tid}/entries", json={"names": ["Ed", "Flo"]},
                      timeout=30)
    assert full.status_code == 409 and full.json()["reason"] == "tournament_full", full.text
    assert info(url, tid)["entrants"] == ["Ann & Bob", "Cy & Di"]
    # the address's open tournaments: this one and two more, then no more
    for _ in range(tournaments.MAX_OPEN_PER_ADDRESS - 1):
        create(url)
    more = httpx.post(f"{url}/api/tournaments", json={"name": "Dora", "fill": "expert"},
                      timeout=30)
    assert more.status_code == 429 and more.json()["reason"] == "too_many_tournaments", \
        more.text


def test_closing_the_service_waits_for_its_round_tasks_to_stop(tmp_path: Path) -> None:
    """close() cancels the rounds' timers and record writes and waits until each has stopped,
    so the hub's database thread, closed next, is never torn down under one (review C3)."""
    from types import SimpleNamespace

    from pitchcards.server.tournaments import TournamentService

    stopped: list[str] = []
    waiting = asyncio.Event()

    async def a_round_timer() -> None:
        waiting.set()
        try:
            await asyncio.Event().wait()
        finally:
            stopped.append("timer")

    async def run() -> None:
        store = Store(f"sqlite:///{tmp_path / 'tournaments.db'}")
        try:
            service = TournamentService(SimpleNamespace(store=store, over_listeners=[]))  # type: ignore[arg-type]
            service._spawn(a_round_timer())
            await asyncio.wait_for(waiting.wait(), 30)
            await service.close()
            assert stopped == ["timer"] and not service._tasks
        finally:
            store.close()

    asyncio.run(run())


def test_a_player_is_sent_to_a_round_table_only_once_it_is_stored(tmp_path: Path) -> None:
    """A round's event names its tables before they are made (and a kill -9 may fall between
    the two): ``/me`` names a table only once it is stored, else the player would be sent to
    "no table" (a CI failure of the kill -9 test above before this check)."""
    from types import SimpleNamespace

    from pitchcards.server.tournaments import TournamentService

    async def db(fn: Any, *args: Any) -> Any:
        return fn(*args)

    async def run() -> None:
        store = Store(f"sqlite:///{tmp_path / 'made.db'}")
        try:
            store.migrate()
            hub = SimpleNamespace(store=store, db=db, over_listeners=[])
            service = TournamentService(hub)  # type: ignore[arg-type]
            assert not await service._made("round-table") and not await service._made(None)
            store.create_table("round-table", "h", {"name": "Ann"}, 7, False,
                               [PlayerRow("Ann", 0, "x" * 64, None, True)])
            assert await service._made("round-table")
        finally:
            store.close()

    asyncio.run(run())
