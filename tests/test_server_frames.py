"""The server's event frames (server/frames.py): each copy's frame is exactly its ``to_dict``,
though the public part of the view is encoded once per event for every seat and spectator."""

from __future__ import annotations

import json
import random

import pytest

import pitchcards as pc
from pitchcards.events import Event
from pitchcards.server.frames import EventFrames, event_frame
from pitchcards.table import Table

VARIANT_NAMES = sorted(pc.VARIANTS)


def _table(variant: str, seed: int) -> tuple[Table, list[Event]]:
    rules = pc.find_variant(variant)
    if rules.money != "none":
        session: pc.Match | pc.MoneySession = pc.MoneySession(
            rules, ["Ann", "Bob", "Cy"], dealer=0, seed=seed)
    else:
        low, high = rules.player_range
        session = pc.Match(rules, players=min(max(4, low), high), dealer=0, seed=seed)
    table = Table(session, auto_deal=False)
    seen: list[Event] = []
    table.subscribe(seen.append)
    return table, seen


def _play(table: Table, rng: random.Random, hands: int) -> None:
    """Random legal play for ``hands`` hands; a money table takes a join and a leave."""
    money = isinstance(table.session, pc.MoneySession)
    for hand in range(hands):
        if table.is_over:
            return
        if money and hand == 1:
            table.join("Dee")
        if money and hand == 2:
            table.leave("Bob")
        table.deal()
        while table.in_hand:
            seat = table.to_act
            assert seat is not None
            table.push(rng.choice(table.view(seat).legal_actions), seat)


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_every_copy_of_every_event_is_framed_as_its_to_dict(variant: str) -> None:
    table, seen = _table(variant, seed=7)
    _play(table, random.Random(7), hands=3)
    names = sorted({n for e in seen for n in getattr(e, "names", ())} | {"Dee"})
    checked = 0
    for event in seen:
        timed_out = event.seq % 5 == 0
        frames = EventFrames(event, timed_out)
        for who in [None, *names, None]:  # the spectator twice: the shared frame again
            try:
                copy = table.cut(event, who)
            except pc.IllegalActionError:  # not at the table then
                continue
            frame = json.loads(frames.frame(copy))
            want = {"type": "event", "event": json.loads(json.dumps(copy.to_dict()))}
            if timed_out:
                want["timed_out"] = True
            assert frame == want, (event.type, event.seq, who)
            checked += 1
    assert checked > len(seen)  # every event, for more than one reader


def test_a_seats_frame_carries_its_own_cards_and_no_one_elses() -> None:
    table, seen = _table("auction", seed=3)
    table.deal()
    dealt = seen[-1]
    frames = EventFrames(dealt)
    hands = {}
    for seat in range(4):
        view = json.loads(frames.frame(table.cut(dealt, seat)))["event"]["view"]
        hands[seat] = view["hand"]
        assert view["seat"] == seat and view["hand"] == table.cut(dealt, seat).view.hand
    public = json.loads(frames.frame(dealt))["event"]["view"]
    assert public["seat"] is None and public["hand"] == []
    assert len({tuple(h) for h in hands.values()}) == 4  # four different hands


def test_a_lone_frame_is_the_same_text_as_a_shared_one() -> None:
    table, seen = _table("ten-point", seed=5)
    _play(table, random.Random(5), hands=1)
    for event in seen[:20]:
        copy = table.cut(event, 1)
        assert event_frame(copy, True) == EventFrames(event, True).frame(copy)
