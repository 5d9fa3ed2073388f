"""Settling a real table (issue 16): exact cents that sum to zero with joins and leaves, the
fewest payments, who pays a leaver, and the score sheet's JSON and undo."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pitchcards as pc
from pitchcards.outcome import Outcome
from pitchcards.scoresheet import ScoreSheet
from pitchcards.settlement import POT, Payment, fewest_payments, leaver_payments

MONEY = pc.find_variant("money")


def _random_outcome(sheet: ScoreSheet, rng: random.Random) -> Outcome:
    """A random legal hand at the sheet's table, played out: its outcome."""
    session = sheet.session
    assert isinstance(session, pc.MoneySession)
    hand = pc.Hand.deal(session.rules, session.seat_count, session.next_dealer,
                        seed=rng.randrange(2**32))
    while hand.seat_to_act is not None:
        hand.push(rng.choice(hand.legal_actions()))
    return Outcome.of(hand)


def _settled_to_zero(sheet: ScoreSheet) -> None:
    """Everyone's cash after the settlement's payments is what they were paid, to the cent;
    per_hand money is zero-sum."""
    session = sheet.money
    assert session is not None and session.finished
    cash = dict(sheet.cash)
    for p in sheet.settlement():
        assert p.cents > 0
        cash[p.payer] = cash.get(p.payer, 0) - p.cents
        cash[p.payee] = cash.get(p.payee, 0) + p.cents
    assert {n: c for n, c in cash.items() if c and n != POT} == {
        n: c for n, c in session.payout_cents.items() if c}
    assert sum(session.payout_cents.values()) == 0


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 8),
       steps=st.lists(st.sampled_from(["hand", "hand", "join", "leave"]), max_size=16),
       flat=st.booleans())
def test_the_settlement_is_exact_and_sums_to_zero_with_joins_and_leaves(
        seed: int, players: int, steps: list[str], flat: bool) -> None:
    rng = random.Random(seed)
    rules = MONEY.replace(money="per_point_flat") if flat else MONEY
    sheet = ScoreSheet.new(rules, [f"P{i}" for i in range(players)])
    joined = 0
    for step in steps:
        session = sheet.session
        if session.is_over:
            break
        if step == "join" and session.seat_count < 8:
            joined += 1
            sheet.join(f"J{joined}")
        elif step == "leave":
            name = rng.choice(list(session.names))
            before = sheet.cash.get(name, 0)
            leave = sheet.leave(name)
            moved = sum(p.cents if p.payee == name else -p.cents for p in leave.payments)
            assert before + moved == leave.cents
            assert POT not in {p.payer for p in leave.payments} | {p.payee for p in leave.payments}
        else:
            sheet.enter(_random_outcome(sheet, rng))
    if not sheet.session.is_over:
        sheet.settle()
    _settled_to_zero(sheet)
    again = ScoreSheet.from_json(sheet.to_json())
    assert again.cash == sheet.cash and again.leaves == sheet.leaves
    assert again.settlement() == sheet.settlement()


def _fewest_by_brute_force(balances: dict[str, int]) -> int:
    """n minus the most zero-sum groups, by trying every assignment of parties to groups."""
    values = [v for v in balances.values() if v]
    n = len(values)
    best = 0
    for labels in itertools.product(range(n), repeat=n):
        sums: dict[int, int] = {}
        for label, v in zip(labels, values, strict=True):
            sums[label] = sums.get(label, 0) + v
        if all(s == 0 for s in sums.values()):
            best = max(best, len(sums))
    return n - best


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(-6, 6), min_size=1, max_size=5))
def test_the_payments_are_the_fewest_that_settle_everyone(values: list[int]) -> None:
    balances = {f"P{i}": v for i, v in enumerate(values)}
    balances["Last"] = -sum(values)
    payments = fewest_payments(balances)
    left = dict(balances)
    for p in payments:
        assert p.cents > 0 and p.payer != p.payee
        left[p.payer] += p.cents
        left[p.payee] -= p.cents
    assert not any(left.values())
    assert len(payments) == _fewest_by_brute_force(balances)


def test_three_pairs_that_cancel_settle_in_three_payments() -> None:
    payments = fewest_payments({"Ann": 120, "Bob": -120, "Cy": 35, "Dee": -35, "Eve": 7,
                                "Flo": -7})
    assert sorted(p.text() for p in payments) == [
        "Bob pays Ann $1.20", "Dee pays Cy $0.35", "Flo pays Eve $0.07"]


