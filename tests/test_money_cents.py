"""Money that adds up: every amount a face shows at a money table is the engine's cents
(A-R7.6: largest remainder, reconciled with every cent already paid), carried by the one view
(`View.money_cents`) and by the leave and settle events (`cents`, `payout_cents`)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

import pitchcards as pc
from pitchcards.bots import make_bot
from pitchcards.events import PlayerLeft, Settled
from pitchcards.table import Table
from pitchcards.views import View


def _half_away(amount: Fraction) -> int:
    cents = abs(amount) * 100
    whole = int(cents + Fraction(1, 2))
    return whole if amount >= 0 else -whole


def _play_hand(table: Table, rng: random.Random) -> None:
    table.deal()
    while True:
        table.advance(stop_at_hand_end=True)
        seat = table.to_act
        if seat is None:
            return
        table.push(rng.choice(table.view(seat).legal_actions), seat=seat)


def _check_view(view: View, earlier: dict[str, tuple[Fraction, int]]) -> bool:
    """The shown cents, with those paid to players who left in earlier hands, add up to the
    exact total rounded; each is within a cent of its exact amount.  True when rounding each
    amount on its own would have shown something else (the case the engine's cents are for)."""
    assert view.money is not None and view.money_cents is not None and view.names is not None
    assert len(view.money_cents) == len(view.money) == len(view.names)
    gone = [earlier[n] for n in earlier if n not in view.names]
    exact = sum(view.money, Fraction(0)) + sum((e for e, _ in gone), Fraction(0))
    shown = sum(view.money_cents) + sum(c for _, c in gone)
    assert shown == _half_away(exact), (view.money, view.money_cents)
    for amount, cents in zip(view.money, view.money_cents, strict=True):
        assert abs(amount * 100 - cents) < 1
    return [_half_away(m) for m in view.money] != list(view.money_cents)


@pytest.mark.parametrize("seed", range(8))
def test_every_shown_amount_adds_up_after_each_hand_leave_and_settlement(seed: int) -> None:
    names = ["Ann", "Bob", "Cy", "Dee", "Eve"]
    session = pc.MoneySession(pc.find_variant("money"), names, dealer=0, seed=seed)
    table = Table(session, bots={n: make_bot("random", seed=seed * 10 + i)
                                 for i, n in enumerate(names)})
    rng = random.Random(seed)
    earlier: dict[str, tuple[Fraction, int]] = {}
    naive_would_differ = False
    for hand in range(6):
        _play_hand(table, rng)
        naive_would_differ |= _check_view(table.view(None), earlier)
        if hand in (1, 3):  # someone leaves at the break: paid in cents that fit the rest
            leaver = table.names[rng.randrange(len(table.names))]
            payout = table.leave(leaver)
            event = table.events(None)[-1]
            assert isinstance(event, PlayerLeft) and event.payout == payout
            state = event.state
            assert state is not None and state.money_cents is not None and state.names
            assert event.cents == state.money_cents[state.names.index(leaver)]
            naive_would_differ |= _check_view(state, earlier)
            earlier[leaver] = (payout, event.cents)
    final = table.settle()
    settled = table.events(None)[-1]
    assert isinstance(settled, Settled) and settled.payouts == final
    assert settled.payout_cents == {n: session.payout_cents[n] for n in final}
    assert settled.state is not None
    _check_view(settled.state, earlier)
    every_cent = sum(settled.payout_cents.values()) + sum(c for _, c in earlier.values())
    assert every_cent == _half_away(sum(session.payouts.values(), Fraction(0)))
    if seed == 0:  # the property is not idle: here rounding alone would not add up
        assert naive_would_differ


def test_the_cents_travel_in_the_views_and_events_json() -> None:
    session = pc.MoneySession(pc.find_variant("money"), ["Ann", "Bob", "Cy"], dealer=0, seed=3)
    table = Table(session, bots={n: make_bot("random", seed=i)
                                 for i, n in enumerate(["Ann", "Bob", "Cy"])})
    rng = random.Random(3)
    _play_hand(table, rng)
    table.leave("Bob")
    table.settle()
    out = table.events_for(None)
    left = next(e for e in out if e["type"] == "player_left")
    settled = out[-1]
    assert type(left["cents"]) is int and left["cents"] == session.payout_cents["Bob"]
    assert settled["payout_cents"] == {n: session.payout_cents[n] for n in ("Ann", "Cy")}
    assert settled["state"]["money_cents"] == [session.payout_cents[n]
                                               for n in settled["state"]["names"]]
    assert View.from_dict(settled["state"]).money_cents == tuple(settled["state"]["money_cents"])
