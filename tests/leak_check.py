"""Hidden information over the wire: play whole games through a real server and check that no
frame any connection received names a card it could not know at that moment, nor a seed.

What a connection may know in hand ``h`` when a frame arrives: the cards its player was dealt
in that hand (the truth comes from the finished game's record, replayed) and the cards played
or pitched face up in it so far, the frame's own action included.  A spectator knows only the
second.  In the ten-point family a discard is a secret for ever (T4): no frame of another seat
or a spectator may name a card some other seat discarded in that hand, during the hand or after
it — the truth then comes from the *full* record, rebuilt from the server's store (the public
record deals only the kept cards and leaves the discards out).  Under call-your-partner
(CP3, CP5) the called card is public once called (the pitcher's offered ``call X`` actions
name no card's place), and until the called card is face up (or the hand is over) no frame
may name the partner, say the partnership is known, or tell a seat that does not hold the
card that it does.  Cards are found in the raw
frame text, so a card hidden anywhere (a field added later, an error message, a view) is
caught, not only in the fields we thought of.

Used by tests/test_server_leak.py (every setup, on chosen deals) and by
``benchmarks/bench_server.py --leak-games`` (1,000 or more).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
import re
import sqlite3
from collections.abc import Sequence

import pitchcards as pc
from pitchcards.cards import card_name, cards_of
from pitchcards.client import Client, Seat, TableConnection
from pitchcards.notation import parse_record

#: A card's name in the engine's notation (rank then suit, or a joker: LJ, BJ), standing alone.
CARD = re.compile(r"(?<![A-Za-z0-9_-])([2-9TJQKA][SHDC]|LJ|BJ)(?![A-Za-z0-9_-])")

#: A call the pitcher is offered (CP3: its legal ``call X`` actions name every card it does not
#: hold): naming a card it may call says nothing about where that card is.
CALL_OFFER = re.compile(r"\bcall (?:[2-9TJQKA][SHDC]|LJ|BJ)\b")

#: Short games: the first side to a point wins (random players rarely go out as bidders).
SHORT = {"target": 1, "win_rule": "first_to_target_HLJG_order", "win_requires_made_bid": False}
#: ... and a game is played for at most this many hands (random bidders can sink both sides
#: below zero for ever); the record then holds the hands finished.
HANDS = 3
#: (variant, options, seats played from outside; the rest are server bots)
SETUPS: tuple[tuple[str, dict[str, object], int], ...] = (
    ("auction", SHORT, 3),
    ("auction-partners", SHORT, 4),
    ("setback", SHORT, 2),
    ("auction", {**SHORT, "low_to": "holder"}, 3),
    ("money", {}, 3),
)
#: The ten-point family (T1-T10): nine cards dealt, trump named, a face-down discard to six.
TEN_POINT_SETUPS: tuple[tuple[str, dict[str, object], int], ...] = (
    ("ten-point", SHORT, 2),
    ("ten-point-cutthroat", SHORT, 3),
    ("ten-point-cutthroat", SHORT, 1),
)
#: Call-your-partner (CP1-CP9): five seats, the pitcher calling a secret partner each hand
#: (bidder goes out is its only win rule, CP8); the second lets the pitcher call its own card.
CALL_SETUPS: tuple[tuple[str, dict[str, object], int], ...] = (
    ("call-partner", {"target": 1}, 2),
    ("call-partner", {"target": 1, "call_rule": "alone_allowed"}, 3),
)


@dataclasses.dataclass
class Game:
    table: str
    variant: str
    frames: dict[str, list[str]]      #: connection label -> raw frames in order
    names: dict[str, str | None]      #: connection label -> player name (None: spectator)
    record: str                       #: the public record (what the table's players get)
    #: the hand-history and score-sheet answers (``/hands``, ``/results``) as received
    pages: dict[str, str] = dataclasses.field(default_factory=dict)
    #: the full record (discards shown), from the server's store: see :func:`add_full_records`
    full: str | None = None


def _scored(conn: TableConnection) -> int:
    return sum(e.type == "hand_scored" for e in conn.events)


async def _random_player(conn: TableConnection, rng: random.Random) -> None:
    def stop() -> bool:
        return conn.over or conn.closed or _scored(conn) >= HANDS

    while True:
        await conn.wait_for(lambda: conn.is_my_turn() or stop(), 60)
        if stop():
            return
        assert conn.view is not None
        await conn.act(str(rng.choice(conn.view.legal_actions)))


async def play_game(api: Client, index: int, rng: random.Random,
                    setups: Sequence[tuple[str, dict[str, object], int]] = SETUPS,
                    deal_seed: int | None = None) -> Game:
    """One game: random players from outside, bots in the other seats, a spectator; a money
    game is settled by its host after its first hand, a match stops after :data:`HANDS`.
    ``deal_seed``: on a hooked server (the test-only hooks, docs/testing.md), the table is
    dealt from it and its bots seeded from it, acting freely: with ``rng``, the same game on
    every run."""
    variant, options, people = setups[index % len(setups)]
    fast = {"bot_delay": 0, "hand_pause": 0}
    if deal_seed is None:
        host = await api.create_table("P0", variant=variant, options=options, fill="random",
                                      settings=fast)
    else:
        from server_helpers import hooked_table

        host = await hooked_table(api, "P0", seed=deal_seed, hold_bots=False, variant=variant,
                                  options=options, fill="random", settings=fast)
    seats: list[Seat] = [host]
    for i in range(1, people):
        seats.append(await api.take_seat(host.invite or "", f"P{i}"))
    conns = [await api.connect(s) for s in seats]
    watcher = await api.connect(table=host.table)
    await api.start(host)
    players = [asyncio.create_task(_random_player(c, random.Random(rng.random())))
               for c in conns]
    if variant == "money":
        await conns[0].wait_for(lambda: _scored(conns[0]) >= 1, 120)
        await api.settle(host)
    await asyncio.gather(*players)
    last = max(c.seq for c in conns)
    await watcher.wait_for(lambda: watcher.seq >= last, 60)
    record = await api.record(host)
    pages = {"hands": (await api.http.get(f"/api/tables/{host.table}/hands",
                                          headers={"Authorization": f"Bearer {host.token}"})).text,
             "results": (await api.http.get(f"/api/tables/{host.table}/results")).text}
    frames = {f"seat:{s.name}": c.frames for s, c in zip(seats, conns, strict=True)}
    frames["spectator"] = watcher.frames
    names: dict[str, str | None] = {f"seat:{s.name}": s.name for s in seats}
    names["spectator"] = None
    for c in [*conns, watcher]:
        await c.close()
    return Game(host.table, variant, frames, names, record, pages)


def full_record(db_url: str, table_id: str) -> str:
    """The table's whole record with every discard shown, rebuilt from the server's store the
    way the server rebuilds a room (its log replayed from the secret seed)."""
    from pitchcards.notation import write_record
    from pitchcards.server.room_state import RoomState
    from pitchcards.server.store import Store

    store = Store(db_url)
    try:
        stored = store.load(table_id)
    finally:
        store.close()
    assert stored is not None, f"table {table_id} is not in {db_url}"
    state = RoomState(stored, keep_events=10**9)  # the log replayed: no hub, no sockets
    assert state.table is not None, f"table {table_id} never started"
    return write_record(state.table.session)


def add_full_records(db_url: str, games: Sequence[Game]) -> None:
    """Give each game its full record (the truth about discards) from the server's store."""
    for game in games:
        game.full = full_record(db_url, game.table)


