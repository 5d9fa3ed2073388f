"""The pinned public contract of ``import pitchcards`` (other code relies on exactly this)."""

from __future__ import annotations

import random
import subprocess
import sys
from fractions import Fraction

import pytest

import pitchcards as pc

STACK = ["AS KS 2S 9H 3D TC", "QS JS 3S 9D 4D TD", "AH KH 2H 9C 5D TH", "QH JH 3H 8C 6D TS"]


def test_variants_and_replace() -> None:
    for name in ("money", "auction", "auction-partners", "setback"):
        assert pc.find_variant(name).name == name
    rules = pc.find_variant("auction").replace(low_to="holder")
    assert rules.low_to == "holder"
    assert pc.find_variant("auction").low_to == "capturer"  # frozen: the preset is unchanged
    with pytest.raises(ValueError, match="low_to"):
        rules.replace(low_to="sideways")
    with pytest.raises(ValueError, match=r"unknown option.*colour"):
        rules.replace(colour="red")
    with pytest.raises(ValueError, match="unknown variant"):
        pc.find_variant("bridge")


def test_hand_contract() -> None:
    rules = pc.find_variant("auction")
    h = pc.Hand.deal(rules, players=4, dealer=0, seed=1)
    same = pc.Hand.deal(rules, players=4, dealer=0, seed=1)
    assert h.dealt == same.dealt  # reproducible from the seed
    assert h.seat_to_act == 1
    assert h.trump is None and h.pitcher is None and h.result is None
    h = pc.Hand.deal(rules, players=4, dealer=0, cards=STACK)
    assert all(isinstance(a, pc.Action) for a in h.legal_actions())
    assert {str(a) for a in h.legal_actions()} >= {"pass", "bid 1", "bid 4", "pitch QS"}
    h.push("bid 2")
    h.push("pass")
    h.push(pc.parse_action("bid 3"))
    assert h.pop() == pc.parse_action("bid 3")
    twin = h.copy()
    h.push("pass")
    assert twin.seat_to_act == 3 and h.seat_to_act == 0
    h.push("pass")  # dealer passes: seat 1 pitches with its bid of 2
    assert h.pitcher == 1 and h.trump is None and h.seat_to_act == 1
    h.push("play QS")
    assert h.trump == "S"
    while h.seat_to_act is not None:
        h.push(h.legal_actions()[0])
    r = h.result
    assert r is not None and r.pitcher == 1 and r.bid == 2
    assert isinstance(r.made, bool) and isinstance(r.moon, bool)
    assert len(r.points) == len(r.deltas) == 4
    for side in (r.high, r.low, r.jack, r.game):
        assert side is None or 0 <= side < 4


def test_errors_are_value_errors_and_name_the_problem() -> None:
    h = pc.Hand.deal(pc.find_variant("auction"), players=4, dealer=0, cards=STACK)
    with pytest.raises(pc.InvalidActionError, match="cannot read action 'bid lots'"):
        h.push("bid lots")
    with pytest.raises(pc.IllegalActionError) as info:
        h.push("play AS")
    err = info.value
    assert isinstance(err, ValueError)
    assert err.seat == 1 and err.phase == "auction" and "bid 1" in err.legal
    assert "'play AS'" in str(err) and "seat 1" in str(err) and "auction" in str(err)
    with pytest.raises(pc.IllegalActionError, match="not this seat's turn"):
        h.push("pass", seat=2)
    assert h.history == []


def test_card_text_forms() -> None:
    assert pc.parse_card("10♠") == pc.parse_card("TS") == pc.parse_card("ts")
    assert pc.parse_card("Q♥") == pc.parse_card("QH")
    assert str(pc.parse_action("PLAY 10h")) == "play TH"
    assert str(pc.parse_action("bid smudge")) == "bid moon"
    with pytest.raises(pc.InvalidActionError):
        pc.parse_card("1X")


