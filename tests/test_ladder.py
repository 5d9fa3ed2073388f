"""The ladder holds on a small fixed-seed duplicate match: expert > heuristic > random.

A statistical check with a fixed seed, not a timing: the expert here has no time limit (only
world counts), so its choices, and therefore these numbers, depend on the seed alone.
"""

from __future__ import annotations

from pitchcards.bots import BOTS, register
from pitchcards.bots.arena import run_arena
from pitchcards.bots.expert import Budget, ExpertBot

# The expert's own budget with the clock switched off, so the result depends on the seed alone.
FIXED = Budget(time_limit=1e9)


def _fixed_expert(seed: int | None) -> ExpertBot:
    return ExpertBot(seed, budget=FIXED)


def point_diff(bots: list[str], games: int, seed: int) -> float:
    result = run_arena("auction-partners", bots, games=games, seed=seed, jobs=1)
    stats = {s.bot: s for s in result.stats}
    return stats[bots[0]].point_diff


def test_expert_beats_heuristic_beats_random_on_points_per_hand() -> None:
    if "expert-fixed" not in BOTS:
        register("expert-fixed", _fixed_expert)
    heuristic_over_random = point_diff(["heuristic", "random"], games=10, seed=1)
    # 6 games (12 until 2026-12-07: +0.478 there, +0.248 here; the expert's CPU was two thirds
    # of this module's, issue 27)
    expert_over_heuristic = point_diff(["expert-fixed", "heuristic"], games=6, seed=1)
    assert heuristic_over_random > 2.0
    assert expert_over_heuristic > 0.0
    assert heuristic_over_random > expert_over_heuristic  # random is far the weakest
