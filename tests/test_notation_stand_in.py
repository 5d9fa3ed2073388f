"""The ``stand-in`` mark in a game record (docs/notation.md, issue 32): written after each
action a server's stand-in bot took for a person, read back into ``HandRecord.stand_ins``, and
ignored by the replay (a marked record replays to the same game); a misplaced mark is refused
with its line."""

from __future__ import annotations

import random

import pytest

import pitchcards as pc
from pitchcards.notation import RecordSyntaxError, read_record, replay, write_record
from test_notation import play_hand, play_session


def _match() -> pc.Match:
    """Two hands of a seeded auction match (the same on every run)."""
    rng = random.Random(5)
    match = pc.Match(pc.find_variant("auction"), players=3, dealer=0, seed=5)
    for _ in range(2):
        play_hand(match, rng)
    return match


#: the second hand's first action a stand-in's (a person away), its fourth the turn timer's
MARKS = {(1, 0): "", (1, 3): "timeout"}


def test_stand_in_actions_are_marked_and_the_record_replays_the_same() -> None:
    match = _match()
    text = write_record(match, stand_ins=MARKS)
    lines = text.splitlines()
    second = lines.index("hand 2 dealer 1")
    deal_end = second + 1 + 3
    assert lines[deal_end + 1] == "stand-in"           # after the hand's first action
    assert lines[deal_end + 1 - 1][0].isdigit()
    assert "stand-in timeout" in lines
    assert lines.count("stand-in") == 1 and lines.count("stand-in timeout") == 1
    record = read_record(text)
    assert [h.stand_ins for h in record.hands] == [{}, {0: "", 3: "timeout"}]
    again = replay(record)
    assert write_record(again) == write_record(match)  # the marks change nothing else


def test_a_money_sessions_stand_ins_are_marked_in_its_hands() -> None:
    session = play_session(3)
    record = read_record(write_record(session, stand_ins={(2, 1): ""}))
    assert [h.stand_ins for h in record.hands][2] == {1: ""}
    assert write_record(replay(record)) == write_record(session)


@pytest.mark.parametrize(("change", "words"), [
    (lambda t: t.replace("hand 2 dealer 1\n", "hand 2 dealer 1\nstand-in\n"),
     "follows the action it marks"),
    (lambda t: t.replace("stand-in timeout\n", "stand-in timeout\nstand-in\n"),
     "follows the action it marks"),
    (lambda t: t.replace("stand-in timeout\n", "stand-in late\n"),
     "takes nothing or 'timeout'"),
])
def test_a_misplaced_or_unknown_stand_in_mark_is_refused_with_its_line(change, words) -> None:
    text = write_record(_match(), stand_ins=MARKS, version=1)  # no checksum to redo
    changed = change(text)
    assert changed != text
    with pytest.raises(RecordSyntaxError, match=words) as refused:
        read_record(changed)
    assert refused.value.line is not None