def test_match_contract() -> None:
    rng = random.Random(4)
    m = pc.Match(pc.find_variant("auction"), players=4, dealer=0, seed=9, scores=[6, 6, 6, 6])
    with pytest.raises(pc.IllegalActionError):
        m.push("pass")  # no hand dealt yet
    while m.winner is None:
        hand = m.deal()
        with pytest.raises(pc.IllegalActionError):
            m.deal()  # a hand is in progress
        while hand.seat_to_act is not None:
            legal = hand.legal_actions()
            texts = [str(a) for a in legal]
            # Cheap bids so that some pitcher makes its contract soon.
            pick = "bid 1" if "bid 1" in texts else "pass" if "pass" in texts else None
            m.push(pick if pick else rng.choice(legal))
        assert m.hand is hand
    assert len(m.results) == len(m.hands)
    assert m.scores[m.winner] >= 7
    with pytest.raises(pc.IllegalActionError, match="over"):
        m.deal()


def test_money_session_contract() -> None:
    rng = random.Random(5)
    s = pc.MoneySession(pc.find_variant("money"), players=["Ann", "Bob", "Cy"], dealer=0, seed=1)
    hand = s.deal()
    with pytest.raises(pc.IllegalActionError, match="during a hand"):
        s.join("Dee")
    while hand.seat_to_act is not None:
        s.push(rng.choice(hand.legal_actions()))
    s.join("Dee")
    assert "Dee" in s.players and len(s.players) == 4
    paid = s.leave("Bob")
    assert isinstance(paid, Fraction)
    final = s.settle()
    assert set(final) == {"Ann", "Cy", "Dee"}
    assert sum(final.values()) + paid == 0
    assert all(isinstance(v, int) for v in s.stars.values())


def test_pitch_demo_command_runs() -> None:
    out = subprocess.run([sys.executable, "-m", "pitchcards.cli", "demo", "--hands", "3"],
                         capture_output=True, text=True, check=True)
    assert "hand 1" in out.stdout and "scores" in out.stdout


def test_benchmark_script_runs(tmp_path: object) -> None:
    out = subprocess.run([sys.executable, "benchmarks/bench_engine.py", "--seconds", "0.05",
                          "--repeats", "1"], capture_output=True, text=True, check=True)
    assert "pitchcards Hand (checked)" in out.stdout


def test_a_seeded_game_rebuilt_from_its_record_deals_the_same_next_hand() -> None:
    rng = random.Random(8)
    m = pc.Match(pc.find_variant("auction"), players=4, dealer=0, seed=11)
    hand = m.deal()
    while hand.seat_to_act is not None:
        m.push(rng.choice(hand.legal_actions()))
    rebuilt = pc.replay(pc.read_record(pc.write_record(m)))
    assert isinstance(rebuilt, pc.Match)
    assert rebuilt.deal().dealt == m.deal().dealt


def test_redeal_swaps_hidden_cards_and_keeps_the_history() -> None:
    rng = random.Random(3)
    h = pc.Hand.deal(pc.find_variant("auction"), players=4, dealer=0, seed=3)
    while h.phase == "auction" or len(h.completed_tricks()) < 2:
        h.push(rng.choice(h.legal_actions()))
    seat = h.seat_to_act
    assert seat is not None
    others = [s for s in range(4) if s != seat]
    holdings = [h.hand_of(s) for s in range(4)]
    a, b = others[0], others[1]
    card_a = holdings[a] & -holdings[a]
    card_b = holdings[b] & -holdings[b]
    holdings[a] ^= card_a | card_b
    holdings[b] ^= card_a | card_b
    history = h.history
    view = h.view(seat)
    h.redeal(holdings)
    assert h.history == history and h.view(seat) == view  # the seat to act cannot tell
    assert h.hand_of(a) == holdings[a] and h.dealt[a] & card_b
    with pytest.raises(pc.IllegalActionError, match="redeal"):
        h.redeal([holdings[0]] * 4)  # overlapping holdings are refused
    while h.seat_to_act is not None:
        h.push(rng.choice(h.legal_actions()))
    assert h.result is not None
