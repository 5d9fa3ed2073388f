"""Are the expert's bid values calibrated?  Estimated against realized points, from self-play.

    .venv/bin/python benchmarks/calibrate_bids.py --deals 400 --start 20000 --workers 2
    .venv/bin/python benchmarks/calibrate_bids.py --bot "expert[bid_bias=0.1]" --deals 400
    .venv/bin/python benchmarks/calibrate_bids.py --vs heuristic --deals 400
    .venv/bin/python benchmarks/calibrate_bids.py --variant auction --vs heuristic --deals 400

Copies of ``--bot``, one a seat (``--players``, default 4), play ``--deals`` hands of
``--variant`` (default ``auction-partners``) from 0-0 (no scores, so every value is a point
margin: the seat's side's score change minus the best other side's); with ``--vs NAME`` the bot
holds seats 0 and 2 in partnerships, seat 0 alone in cutthroat (``--variant auction``), ``NAME``
the others, and only the bot's decisions are counted.  At every
auction decision with a choice the bot's analysis gives the estimated margin of the action it
chose (``Analysis.points``: the mean over its sampled worlds of the rollouts' margins); when the
hand is over, the realized margin of the seat's team is known.  Printed: the mean of *realized -
estimated* by the level chosen (0 = pass, 1-4, a pitch is 4, 5 = the moon), with 95 % intervals
over hands (a hand's decisions are resampled together), and the bias per level bid that the data
ask for: the least-squares ``c`` in *realized - estimated = p - c * level*, where ``p`` is the
passes' mean (a bias common to every action changes no choice), with a bootstrap interval over
hands.  ``Budget.bid_bias`` is that ``c`` (docs/bots.md, "Calibration of the bids").
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

import pitchcards as pc
from pitchcards.bots import make_bot
from pitchcards.bots.bid_model import level_of
from pitchcards.bots.expert import ExpertBot
from pitchcards.bots.utility import Utility
from pitchcards.views import view_of

#: one decision: (level chosen, realized - estimated margin)
Decision = tuple[int, float]
#: a statistic of a sample of hands' decisions
Stat = Callable[[list[list[Decision]]], float]


def play(args: tuple[str, str | None, str, int, int]) -> list[Decision]:
    """Deal ``k`` played by the bot (in every seat, or against ``vs`` in the seats of the other
    sides); its auction decisions' residuals."""
    name, vs, variant, players, k = args
    rules = pc.find_variant(variant)
    ours = {0, 2} if rules.partnership_mode else {0}
    counted = ours if vs is not None else set(range(players))
    bots = [make_bot(name if s in counted else str(vs), 1000 * k + s) for s in range(players)]
    if not isinstance(bots[0], ExpertBot):
        raise SystemExit(f"{name!r} is not a search bot: it reports no estimates")
    h = pc.Hand.deal(rules, players, dealer=k % players, seed=k)
    chosen: list[tuple[int, int, float]] = []  # (seat, level, estimated margin)
    while not h.is_over:
        s = h.seat_to_act
        assert s is not None
        view = view_of(h, s)
        bot = bots[s]
        if s in counted and h.phase == "auction" and len(view.legal_actions) > 1:
            assert isinstance(bot, ExpertBot)
            analysis = bot.analyse(view)
            if analysis.best in analysis.points:
                chosen.append((s, level_of(analysis.best), analysis.points[analysis.best]))
            h.push(analysis.best)
        else:
            h.push(bot.choose(view))
    r = h.result
    assert r is not None
    return [(level, Utility(rules, h.side_of(s), players).points(r) - estimate)
            for s, level, estimate in chosen]


def fitted_bias(hands: list[list[Decision]]) -> float:
    """The least-squares bias per level bid, relative to the passes' mean residual."""
    passes = [x for hand in hands for level, x in hand if level == 0]
    p = statistics.fmean(passes) if passes else 0.0
    bids = [(level, x) for hand in hands for level, x in hand if level > 0]
    den = sum(level * level for level, _ in bids)
    return -sum(level * (x - p) for level, x in bids) / den if den else 0.0


def _interval(hands: list[list[Decision]], stat: Stat, rounds: int = 1000,
              seed: int = 0) -> tuple[float, float]:
    """A 95 % bootstrap interval of ``stat`` over hands (their decisions resampled together)."""
    rng = random.Random(seed)
    values = sorted(stat([rng.choice(hands) for _ in hands]) for _ in range(rounds))
    return values[int(0.025 * rounds)], values[int(0.975 * rounds) - 1]


def _mean_at(level: int) -> Stat:
    def stat(hands: list[list[Decision]]) -> float:
        xs = [x for hand in hands for lv, x in hand if lv == level]
        return statistics.fmean(xs) if xs else float("nan")
    return stat


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bot", default="expert")
    ap.add_argument("--vs", default=None, help="the other sides (default: the bot itself)")
    ap.add_argument("--variant", default="auction-partners")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--deals", type=int, default=400)
    ap.add_argument("--start", type=int, default=20000)
    ap.add_argument("--workers", type=int, default=1)
    a = ap.parse_args(argv)
    t0 = time.perf_counter()
    jobs = [(a.bot, a.vs, a.variant, a.players, k) for k in range(a.start, a.start + a.deals)]
    with ProcessPoolExecutor(a.workers) as ex:
        hands = list(ex.map(play, jobs, chunksize=4))
    table = "self-play" if a.vs is None else f"against {a.vs}"
    print(f"# {a.bot}, {a.variant} ({a.players} players), {a.deals} {table} hands from 0-0 "
          f"(seeds {a.start}-{a.start + a.deals - 1}), {sum(map(len, hands))} auction decisions")
    print("| level chosen | decisions | realized - estimated (points) |")
    print("|---|---:|---|")
    for level in sorted({lv for hand in hands for lv, _ in hand}):
        xs = [x for hand in hands for lv, x in hand if lv == level]
        lo, hi = _interval(hands, _mean_at(level))
        name = "pass" if level == 0 else "moon" if level == 5 else f"bid {level}"
        print(f"| {name} | {len(xs)} | {statistics.fmean(xs):+.3f} [{lo:+.3f}, {hi:+.3f}] |")
    lo, hi = _interval(hands, fitted_bias)
    print(f"bias per level bid the data ask for: {fitted_bias(hands):+.3f} [{lo:+.3f}, {hi:+.3f}]")
    print(f"# {time.perf_counter() - t0:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
