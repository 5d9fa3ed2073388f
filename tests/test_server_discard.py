"""A ten-point discard is one message (issue 29): ``{"type": "act", "action": "discard",
"cards": [...]}`` discards a seat's cards down to six in order (T4), all or none — a refusal
(a card not held, one twice, more cards than the seat throws, cards with another action, too
many or none) changes nothing and the table answers with an error naming what is wrong.

Against a real test server (tests/hooked_serve.py): the deal comes from a chosen seed and the
bots act only when the test lets them."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from pitchcards.client import Client, TableConnection
from pitchcards.events import ActionTaken
from server_helpers import FAST, app_fixture, hooked_table, play_held

pytestmark = pytest.mark.timeout(120)

server = app_fixture(hooked=True)

TEN_POINT: dict[str, Any] = {"variant": "ten-point", "settings": FAST,
                             "bots": {1: "random", 2: "random", 3: "random"}}


async def _at_discard(api: Client, seed: int) -> tuple[Any, TableConnection]:
    ann = await hooked_table(api, "Ann", seed=seed, **TEN_POINT)
    await api.start(ann)
    conn = await api.connect(ann)
    await play_held(api, conn, random.Random(seed),
                    until=lambda: conn.view is not None and conn.view.phase == "discard")
    assert conn.is_my_turn() and conn.view is not None and conn.view.phase == "discard"
    return ann, conn


async def _refused(conn: TableConnection, message: dict[str, Any]) -> dict[str, Any]:
    errors, seq, view = len(conn.errors), conn.seq, conn.view
    await conn.send({"type": "act", "seq": conn.seq, **message})
    await conn.wait_for(lambda: len(conn.errors) > errors)
    assert conn.seq == seq and conn.view == view  # nothing changed
    error: dict[str, Any] = conn.errors[errors]
    return error


async def _discard(conn: TableConnection, cards: list[str]) -> int:
    """Send ``cards`` as one discard and wait for their events; the seq before them."""
    before = conn.seq
    await conn.send({"type": "act", "action": "discard", "cards": cards, "seq": conn.seq})
    await conn.wait_for(lambda: conn.seq >= before + len(cards))
    return before


def test_a_whole_discard_is_one_message_applied_in_order(server):
    async def run() -> None:
        async with Client(server.url) as api:
            _, conn = await _at_discard(api, 1_000_000_000_000_291)
            async with conn:
                assert conn.view is not None
                hand = list(conn.view.hand)
                throw = hand[:len(hand) - 6]
                before = await _discard(conn, throw)
                mine = [e.action for e in conn.events
                        if isinstance(e, ActionTaken) and e.seq > before and e.seat == 0]
                assert mine == [f"discard {card}" for card in throw]
                assert conn.view is not None and sorted(conn.view.hand) == sorted(hand[-6:])
                assert not conn.errors

    asyncio.run(run())


def test_a_refused_discard_changes_nothing(server):
    async def run() -> None:
        async with Client(server.url) as api:
            _, conn = await _at_discard(api, 1_000_000_000_000_292)
            async with conn:
                assert conn.view is not None
                hand = list(conn.view.hand)
                left = len(hand) - 6
                missing = next(c for c in ("AS", "KS", "QS", "JS", "TS", "AH", "KH")
                               if c not in hand)
                cases = [
                    ({"action": "discard", "cards": [*hand[:left - 1], missing]},
                     "card_not_held"),
                    ({"action": "discard", "cards": [hand[0], hand[0]]}, "card_not_held"),
                    ({"action": "discard", "cards": hand[:left + 1]}, "not_your_turn"),
                    ({"action": "play", "cards": hand[:left]}, "bad_message"),
                    ({"action": "discard", "cards": []}, "bad_message"),
                    ({"action": "discard", "cards": hand[:1] * 13}, "bad_message"),
                    ({"action": "discard", "cards": ["XX"]}, "bad_message"),
                ]
                for message, reason in cases:
                    error = await _refused(conn, message)
                    assert error["reason"] == reason, (message, error)
                    assert error["message"]
                # and the seat may still discard
                await _discard(conn, hand[:left])
                assert conn.view is not None and len(conn.view.hand) == 6

    asyncio.run(run())
