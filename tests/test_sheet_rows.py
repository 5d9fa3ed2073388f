"""The real table's score sheet as one row model in the core (issue 28, item 4): the terminal's
``pitch score`` formats these rows, the server's scorekeeper serialises them."""

from __future__ import annotations

from pitchcards.outcome import Outcome
from pitchcards.rules import find_variant, parse_money
from pitchcards.scoresheet import ScoreSheet
from pitchcards.server.scores import present
from pitchcards.settlement import Leave, Payment
from pitchcards.sheet_rows import (
    HandLine,
    JoinLine,
    LeaveLine,
    SettleLine,
    Standing,
    columns,
    hand_line,
    leave_sentence,
    sheet_lines,
    standings,
)
from pitchcards.tui.score_sheet import leave_text
from pitchcards.tui.score_sheet import sheet_lines as terminal_lines


def _money_sheet() -> ScoreSheet:
    rules = find_variant("money").replace(stake_per_point=parse_money("0.10", what="stake"))
    sheet = ScoreSheet.new(rules, ["Ann", "Bob", "Cy", "Dee"])
    sheet.enter(Outcome(bidder=1, bid=2, trump="S", high=1, low=1, game=1))
    sheet.leave("Dee")
    sheet.join("Fay")
    sheet.enter(Outcome(bidder=0, bid=3, trump="H", high=0, low=2, jack=0, game=0))
    return sheet


def test_a_money_sheet_is_hands_joins_leaves_and_the_settlement_in_order() -> None:
    sheet = _money_sheet()
    assert columns(sheet) == (("Ann",), ("Bob",), ("Cy",), ("Dee",), ("Fay",))
    lines = sheet_lines(sheet)
    assert [type(line) for line in lines] == [HandLine, LeaveLine, JoinLine, HandLine]
    first, left, joined, second = lines
    assert isinstance(first, HandLine) and isinstance(second, HandLine)
    assert (first.number, first.dealer, first.bidder, first.bid, first.trump) == \
        (1, "Ann", "Bob", 2, "S")
    assert first.outcome == "made" and first.takers["high"] == ("Bob",)
    assert first.takers["jack"] is None  # nobody held the jack in this outcome
    assert first.sides == (("Ann",), ("Bob",), ("Cy",), ("Dee",))
    assert first.change_of(("Bob",)) == 3 and first.change_of(("Fay",)) is None
    assert isinstance(left, LeaveLine) and left.leave.name == "Dee"
    assert joined == JoinLine("Fay", 0)
    assert ("Dee",) not in second.sides and second.change_of(("Fay",)) == 0
    assert hand_line(sheet) == second and hand_line(sheet, 0) == first
    table = standings(sheet)
    assert [s.side for s in table] == list(columns(sheet))
    dee = table[3]
    assert not dee.seated and dee.cents == left.leave.cents and dee.stars == 0
    sheet.settle()
    assert isinstance(sheet_lines(sheet)[-1], SettleLine)
    assert sum(s.cents or 0 for s in standings(sheet)) == 0


def test_a_match_has_a_column_per_side_and_a_winner() -> None:
    sheet = ScoreSheet.new(find_variant("auction-partners").replace(target=3),
                           ["Ann", "Bob", "Cy", "Dee"])
    sheet.enter(Outcome(bidder=0, bid=3, trump="C", high=0, low=2, jack=0, game=1))
    assert columns(sheet) == (("Ann", "Cy"), ("Bob", "Dee"))
    (line,) = sheet_lines(sheet)
    assert isinstance(line, HandLine) and line.sides == columns(sheet)
    assert line.takers == {"high": ("Ann", "Cy"), "low": ("Ann", "Cy"), "jack": ("Ann", "Cy"),
                           "game": ("Bob", "Dee")}
    assert standings(sheet) == [Standing(("Ann", "Cy"), 3, winner=True),
                                Standing(("Bob", "Dee"), 1)]


def test_the_terminal_and_the_server_lay_out_the_same_rows() -> None:
    # One model, two faces: each hand, join and leave the core lists is a line of the
    # terminal's sheet and a row of the server's, in the same order, with the same changes.
    sheet = _money_sheet()
    served = present(sheet)
    lines = sheet_lines(sheet)
    assert [row["kind"] for row in served["rows"]] == ["hand", "leave", "join", "hand"]
    assert served["columns"] == [" & ".join(side) for side in columns(sheet)]
    text = terminal_lines(sheet)
    assert len(text) == 1 + len(lines) + 1 + 3 + 1  # head, rows, rule, score/money/to settle, key
    for line, row, shown in zip(lines, served["rows"], text[1:], strict=False):
        if isinstance(line, HandLine):
            assert row["changes"] == {side[0]: d for side, d in
                                      zip(line.sides, line.changes, strict=True)}
            assert shown.startswith(f"{line.number:>2} {line.dealer[:5]:<5} {line.bidder[:3]}")
        elif isinstance(line, JoinLine):
            assert row["score"] == line.score and f"(score {line.score})" in shown
        else:
            assert isinstance(line, LeaveLine) and row["cents"] == line.leave.cents
    assert [s["cents"] for s in served["standings"]] == [s.cents for s in standings(sheet)]


def test_a_leave_is_one_sentence_in_every_face() -> None:
    paid = Leave("Dee", 120, (Payment("Ann", "Dee", 80), Payment("Bob", "Dee", 40)))
    owed = Leave("Cy", -35, (Payment("Cy", "Ann", 35),))
    alone = Leave("Eve", 0, ())
    assert leave_sentence(paid) == "Dee leaves: paid $1.20 — Ann pays Dee $0.80, Bob pays Dee $0.40"
    assert leave_sentence(owed) == "Cy leaves: pays $0.35 — Cy pays Ann $0.35"
    assert leave_sentence(alone) == "Eve leaves: paid $0.00"
    served = present(_money_sheet())["rows"][1]
    left = sheet_lines(_money_sheet())[1]
    assert isinstance(left, LeaveLine)
    assert served["text"] == leave_sentence(left.leave) == leave_text(left.leave)
    # the terminal's verb agrees with "You" (its own player), the rest of the sentence is one
    assert leave_text(Leave("You", 120, paid.payments)) == leave_sentence(paid).replace(
        "Dee leaves", "You leave", 1)
