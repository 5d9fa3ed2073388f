"""One driver (issue 28, item 2): the Table says what happens next, and applies a bot's choice
only if the position it was chosen for is still current.

Every table here is dealt stacked cards (``helpers.fill``) with scripted bots, so each test
knows who acts when; nothing waits on a clock.
"""

from __future__ import annotations

import threading

import pytest

import pitchcards as pc
from helpers import fill
from pitchcards.actions import Action
from pitchcards.bots.base import Bot
from pitchcards.table import BotTurn, DealNext, OutsideTurn, Over, Table, seat_of
from pitchcards.views import View

#: Seat 1 holds the trumps, and bids 2 in spades; everyone else passes (auction, dealer 0).
CARDS = fill("2C 3C", "AS KS JS 2S", "", "")


class FirstLegal(Bot):
    """Plays the first legal action of its view: a bot whose every choice the test knows."""

    def __init__(self) -> None:
        super().__init__(seed=0)
        self.views: list[View] = []

    def choose(self, view: View) -> Action:
        self.views.append(view)
        return view.legal_actions[0]


def _table(history: bool = True, outside: int = 0) -> Table:
    match = pc.Match(pc.find_variant("auction"), players=4, dealer=0, seed=1)
    bots: dict[int | str, Bot] = {s: FirstLegal() for s in range(4) if s != outside}
    return Table(match, bots=bots, auto_deal=False, history=history)


def _state(table: Table) -> tuple[object, ...]:
    hand = table.hand
    return (table.seq, None if hand is None else tuple(hand.history),
            None if hand is None else hand.seat_to_act, len(table.session.hands))


def test_each_kind_of_step_on_a_stacked_deal() -> None:
    table = _table()
    assert table.next_step() == DealNext(0)
    table.deal(CARDS)
    step = table.next_step()  # dealer 0: seat 1 bids first, and a bot plays it
    assert isinstance(step, BotTurn)
    assert (step.seat, step.seq) == (1, table.seq)
    assert step.view == table.view(1) and step.bot is table.bot_at(1)
    assert table.is_current(step)
    assert step.apply(step.choose()) is True
    for seat in (2, 3):  # the other bots, in turn
        turn = table.next_step()
        assert isinstance(turn, BotTurn) and turn.seat == seat
        assert turn.apply(turn.choose())
    waiting = table.next_step()
    assert isinstance(waiting, OutsideTurn) and (waiting.seat, waiting.seq) == (0, table.seq)
    assert table.is_current(waiting)
    table.push(table.view(0).legal_actions[0], seat=0)
    assert not table.is_current(waiting)  # the outside seat acted: its turn is gone


def test_a_stale_choice_is_refused_as_moved_on_and_changes_nothing() -> None:
    table = _table()
    table.deal(CARDS)
    turn = table.next_step()
    assert isinstance(turn, BotTurn) and turn.seat == 1
    choice = turn.choose()
    other = table.next_step()
    assert isinstance(other, BotTurn)
    assert other.apply(choice) is True  # the same position, taken twice: the first one applies
    before = _state(table)
    assert turn.apply(choice) is False  # the second was chosen for a position gone by
    assert _state(table) == before
    table.pop()  # back where the first turn was chosen: the same seat, the same cards ...
    before = _state(table)
    assert table.to_act == 1 and turn.apply(choice) is False  # ... but not the same position
    assert _state(table) == before


def test_without_history_a_turn_goes_stale_on_every_change() -> None:
    """With ``history=False`` the seq never moves (no events): the table still knows."""
    table = _table(history=False)
    table.deal(CARDS)
    turn = table.next_step()
    assert isinstance(turn, BotTurn) and table.seq == 0
    choice = turn.choose()
    assert turn.apply(choice)
    table.pop()  # seat 1 to act again, at seq 0 again
    assert table.seq == turn.seq and table.to_act == turn.seat
    assert not table.is_current(turn) and turn.apply(choice) is False
    assert table.hand is not None and table.hand.history == []


def test_a_seat_handed_to_a_person_or_another_bot_drops_the_bots_answer() -> None:
    table = _table()
    table.deal(CARDS)
    turn = table.next_step()
    assert isinstance(turn, BotTurn)
    choice = turn.choose()
    table.set_bot(1, None)  # the player came back: the seat is theirs
    before = _state(table)
    assert turn.apply(choice) is False and _state(table) == before
    waiting = table.next_step()
    assert isinstance(waiting, OutsideTurn) and waiting.seat == 1
    table.set_bot(1, FirstLegal())  # a stand-in takes it again: the outside turn is gone
    assert not table.is_current(waiting)


def test_a_turn_of_another_table_is_not_current_here() -> None:
    """A new game started while a bot thought: its answer is not for the new table."""
    old, new = _table(), _table()
    old.deal(CARDS)
    new.deal(CARDS)
    turn = old.next_step()
    assert isinstance(turn, BotTurn)
    before = _state(new)
    assert new.apply_if_current(turn, turn.choose()) is False
    assert _state(new) == before


