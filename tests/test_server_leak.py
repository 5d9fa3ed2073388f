"""No leak over the wire (issue 11): whole games through a real server — every variant and
setup of tests/leak_check.py, players from outside, bots, a spectator — and not one frame to any
connection names a card it could not know at that moment, nor a table's seed.  The checker is
also run for 1,000+ games by ``benchmarks/bench_server.py --leak-games``.

One in-process app (with the test-only hooks) for the module; every table is dealt from a chosen
seed with its bots seeded from it and the random players from the test's seed, so each run
checks the same games (issue 27: 200 + 24 + 16 games on three ``pitch serve`` processes before;
the same setups, each played several times, now)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from leak_check import (
    CALL_SETUPS,
    CARD,
    SETUPS,
    TEN_POINT_SETUPS,
    Game,
    add_full_records,
    leaks,
    play_games,
    seeds,
)
from server_helpers import QUICK_LIMITS, app_fixture

pytestmark = pytest.mark.timeout(600)

server = app_fixture(extra=QUICK_LIMITS, hooked=True)

#: each of the five setups (four variants) eight times
GAMES = 8 * len(SETUPS)


def _db_file(server) -> Path:
    url = server.args.db
    assert url.startswith("sqlite:///"), url
    return Path(url.removeprefix("sqlite:///"))


def test_no_frame_names_a_card_its_receiver_cannot_know(server):
    games = asyncio.run(play_games(server.url, GAMES, concurrency=20, seed=11,
                                   chosen_deals=True))
    secret = seeds(str(_db_file(server)))
    assert len(games) == GAMES
    assert len(secret) >= GAMES
    assert {g.variant for g in games} == {"auction", "auction-partners", "setback", "money"}
    problems = [p for g in games for p in leaks(g, secret)]
    assert problems == [], "\n".join(problems[:20])
    # the check is not vacuous: players saw their own cards, spectators saw played ones
    assert all(CARD.search(" ".join(g.frames["seat:P0"])) for g in games)
    assert all(CARD.search(" ".join(g.frames["spectator"])) for g in games)


#: each of the three setups four times
TEN_POINT_GAMES = 4 * len(TEN_POINT_SETUPS)


def test_no_frame_names_another_seats_discard(server):
    """The ten-point family (T4): random players, bots and a spectator never see a card another
    seat discarded — not while it is discarded, not in play, not after the hand, not in the
    hand history or the score sheet.  The truth is the full record, from the server's store."""
    games = asyncio.run(play_games(server.url, TEN_POINT_GAMES, concurrency=12, seed=15,
                                   setups=TEN_POINT_SETUPS, chosen_deals=True))
    add_full_records(server.args.db, games)
    secret = seeds(str(_db_file(server)))
    assert {g.variant for g in games} == {"ten-point", "ten-point-cutthroat"}
    problems = [p for g in games for p in leaks(g, secret)]
    assert problems == [], "\n".join(problems[:20])
    # not vacuous: seats discarded, each seat was told its own discards and others' as hidden
    assert all("discard " in g.full for g in games if g.full is not None)
    seen = " ".join(f for g in games for f in g.frames["seat:P0"])
    assert '"action":"discard"' in seen.replace(" ", "")
    assert all(g.pages["hands"].startswith('{"hands"') for g in games)


#: each of the two setups four times
CALL_GAMES = 4 * len(CALL_SETUPS)


def test_no_frame_names_the_secret_partner(server):
    """Call-your-partner (CP5): random players, bots and a spectator — no frame names a card
    its receiver cannot know (the called card is public once called; the pitcher's offered
    calls name no card's place), and none says who the partner is before the called card is
    played, nor tells a seat it holds a card it does not."""
    games = asyncio.run(play_games(server.url, CALL_GAMES, concurrency=8, seed=36,
                                   setups=CALL_SETUPS, chosen_deals=True))
    secret = seeds(str(_db_file(server)))
    assert {g.variant for g in games} == {"call-partner"}
    problems = [p for g in games for p in leaks(g, secret)]
    assert problems == [], "\n".join(problems[:20])
    # not vacuous: calls were made and partners revealed in the frames checked
    seen = " ".join(f for g in games for f in g.frames["spectator"]).replace(" ", "")
    assert '"action":"call' in seen and '"partner_known":true' in seen


def test_the_checker_catches_a_partner_told_early():
    """A frame saying who the partner is before the called card is played is reported; the
    same after it is not."""
    import pitchcards as pc
    from pitchcards.notation import write_record
    from pitchcards.table import Table

    m = pc.Match(pc.find_variant("call-partner").replace(target=1), players=5, dealer=0,
                 seed=5, names=["A", "B", "C", "D", "E"])
    t = Table(m)
    t.deal()
    while t.in_hand:
        t.push(t.view(t.to_act).legal_actions[0])  # type: ignore[arg-type]
    hand = m.hands[0]
    assert hand.called_card is not None
    card = pc.cards.card_name(hand.called_card)
    early = ['{"type":"event","event":{"type":"hand_dealt","hand":0,"seq":1}}',
             f'{{"type":"event","event":{{"type":"action_taken","seq":7,"seat":0,'
             f'"action":"call {card}"}}}}',
             '{"type":"event","event":{"type":"action_taken","seq":8,"seat":1,'
             '"action":"pass","view":{"partner":3,"partner_known":false}}}']
    game = Game("t", "call-partner", {"spectator": early}, {"spectator": None},
                write_record(m, public=True))
    found = leaks(game)
    assert any("spectator frame 2" in p and "names the partner" in p for p in found), found
    late = [*early[:2], f'{{"type":"event","event":{{"type":"action_taken","seq":8,"seat":1,'
                        f'"action":"play {card}","view":{{"partner":3,"partner_known":true}}}}}}']
    assert not [p for p in leaks(Game("t", "call-partner", {"spectator": late},
                                      {"spectator": None}, write_record(m, public=True)))
                if "partner" in p]