def test_an_unbalanced_total_is_the_pots() -> None:
    assert fewest_payments({"Ann": 50}) == [Payment(POT, "Ann", 50)]


def test_the_most_in_debt_pay_a_leaver() -> None:
    assert leaver_payments("Dee", 120, {"Ann": -100, "Bob": -50, "Cy": 30}) == [
        Payment("Ann", "Dee", 100), Payment("Bob", "Dee", 20)]
    assert leaver_payments("Dee", -45, {"Ann": 30, "Bob": -75, "Cy": 90}) == [
        Payment("Dee", "Cy", 45)]


def test_bad_balances_are_refused() -> None:
    with pytest.raises(pc.OptionError):
        fewest_payments({"Ann": 1.5})  # type: ignore[dict-item]


def test_undo_takes_back_a_leave_and_its_payments() -> None:
    sheet = ScoreSheet.new(MONEY, ["Ann", "Bob", "Cy"])
    sheet.enter(Outcome(bidder=1, bid=2, trump="H", high=1, low=1, game=1))
    before = (sheet.record(), dict(sheet.cash))
    sheet.leave("Ann")
    assert sheet.cash
    assert sheet.undo() == "Ann leaves"
    assert (sheet.record(), dict(sheet.cash)) == before
    assert sheet.undo() == "hand 1"
    with pytest.raises(pc.IllegalActionError) as info:
        sheet.undo()
    assert info.value.reason == "nothing_to_undo"


def test_undo_of_a_last_leave_takes_back_the_settlement_it_made() -> None:
    sheet = ScoreSheet.new(MONEY, ["Ann", "Bob"])
    sheet.enter(Outcome(bidder=1, bid=2, trump="H", high=1, low=1, game=1))
    sheet.leave("Ann")
    assert sheet.session.is_over
    assert sheet.undo() == "Ann leaves" and not sheet.session.is_over


def test_a_sheet_that_is_not_json_of_one_is_refused() -> None:
    with pytest.raises(pc.PitchError):
        ScoreSheet.from_json({"format": "something else"})


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(3, 6), hands=st.integers(0, 4),
       snapshot=st.booleans())
def test_a_previewed_leave_is_the_leave(seed: int, players: int, hands: int,
                                        snapshot: bool) -> None:
    """Cashbook.preview_leave (the browser's confirmation, GET /api/tables/{id}/payments) says
    between hands exactly what the leave then pays, and changes nothing; during a hand, the
    payout the session stands at (MoneySession.leave_cents)."""
    rng = random.Random(seed)
    rules = MONEY.replace(average_mode="snapshot") if snapshot else MONEY
    sheet = ScoreSheet.new(rules, [f"P{i}" for i in range(players)])
    for _ in range(hands):
        sheet.enter(_random_outcome(sheet, rng))
    first = sheet.session.players[rng.randrange(players)]  # type: ignore[union-attr]
    sheet.leave(first)  # someone has left already: the cash handed over counts
    session = sheet.money
    assert session is not None
    name = session.players[rng.randrange(len(session.players))]
    record = sheet.record()
    preview = sheet.book.preview_leave(session, name)
    assert sheet.record() == record and name in session.players  # nothing changed
    assert preview.cents == session.leave_cents(name)
    assert sheet.leave(name) == preview
    # during a hand: the payout as the session stands, handed over in full
    sheet = ScoreSheet.new(rules, [f"P{i}" for i in range(players)])
    for _ in range(hands):
        sheet.enter(_random_outcome(sheet, rng))
    money = sheet.money
    assert money is not None
    money.deal()
    during = sheet.book.preview_leave(money, "P0")
    assert money.in_hand and during.cents == money.leave_cents("P0")
    assert sum(p.cents for p in during.payments) == abs(during.cents)


def test_leave_cents_names_who_is_seated():
    session = pc.MoneySession(MONEY, ["Ann", "Bob", "Cy"])
    with pytest.raises(pc.IllegalActionError) as refused:
        session.leave_cents("Zed")
    assert refused.value.reason == "not_seated" and "Ann, Bob, Cy" in str(refused.value)
