"""The pure part of a server's room (server/room_state.py): a table rebuilt from its log, with
no sockets, no event loop and no database — what the table is, the money requests waiting for
the next break, and the window of events kept in memory."""

from __future__ import annotations

import json
import random
from types import SimpleNamespace
from typing import Any

import pytest

from pitchcards.errors import IllegalActionError, InvalidActionError
from pitchcards.server.protocol import Act, CreateTable
from pitchcards.server.refused import Refused
from pitchcards.server.room_state import RoomState, parse_act
from pitchcards.server.store import PlayerRow, StoredTable


def _stored(variant: str, names: list[str], entries: list[dict[str, Any]],
            seed: int = 11, players: int | None = None) -> StoredTable:
    config = CreateTable(name=names[0], variant=variant, players=players or len(names))
    row = SimpleNamespace(id="t1", config=config.model_dump_json(), seed=seed, status="waiting",
                          listed=False, version=len(entries), rematch=None,
                          rematch_of=None)
    people = [PlayerRow(name, seat, f"hash{seat}", None, seat == 0)
              for seat, name in enumerate(names)]
    return StoredTable(row, people, entries)


def _write(state: RoomState, log: list[dict[str, Any]], entry: dict[str, Any]) -> None:
    """What the room's writer does with an entry, without storing it: apply, then log the
    entry in the engine's words (an act's action as the engine wrote it)."""
    done = state.apply(entry)
    log.append({**entry, "action": done} if done is not None else entry)
    state.version += 1
    state.new.clear()  # the writer's send
    state.forget()


def _play_hand(state: RoomState, log: list[dict[str, Any]], rng: random.Random) -> None:
    _write(state, log, {"op": "deal"})
    table = state.table
    assert table is not None
    while table.in_hand:
        seat = table.to_act
        assert seat is not None
        action = rng.choice(table.view(seat).legal_actions)
        _write(state, log, {"op": "act", "seat": seat, "action": str(action), "bot": False})


def _same(a: RoomState, b: RoomState) -> None:
    assert a.table is not None and b.table is not None
    assert (a.status, a.seq, a.version, a.pending) == (b.status, b.seq, b.version, b.pending)
    for seat in range(len(a.table.names)):
        assert a.table.view(seat) == b.table.view(seat)
    assert list(a.results) == list(b.results)
    assert a.payments() == b.payments()


@pytest.mark.parametrize("variant", ["auction", "ten-point"])
def test_a_table_rebuilt_from_its_log_is_the_same_table(variant: str) -> None:
    names = ["Ann", "Bob", "Cy", "Dee"]
    state = RoomState(_stored(variant, names, []), keep_events=1000)
    assert (state.status, state.seq, state.table) == ("waiting", 0, None)
    log: list[dict[str, Any]] = []
    _write(state, log, {"op": "start", "names": names})
    rng = random.Random(3)
    for _ in range(2):
        _play_hand(state, log, rng)
    again = RoomState(_stored(variant, names, json.loads(json.dumps(log))), keep_events=1000)
    _same(state, again)
    assert again.version == len(log) and not again.new  # replayed events are not sent again
    assert again.table is not None and state.table is not None
    assert [e.to_dict() for e in again.table.events()] == \
        [e.to_dict() for e in state.table.events()]


def test_an_illegal_entry_changes_nothing() -> None:
    names = ["Ann", "Bob", "Cy", "Dee"]
    state = RoomState(_stored("auction", names, []), keep_events=1000)
    with pytest.raises(Refused, match="not started"):
        state.apply({"op": "deal"})
    log: list[dict[str, Any]] = []
    _write(state, log, {"op": "start", "names": names})
    _write(state, log, {"op": "deal"})
    table = state.table
    assert table is not None and table.to_act is not None
    before = (state.seq, table.view(table.to_act))
    wrong = (table.to_act + 1) % 4
    with pytest.raises(IllegalActionError):
        state.apply({"op": "act", "seat": wrong, "action": "pass", "bot": False})
    assert (state.seq, table.view(table.to_act)) == before and not state.new