def test_the_checker_catches_a_discard():
    """A frame naming another seat's discard, and a hand history showing one, are reported."""
    import pitchcards as pc
    from pitchcards.notation import write_record
    from pitchcards.table import Table

    m = pc.Match(pc.find_variant("ten-point"), players=4, dealer=0, seed=5,
                 names=["A", "B", "C", "D"])
    t = Table(m)
    t.deal()
    while t.in_hand:
        t.push(t.view(t.to_act).legal_actions[0])  # type: ignore[arg-type]
    thrown = next(iter(pc.cards.cards_of(m.hands[0].discarded(1))))
    card = pc.cards.card_name(thrown)
    frames = ['{"type":"event","event":{"type":"hand_dealt","hand":0,"seq":1}}',
              f'{{"type":"event","event":{{"type":"action_taken","seq":9,"seat":1,'
              f'"action":"discard {card}"}}}}']
    hands = json.dumps({"hands": [{"number": 1, "steps": [{"hands": [[card]]},
                                                            {"action": f"discard {card}"}]}]})
    game = Game("t", "ten-point", {"seat:A": frames, "spectator": frames},
                {"seat:A": "A", "spectator": None}, write_record(m, public=True),
                {"hands": hands}, write_record(m))
    found = leaks(game)
    assert any(card in p and "seat:A frame 1" in p and "discards" in p for p in found)
    assert any(card in p and "spectator frame 1" in p for p in found)
    assert any("discard action" in p for p in found)
    assert any("hand 1 names discards" in p for p in found)
    # the seat that discarded may see its own card
    own = Game("t", "ten-point", {"seat:B": frames}, {"seat:B": "B"},
               write_record(m, public=True), {}, write_record(m))
    assert leaks(own) == []


def test_the_checker_catches_a_leak():
    """A frame that shows a player another seat's card, or a seed, is reported."""
    import pitchcards as pc
    from pitchcards.table import Table

    m = pc.Match(pc.find_variant("auction"), players=3, dealer=0, seed=3, names=["A", "B", "C"])
    t = Table(m)
    t.deal()
    card_of_b = t.view(1).hand[0]
    frames_a = ['{"type":"event","event":{"type":"hand_dealt","hand":0,"seq":1}}',
                f'{{"type":"chat","name":"B","text":"I hold {card_of_b}","at":0}}',
                '{"type":"chat","name":"B","text":"seed 12345678901","at":0}']
    while t.in_hand:
        t.push(t.view(t.to_act).legal_actions[0])  # type: ignore[arg-type]
    game = Game("t", "auction", {"seat:A": frames_a}, {"seat:A": "A"}, pc.write_record(m))
    found = leaks(game, ["12345678901"])
    assert any(card_of_b in p and "frame 1" in p for p in found)
    assert any("secret" in p and "frame 2" in p for p in found)
    assert not any("frame 0" in p for p in found)


def test_a_page_may_keep_earlier_hands_words_a_frame_may_not():
    """A DOM snapshot in hand 2 may still name a card played face up in hand 1 (the score
    sheet, the live region); a frame of hand 2 naming it is reported."""
    import pitchcards as pc
    from pitchcards.cards import card_name
    from pitchcards.table import Table

    m = pc.Match(pc.find_variant("auction"), players=3, dealer=0, seed=4, names=["A", "B", "C"])
    t = Table(m)
    for _ in range(2):
        t.deal()
        while t.in_hand:
            t.push(t.view(t.to_act).legal_actions[0])  # type: ignore[arg-type]
    first = m.hands[0].history
    played = next(card_name(a.card) for s, a in first if a.kind == "play" and s != 0
                  and a.card is not None and not m.hands[1].dealt[0] >> a.card & 1)
    frames = ['{"type":"event","event":{"type":"hand_dealt","hand":0,"seq":1}}',
              f'{{"type":"event","event":{{"type":"action_taken","seq":2,"seat":1,'
              f'"action":"play {played}"}}}}',
              '{"type":"event","event":{"type":"hand_dealt","hand":1,"seq":3}}',
              json.dumps({"type": "dom", "named": [played], "html": ""}),
              f'{{"type":"chat","name":"B","text":"{played}","at":0}}']
    found = leaks(Game("t", "auction", {"seat:A": frames}, {"seat:A": "A"}, pc.write_record(m)))
    assert not any("frame 3" in p for p in found)
    assert any("frame 4" in p and played in p for p in found)