@dataclasses.dataclass(frozen=True)
class Held:
    """One player's cards in one hand: dealt (discards included) and discarded (T4)."""
    dealt: set[str]
    discarded: set[str]


def truth(record: str) -> list[dict[str, Held]]:
    """Per hand, each player's dealt and discarded cards, from the finished game's record (a
    public record of a ten-point game deals only the kept cards and names no discard)."""
    game = pc.replay(parse_record(record))
    out: list[dict[str, Held]] = []
    for h, hand in enumerate(game.hands):
        seated = (game.hand_players[h] if isinstance(game, pc.MoneySession)
                  else list(game.names))
        out.append({name: Held({card_name(c) for c in cards_of(mask)},
                               {card_name(c) for c in cards_of(hand.discarded(seat))})
                    for seat, (name, mask) in enumerate(zip(seated, hand.dealt, strict=True))})
    return out


def _others_discards(held: dict[str, Held], name: str | None) -> set[str]:
    """The cards seats other than ``name`` discarded (a spectator: every discard)."""
    return {c for who, h in held.items() if who != name for c in h.discarded}


def leaks(game: Game, secrets: Sequence[str] = ()) -> list[str]:
    """Every frame of ``game`` that names a card its receiver could not know, or a secret.

    Frames of a hand the record does not hold (the one in play when the game was stopped) are
    checked for secrets only: its deal is not known here.  A card another seat discarded is
    reported as a discard leak (T4), and so is one in the hand history or score sheet.

    A page's DOM snapshot (``{"type": "dom"}``, tests/browser_helpers.py) keeps the words of
    earlier hands (the score sheet's High and Low cards, the live region's last plays): a card
    played face up in an earlier hand is no news there.  Frames get no such allowance."""
    dealt = truth(game.full if game.full is not None else game.record)
    found: list[str] = _page_leaks(game, dealt)
    for label, frames in game.frames.items():
        name = game.names[label]
        hand = -1
        called: str | None = None   #: the card the pitcher called in this hand (CP3)
        revealed = False            #: it was played, or the hand is over (CP5)
        face_up: set[str] = set()   #: the cards played or pitched in this hand
        public: set[str] = set()
        earlier: set[str] = set()   #: cards face up in the hands before this one
        for n, raw in enumerate(frames):
            for secret in secrets:
                if secret in raw:
                    found.append(f"{label} frame {n}: contains a secret ({secret[:6]}…)")
            msg = json.loads(raw)
            event = msg.get("event") if msg.get("type") == "event" else None
            if event is not None and event["type"] == "hand_dealt":
                hand, earlier, public = event["hand"], earlier | public, set()
            if event is not None and event["type"] == "action_taken":
                kind, _, card = event["action"].partition(" ")
                if kind in ("play", "pitch", "call"):  # CP3: the call is public
                    public.add(card)
            if hand >= len(dealt):
                continue
            held = dealt[hand] if hand >= 0 else {}
            own = held[name].dealt if name is not None and name in held else set()
            if event is not None and event["type"] == "hand_dealt":
                called, revealed, face_up = None, False, set()
            if event is not None and event["type"] == "action_taken":
                kind, _, card = event["action"].partition(" ")
                called = card if kind == "call" else called
                if kind in ("play", "pitch"):
                    face_up.add(card)
                # CP5: known once the card is face up (played, or pitched before the call)
                revealed = revealed or (called is not None and called in face_up)
            shown = (event.get("state") or event.get("view")) if event is not None else None
            if event is not None and (event["type"] == "hand_scored" or (
                    isinstance(shown, dict) and shown.get("phase") == "over")):
                revealed = True  # CP5: the hand is over, every partnership is known
            if msg.get("type") != "dom" and not revealed:
                holder = called is not None and called in own
                told = _partner_told(msg, holder)
                if told:
                    found.append(f"{label} frame {n} (hand {hand}): {told} before the called "
                                 f"card was played (CP5): {raw[:200]}")
            named = set(CARD.findall(CALL_OFFER.sub(" ", raw)))
            if msg.get("type") == "dom":
                named -= earlier
            thrown = named & _others_discards(held, name)
            if thrown:
                found.append(f"{label} frame {n} (hand {hand}): names {sorted(thrown)}, "
                             f"another seat's discards (T4): {raw[:200]}")
            unknown = named - own - public - thrown
            if unknown:
                found.append(f"{label} frame {n} (hand {hand}): names {sorted(unknown)} it "
                             f"cannot know: {raw[:200]}")
    return found


