"""``expert-v1`` is the expert as it was when issue 14 began, kept unchanged as the yardstick for
the expert's improvements: its budget is written out here, and its decisions on a fixed set of
seeded positions (bids and cards, every scoring mode of the utility) must hash to the value
recorded before any change.  A change to the shared code (sampler, rollouts, solver, utility)
that moves ``expert-v1`` must instead go behind a :class:`~pitchcards.bots.expert.Budget` field
that ``EXPERT_V1`` leaves off."""

from __future__ import annotations

import dataclasses
import hashlib
import re

import pytest

import pitchcards as pc
from pitchcards.bots import make_bot
from pitchcards.bots.expert import EXPERT_V1, Budget, ExpertBot, ExpertV1Bot
from pitchcards.bots.heuristic import HeuristicBot
from pitchcards.hand import Hand
from pitchcards.views import View, view_of

#: (variant, players, scores before the hand or None): the utility's match, money and points modes
POSITIONS = (("auction-partners", 4, (4, 5)), ("auction", 3, (2, 6, 0)), ("money", 4, None),
             ("setback", 4, (0, 0)), ("auction", 5, None))
#: sha256 of every decision below, recorded with the expert of commit aeb1396
FROZEN = "56e04b874011feabf08ba5452648ecc24aa039787cbcb0ac90fe8c39f5821dce"


def _views() -> list[tuple[str, View]]:
    """Seeded positions: hands played by heuristics, every auction decision with a choice and
    every other card-play decision with one."""
    out: list[tuple[str, View]] = []
    for variant, players, scores in POSITIONS:
        rules = pc.find_variant(variant)
        for deal in range(1):
            seed = 7_000 + 10 * players + deal
            h = Hand.deal(rules, players, dealer=deal % players, seed=seed)
            bots = [HeuristicBot(seed + s) for s in range(players)]
            step = 0
            while not h.is_over:
                seat = h.seat_to_act
                assert seat is not None
                view = view_of(h, seat, scores=scores)
                if len(view.legal_actions) > 1 and (h.phase == "auction" or step % 2 == 0):
                    out.append((f"{variant}/{players}/{seed}/{step}", view))
                h.push(bots[seat].choose(view))
                step += 1
    return out


def test_expert_v1_keeps_its_budget() -> None:
    v1 = Budget(worlds=24, bid_worlds=48, rollouts=1, solve_cards=12, max_nodes=20_000,
                time_limit=0.6, soft=True, ten_point_guard=1.0)
    assert v1 == EXPERT_V1
    assert type(make_bot("expert-v1")) is ExpertV1Bot
    assert make_bot("expert-v1").budget is EXPERT_V1


def test_expert_v1_decides_as_it_always_did() -> None:
    clockless = dataclasses.replace(EXPERT_V1, time_limit=1e9)  # the same choices on any machine
    lines = []
    for i, (where, view) in enumerate(_views()):
        bot = ExpertV1Bot(i, clockless)
        lines.append(f"{where} {bot.choose(view)}")
    digest = hashlib.sha256("\n".join(lines).encode()).hexdigest()
    assert len(lines) > 40
    assert digest == FROZEN, "expert-v1's decisions changed:\n" + "\n".join(lines)


def test_a_search_bot_takes_budget_changes_by_name() -> None:
    """``make_bot("expert[bid_worlds=96,soft=false]")``: the expert with those fields changed
    (what ``pitch arena --bots`` and the benchmarks pit against each other); a wrong field, value
    or bot is an OptionError naming it."""
    bot = make_bot("expert[bid_worlds=96, soft=false]", 3)
    assert type(bot) is ExpertBot
    assert bot.budget == dataclasses.replace(make_bot("expert").budget, bid_worlds=96, soft=False)
    assert make_bot("expert").budget.bid_worlds != 96  # the class's own budget is untouched
    for bad, words in (("expert[foo=1]", "'foo=1' is not field=value"),
                       ("expert[worlds=many]", "worlds takes an int, not 'many'"),
                       ("expert[soft=maybe]", "soft takes a bool"),
                       ("heuristic[worlds=2]", "only the search bots"),
                       ("nobody[worlds=2]", "unknown bot")):
        with pytest.raises(pc.OptionError, match=re.escape(words)):
            make_bot(bad)