def test_money_requests_wait_for_the_break_and_a_rebuild_keeps_them() -> None:
    names = ["Ann", "Bob", "Cy"]
    stored = _stored("money", names, [])
    stored.players.append(PlayerRow("Dee", None, "hash3", None, False))
    state = RoomState(stored, keep_events=1000)
    log: list[dict[str, Any]] = []
    _write(state, log, {"op": "start", "names": names})
    _write(state, log, {"op": "deal"})
    join = {"op": "join", "name": "Dee"}
    _write(state, log, {"op": "pending", "entry": join})  # asked for during the hand
    assert state.pending == [join]
    with pytest.raises(Refused, match="join waits for the next break") as refused:
        state.check_seated(state.players["Dee"], "chat")
    assert refused.value.status == 403
    # a restart in the middle of the hand: the request is still waiting
    middle = RoomState(_stored("money", names, json.loads(json.dumps(log))), keep_events=1000)
    assert middle.pending == [join]
    table = state.table
    assert table is not None
    rng = random.Random(5)
    while table.in_hand:
        seat = table.to_act
        assert seat is not None
        _write(state, log, {"op": "act", "seat": seat,
                            "action": str(rng.choice(table.view(seat).legal_actions)),
                            "bot": False})
    for entry in list(state.pending):  # the break: the driver applies each waiting request
        _write(state, log, entry)
    assert state.pending == [] and "Dee" in table.names
    assert state.seat_now(state.players["Dee"]) is None  # seated from the next deal
    _write(state, log, {"op": "leave", "name": "Bob"})  # between hands: paid out now
    _write(state, log, {"op": "deal"})
    assert state.seat_now(state.players["Dee"]) == table.seating.index("Dee")
    payments = state.payments()
    assert payments is not None and [leave.name for leave in payments.leaves] == ["Bob"]
    assert [r["type"] for r in state.results][-2:] == ["player_joined", "player_left"]
    again = RoomState(_stored("money", [*names, "Dee"], json.loads(json.dumps(log))),
                      keep_events=1000)
    _same(state, again)


def test_only_the_newest_events_stay_in_memory_and_their_marks_with_them() -> None:
    names = ["Ann", "Bob", "Cy", "Dee"]
    keep = 10
    state = RoomState(_stored("auction", names, []), keep_events=keep)
    log: list[dict[str, Any]] = []
    _write(state, log, {"op": "start", "names": names})
    _write(state, log, {"op": "deal"})
    table = state.table
    assert table is not None
    seat = table.to_act
    assert seat is not None
    # the turn timer ran out: a stand-in played this action (marked on the change's first event)
    first = table.seq + 1
    _write(state, log, {"op": "act", "seat": seat, "bot": True, "timeout": True,
                        "action": str(table.view(seat).legal_actions[0])})
    assert state.timed_out == {first}
    rng = random.Random(8)
    while table.seq < 4 * keep:
        if not table.in_hand:
            _write(state, log, {"op": "deal"})
            continue
        to_act = table.to_act
        assert to_act is not None
        _write(state, log, {"op": "act", "seat": to_act, "bot": False,
                            "action": str(rng.choice(table.view(to_act).legal_actions))})
        # a reconnect up to ``keep`` events behind replays from memory
        assert table.events(None, after=max(0, table.seq - keep))[-1].seq == table.seq
    with pytest.raises(IllegalActionError, match="no longer kept"):  # further back: a snapshot
        table.events(None, after=table.seq - 2 * keep - 1)
    assert state.timed_out == set()  # the mark went with its event
    # a rebuild replays every event, then keeps the same window
    again = RoomState(_stored("auction", names, json.loads(json.dumps(log))), keep_events=keep)
    assert again.table is not None and again.seq == state.seq
    assert again.table.events(None, after=again.seq - keep)[-1].seq == again.seq
    with pytest.raises(IllegalActionError, match="no longer kept"):
        again.table.events(None, after=again.seq - 2 * keep - 1)


def test_an_act_message_is_parsed_once_into_the_engines_actions() -> None:
    assert [str(a) for a in parse_act(Act(type="act", action="bid 2", seq=1))] == ["bid 2"]
    discard = Act(type="act", action="discard", cards=["QH", "2C"], seq=1)
    assert [str(a) for a in parse_act(discard)] == ["discard QH", "discard 2C"]
    with pytest.raises(InvalidActionError, match="go with the action 'discard'"):
        parse_act(Act(type="act", action="play", cards=["QH"], seq=1))