def test_what_is_not_a_bots_turn_is_refused_with_a_reason() -> None:
    table = _table()
    table.deal(CARDS)
    table.advance()  # the bots bid, up to seat 0, played from outside
    waiting = table.next_step()
    assert isinstance(waiting, OutsideTurn)
    before = _state(table)
    with pytest.raises(pc.IllegalActionError, match="outside seat's action goes through push") \
            as refused:
        table.apply_if_current(waiting, "pass")  # type: ignore[arg-type]
    assert refused.value.reason == "not_your_seat" and refused.value.seat == 0
    assert refused.value.phase == "auction"
    with pytest.raises(pc.IllegalActionError) as not_a_turn:
        table.apply_if_current("pass", "pass")  # type: ignore[arg-type]
    assert not_a_turn.value.reason == "not_your_seat"
    assert _state(table) == before


def test_an_illegal_choice_for_a_current_turn_raises_the_engines_error() -> None:
    table = _table()
    table.deal(CARDS)
    turn = table.next_step()
    assert isinstance(turn, BotTurn)
    before = _state(table)
    with pytest.raises(pc.IllegalActionError) as refused:
        turn.apply("play AS")  # the auction is on: no card is played yet
    assert refused.value.seat == 1 and refused.value.phase == "auction"
    assert _state(table) == before and table.is_current(turn)


def test_a_bot_thinks_on_another_thread_from_its_view_only() -> None:
    table = _table()
    table.deal(CARDS)
    turn = table.next_step()
    assert isinstance(turn, BotTurn)
    chosen: list[Action] = []
    worker = threading.Thread(target=lambda: chosen.append(turn.choose()))
    worker.start()
    worker.join(timeout=60)  # only catches a hang
    assert not worker.is_alive() and turn.apply(chosen[0])
    assert turn.bot.views == [turn.view]  # type: ignore[attr-defined]


def test_a_money_table_between_hands_says_deal_until_it_is_over() -> None:
    rules = pc.find_variant("money")
    session = pc.MoneySession(rules, ["Ann", "Bob", "Cy"], dealer=0, seed=3)
    table = Table(session, bots={n: FirstLegal() for n in ("Bob", "Cy")}, auto_deal=False)
    assert table.next_step() == DealNext(0)
    table.deal()
    stale = None
    while not isinstance(step := table.next_step(), DealNext):
        if isinstance(step, OutsideTurn):  # Ann, from outside
            table.push(table.view(step.seat).legal_actions[0], seat=step.seat)
        else:
            assert isinstance(step, BotTurn)
            stale = step
            assert step.apply(step.choose())
    assert step == DealNext(1) and stale is not None and not table.is_current(stale)
    table.join("Dee", FirstLegal())  # between hands (A-R8.3): still a hand to deal
    assert table.next_step() == DealNext(1)
    table.leave("Bob")
    table.leave("Cy")
    assert table.next_step() == DealNext(1)
    table.leave("Dee")  # one player left: the session ends (A-R8.5)
    assert table.next_step() == Over()


def test_a_match_played_out_is_over_and_advance_agrees() -> None:
    match = pc.Match(pc.find_variant("auction"), players=4, dealer=0, seed=5)
    table = Table(match, bots={s: FirstLegal() for s in range(4)})
    table.advance()  # all bots, auto_deal: the same decisions as next_step, to the end
    assert table.is_over and table.next_step() == Over()
    table.advance()  # over: nothing happens
    assert table.is_over


def test_advance_stops_where_next_step_says_a_person_acts() -> None:
    table = _table()
    table.advance()  # auto_deal off: nothing to do but deal, which is the face's to schedule
    assert table.hand is None and table.next_step() == DealNext(0)
    table.deal(CARDS)
    table.advance()
    step = table.next_step()
    assert isinstance(step, OutsideTurn) and step.seat == 0 == table.to_act


@pytest.mark.parametrize(("who", "seat"), [(0, 0), (2, 2), ("Cy", 2), (3, None), (-1, None),
                                           (True, None), ("Dee", None), (1.0, None),
                                           (None, None)])
def test_one_rule_says_which_seat_who_is(who: object, seat: int | None) -> None:
    assert seat_of(who, ("Ann", "Bob", "Cy")) == seat


def test_each_way_of_naming_a_seat_refuses_the_same_way() -> None:
    table = _table()
    table.deal(CARDS)
    for call in (lambda: table.set_bot(9, None), lambda: table.snapshot(9),
                 lambda: table.events(9), lambda: table.set_bot("Nobody", None),
                 lambda: table.events("Nobody")):
        with pytest.raises(pc.IllegalActionError, match=r"is not a seat .* or a player") as no:
            call()
        assert no.value.reason == "no_such_seat"
