"""Replay the golden game records in tests/golden and check what they say.

Each golden file is one complete game per variant, generated once by
``tests/golden/make_golden.py``.  Reading a record replays it and compares every recorded result,
running total, payout and winner with the replay, so any change in how the engine scores these
hands (silent rule drift) fails here.  Intended rule changes: regenerate the files deliberately.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

import pitchcards as pc
from pitchcards.notation import HandRecord, read_record, replay, replay_text, write_record

GOLDEN = Path(__file__).resolve().parent / "golden"
VARIANTS = ("money", "auction", "auction-partners", "setback", "ten-point",
            "ten-point-cutthroat")


def _load(variant: str) -> str:
    return (GOLDEN / f"{variant}.txt").read_text(encoding="utf-8")


def _body(text: str) -> str:
    """The record without the generator's leading comment block."""
    lines = text.splitlines(keepends=True)
    while lines and lines[0].startswith("#"):
        lines.pop(0)
    return "".join(lines)


@pytest.mark.parametrize("variant", VARIANTS)
def test_golden_record_replays_to_its_recorded_results(variant: str) -> None:
    text = _load(variant)
    record = read_record(text)  # replays it: every result/total/payout/winner line must hold
    assert record.variant == variant
    assert record.options == {}
    hands = record.hands
    assert hands, "a golden record holds hands"
    assert all(h.result is not None and h.total is not None for h in hands)
    game = replay(record)
    assert len(game.hands) == len(hands)
    for rec, hand in zip(hands, game.hands, strict=True):
        assert hand.result is not None
        assert hand.dealer == rec.dealer
        assert [str(a) for _, a in hand.history] == [str(a) for _, a in rec.actions]
    if isinstance(game, pc.Match):
        # A complete match: the last total is the final score and the winner line holds.
        assert record.winner is not None and game.winner == record.winner
        assert hands[-1].total == game.scores
        pitcher_side = game.results[-1].pitcher_side
        assert game.winner == pitcher_side  # bidder goes out (B-R8.2)
        target = game.rules.target
        assert target is not None and game.scores[game.winner] >= target
    else:
        assert isinstance(game, pc.MoneySession)
        assert game.finished
        kinds = [e.kind for e in record.events]
        assert kinds == ["join", "leave", "settle"]
        last = hands[-1]
        assert last.seats is not None and last.total == [game.scores[n] for n in last.seats]
        recorded = {n: v for e in record.events for n, v in e.payouts.items()}
        assert recorded == game.payouts
        assert sum(game.payouts.values(), Fraction(0)) == 0  # per_hand mode is zero-sum
        assert game.pot == 0


@pytest.mark.parametrize("variant", VARIANTS)
def test_golden_record_text_is_stable(variant: str) -> None:
    """Writing the replayed game gives back the golden text (the format has not drifted).

    The golden files are version 1; version 2 (what ``write_record`` writes by default) is the
    same text with its version number and an ``end`` line added.
    """
    text = _load(variant)
    record = read_record(text)
    game = replay(record)
    assert write_record(game, version=record.version) == _body(text)
    if record.version == 1:  # the files as generated: version 2 is the same plus its end line
        v2 = write_record(game)
        old = v2.replace("pitchcards-record 2\n", "pitchcards-record 1\n", 1)
        assert old.startswith(_body(text))
        assert v2.count("\n") == _body(text).count("\n") + 2  # a blank line and the end line


@pytest.mark.parametrize("variant", VARIANTS)
def test_golden_record_prints(variant: str) -> None:
    out = replay_text(_load(variant))
    record = read_record(_load(variant))
    assert out.count("\nhand ") == len(record.hands)
    if variant == "money":
        assert "Eve joins" in out and "Bob leaves and is paid" in out
        assert "session settled" in out and "payouts:" in out and "pot: $0.00" in out
    else:
        partners = pc.find_variant(variant).partnership_mode
        assert f"winner: {'team' if partners else 'seat'}" in out


def test_a_drifted_result_is_caught() -> None:
    """What the golden test guards against: a hand that no longer scores as recorded."""
    text = _load("auction")
    record = read_record(text)
    first = record.hands[0]
    assert isinstance(first, HandRecord) and first.result is not None
    first.result["deltas"] = " ".join("+9" for _ in first.result["deltas"].split())
    with pytest.raises(ValueError, match=r"line \d+: hand 1: the replayed result differs"):
        replay(record)