def _partner_told(value: object, holder: bool) -> str:
    """What a decoded frame tells of the secret partner (CP5), "" if nothing: a ``partner``
    seat or ``partner_known`` true before the called card is played, or ``holds_called`` true
    to a seat that does not hold it.  Searched at any depth: a field added later is caught."""
    if isinstance(value, dict):
        if isinstance(value.get("partner"), int) and not isinstance(value.get("partner"), bool):
            return "names the partner"
        if value.get("partner_known") is True:
            return "says the partnership is known"
        if value.get("holds_called") is True and not holder:
            return "says it holds the called card"
        return next((t for v in value.values() if (t := _partner_told(v, holder))), "")
    if isinstance(value, list):
        return next((t for v in value if (t := _partner_told(v, holder))), "")
    return ""


def _page_leaks(game: Game, dealt: list[dict[str, Held]]) -> list[str]:
    """The hand history (``/hands``: every finished hand step by step) and the score sheet
    (``/results``) name no discarded card of the hand they show, nor any discard action."""
    found = []
    for page, text in game.pages.items():
        if re.search(r"discard (?:[2-9TJQKA][SHDC]|LJ|BJ)\b", text):
            found.append(f"{game.table} {page}: names a discard action: {text[:200]}")
    hands = json.loads(game.pages["hands"])["hands"] if "hands" in game.pages else []
    for number, shown in enumerate(hands):
        thrown = set(CARD.findall(json.dumps(shown))) & _others_discards(dealt[number], None)
        if thrown:
            found.append(f"{game.table} hands: hand {number + 1} names discards {sorted(thrown)}")
    return found


def seeds(db_path: str) -> list[str]:
    """The tables' secret seeds, read from the server's SQLite file (for the check)."""
    with sqlite3.connect(db_path) as conn:
        return [str(row[0]) for row in conn.execute("SELECT seed FROM tables")]


#: The first chosen deal of :func:`play_games` on a hooked server: long, as the check looks
#: for each table's seed in every frame and a short one would be any ``seq``.
FIRST_DEAL = 1_000_000_000_000_003


async def play_games(url: str, games: int, *, concurrency: int = 20, seed: int = 0,
                     setups: Sequence[tuple[str, dict[str, object], int]] = SETUPS,
                     chosen_deals: bool = False) -> list[Game]:
    """``games`` games on the server at ``url``, ``concurrency`` at a time, of ``setups`` in
    turn.  ``chosen_deals`` (a hooked server): game ``i`` is dealt from ``FIRST_DEAL +
    1000 * seed + i``, so a run plays the same games every time."""
    rng = random.Random(seed)
    done: list[Game] = []
    async with Client(url) as api:
        for start in range(0, games, concurrency):
            batch = range(start, min(games, start + concurrency))
            done += await asyncio.gather(*(play_game(
                api, i, random.Random(rng.random()), setups,
                FIRST_DEAL + 1000 * seed + i if chosen_deals else None) for i in batch))
    return done
