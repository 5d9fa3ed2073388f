"""The engine's facts for the browser's own tests (issue 29): seeded games played by the engine,
cut for a seat and for a spectator as the server sends them, with what the engine says of each
step — the seat's view after each event (``pitchcards.events.apply_event``), each bid's word,
each legal action's words, each card's symbol, the money in whole cents as text — written to
``tests/js/engine.json`` for ``node --test tests/js/`` to check the page's pure modules against.

Run as a script to write the file again after a change to the engine's JSON or words::

    .venv/bin/python tests/engine_fixtures.py

``tests/test_engine_fixtures.py`` fails while the checked-in file differs from what this makes.
Nothing here is random but by seed: the same engine writes the same file."""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

import pitchcards as pc
from pitchcards.actions import parse_action
from pitchcards.bots import make_bot
from pitchcards.cards import card_symbol, parse_card
from pitchcards.events import apply_event, event_from_dict
from pitchcards.explain import action_words, bid_word
from pitchcards.money import cents_text
from pitchcards.server.history import finished_hands
from pitchcards.table import Table
from pitchcards.views import View, rules_to_dict

TARGET = Path(__file__).resolve().parent / "js" / "engine.json"

#: (variant, players, seed, the seat whose copy is kept, hands played, the spectator's copy
#: too): four-point games with a moon and a smudge, partnerships, the ten-point family (jokers,
#: declared trump, discards), money, and call-your-partner (the call and the reveal, CP3-CP5).
GAMES: tuple[tuple[str, int, int, int, int, bool], ...] = (
    ("auction", 4, 1_000_001, 0, 1, True),
    ("auction-partners", 4, 1_000_002, 1, 1, False),
    ("setback", 4, 1_000_003, 2, 1, False),
    ("ten-point", 4, 1_000_004, 0, 1, True),
    ("ten-point-cutthroat", 5, 1_000_005, 3, 1, False),
    ("money", 5, 1_000_006, 0, 2, False),
    ("call-partner", 5, 1_000_007, 2, 1, False),
)

#: The games whose finished hands the history viewer's tests step through (the first hand).
HISTORIES = ("auction-partners", "setback", "ten-point-cutthroat", "call-partner")

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Flo", "Gus", "Hal")

#: The parts of a view the page keeps from the events (compared with the engine's fold).
FOLDED = ("seat", "phase", "seat_to_act", "hand", "dealt", "hand_sizes", "auction", "high_bid",
          "high_bidder", "pitcher", "contract", "trump", "trick", "tricks", "leader",
          "tricks_won", "legal_actions", "result", "scores", "names", "money_cents",
          "discarded", "first_to_bid", "discards_left", "sides", "side_names", "off_jack")


def _session(variant: str, players: int, seed: int) -> pc.Match | pc.MoneySession:
    rules = pc.find_variant(variant)
    names = list(NAMES[:players])
    if rules.money != "none":
        return pc.MoneySession(rules, names, dealer=0, seed=seed)
    return pc.Match(rules, players=players, dealer=0, seed=seed, names=names)


def _words(view: View) -> dict[str, Any]:
    """What the engine says of a view: its bids' words, its legal actions' words and the
    symbols of the cards it names, its money as text."""
    rules = view.rules
    data = view.to_dict()
    cards = {c for c in data["hand"] + data["dealt"] + data.get("discarded", [])}
    cards |= {c for _, c in data["trick"]} | {c for t in data["tricks"] for _, c in t["plays"]}
    return {
        "high_bid": bid_word(rules, view.high_bid),
        "contract": bid_word(rules, view.contract),
        "result_bid": None if view.result is None else bid_word(rules, view.result.bid),
        "actions": {str(a): action_words(rules, a) for a in view.legal_actions},
        "cards": {c: card_symbol(parse_card(c)) for c in sorted(cards)},
        "cents": None if view.money_cents is None else [cents_text(c) for c in view.money_cents],
    }


def _copy(table: Table, who: int | None) -> dict[str, Any]:
    """A seat's (or the spectator's) events as the server sends them, and after each one the
    engine's own fold of them and its words."""
    events = table.events_for(who)
    steps = []
    view: View | None = None
    for data in events:
        view = apply_event(view, event_from_dict(data))
        folded = None if view is None else {k: view.to_dict().get(k) for k in FOLDED}
        steps.append({"view": folded, "words": None if view is None else _words(view)})
    return {"seat": who, "events": events, "after": steps}


def _history(table: Table) -> dict[str, Any]:
    """The first finished hand as the server's history viewer gets it (``GET
    /api/tables/{id}/hands``), with the engine's words: each auction action's, and each side's
    name (``View.side_names``)."""
    session = table.session
    names = list(session.names)
    hand = finished_hands(table.record(), names)["hands"][0]
    rules = session.rules
    first = table.hand
    assert first is not None
    view = dataclasses.replace(first.view(None), names=tuple(names))
    return {"hand": hand,
            "actions": {s["action"]: action_words(rules, parse_action(s["action"]))
                        for s in hand["steps"] if s["action"] is not None},
            "side_names": view.side_names}


def game(variant: str, players: int, seed: int, seat: int, hands: int,
         spectator: bool) -> dict[str, Any]:
    """One seeded game: every seat a random bot (seeded), ``hands`` hands; the copy of
    ``seat`` (and the spectator's), and for :data:`HISTORIES` the first hand's history."""
    session = _session(variant, players, seed)
    table = Table(session, bots={s: make_bot("random", seed=seed + s) for s in range(players)})
    history = None
    for _ in range(hands):
        table.advance(stop_at_hand_end=True)
        if history is None and variant in HISTORIES:
            history = _history(table)
        if table.is_over:
            break
        if not table.in_hand:
            table.deal()
    rules = session.rules
    return {"variant": variant, "players": players, "seed": seed,
            "rules": rules_to_dict(rules, resolved=True),
            "ladder_words": {str(a): action_words(rules, a) for a in
                             (parse_action(b) for b, _ in rules_to_dict(rules)["bids"])},
            "copies": [_copy(table, seat), *([_copy(table, None)] if spectator else [])],
            "history": history}


def fixtures() -> dict[str, Any]:
    """Everything ``tests/js/engine.json`` holds."""
    return {"generated_by": "tests/engine_fixtures.py", "folded": list(FOLDED),
            "games": [game(*g) for g in GAMES]}


def text() -> str:
    """The file's text: compact JSON, one game a line, so a change shows where it is."""
    data = fixtures()
    games = ",\n".join(json.dumps(g, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
                       for g in data.pop("games"))
    head = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)[:-1]
    return f'{head},"games":[\n{games}\n]}}\n'


def main() -> int:
    TARGET.parent.mkdir(parents=True, exist_ok=True)
    TARGET.write_text(text(), encoding="utf-8")
    print(f"wrote {TARGET} ({TARGET.stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
