"""Bot strength and speed: the heuristic against random in duplicate games, and decisions/s.

    .venv/bin/python benchmarks/bench_bots.py [--games 200] [--seed 1] [--jobs N]
    .venv/bin/python benchmarks/bench_bots.py --variant ten-point-cutthroat --players 4 --games 100

1. **Strength.**  ``run_arena`` on ``auction-partners`` (``--variant``): ``--games`` duplicate
   games, each deal sequence played twice with the teams swapped, to the target (7, bidder goes
   out).  Prints the arena table (win rate with a 95 % Wilson interval, points per hand with a
   95 % interval over duplicate games, make/set rates, average bid, ms per decision) and checks
   the ladder gate: the heuristic wins at least 95 % of the games.
2. **Speed.**  A fixed set of positions (``--positions``, default 1000) sampled from heuristic
   self-play, every seat's view built in advance; each bot decides all of them, ``--repeats``
   times (default 3); the median rate is reported, with [min-max].  ``rollout_action`` (the
   heuristic straight on a ``Hand``, the expert's playout policy) is timed on the same positions.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

import pitchcards as pc
from pitchcards.bots import bot_names, make_bot
from pitchcards.bots.arena import run_arena
from pitchcards.bots.heuristic import rollout_action
from pitchcards.hand import Hand
from pitchcards.views import View, view_of


def positions(variant: str, count: int, seed: int, players: int = 4) -> list[tuple[Hand, View]]:
    """``count`` positions (a copy of the hand and the view of the seat to act) from self-play
    (every phase: the auction, naming trump and discarding in the ten-point family, play)."""
    rules = pc.find_variant(variant)
    rng = random.Random(seed)
    bot = make_bot("heuristic", seed)
    out: list[tuple[Hand, View]] = []
    sides = 2 if rules.partnership_mode else players
    top = rules.target or 7
    while len(out) < count:
        h = Hand.deal(rules, players, dealer=rng.randrange(players), rng=rng)
        while h.seat_to_act is not None and len(out) < count:
            seat = h.seat_to_act
            view = view_of(h, seat, scores=[rng.randrange(top) for _ in range(sides)])
            out.append((h.copy(), view))
            h.push(bot.choose(view))
    return out


def decisions_per_second(name: str, views: list[View], repeats: int) -> list[float]:
    bot = make_bot(name, 1)
    rates = []
    for _ in range(repeats):
        start = time.perf_counter()
        for v in views:
            bot.choose(v)
        rates.append(len(views) / (time.perf_counter() - start))
    return rates


def rollouts_per_second(hands: list[Hand], repeats: int) -> list[float]:
    rates = []
    for _ in range(repeats):
        start = time.perf_counter()
        for h in hands:
            rollout_action(h)
        rates.append(len(hands) / (time.perf_counter() - start))
    return rates


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="auction-partners")
    ap.add_argument("--players", type=int, default=None,
                    help="table size for cutthroat variants (default 4)")
    ap.add_argument("--games", type=int, default=200, help="duplicate games (default 200)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=None, help="worker processes (default: all)")
    ap.add_argument("--positions", type=int, default=1000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--bots", default="random,heuristic,easy",
                    help="bots to time (default random,heuristic,easy)")
    args = ap.parse_args()

    result = run_arena(args.variant, ["heuristic", "random"], games=args.games, seed=args.seed,
                       jobs=args.jobs, progress=sys.stderr, players=args.players)
    print(result.table())
    heur = result.stats[0]
    gate = heur.win_rate >= 0.95
    print(f"\ngate: heuristic wins >= 95% of games: {100 * heur.win_rate:.1f}% "
          f"(95% CI {100 * heur.win_ci[0]:.1f}-{100 * heur.win_ci[1]:.1f}) -> "
          f"{'PASS' if gate else 'FAIL'}")

    pos = positions(args.variant, args.positions, args.seed, args.players or 4)
    views = [v for _, v in pos]
    auction = sum(v.phase != "play" for v in views)
    print(f"\nspeed: {len(views)} positions from heuristic self-play ({auction} auction/declare/"
          f"discard, {len(views) - auction} play), {args.repeats} repeats, median [min-max]")
    print(f"{'bot':<24} {'decisions/s':>12} {'range':>22} {'us/decision':>12}")
    rows = [(name, decisions_per_second(name, views, args.repeats))
            for name in bot_names(args.bots)]
    rows.append(("rollout_action (Hand)", rollouts_per_second([h for h, _ in pos], args.repeats)))
    for name, rates in rows:
        med = statistics.median(rates)
        print(f"{name:<24} {med:>12,.0f} {f'[{min(rates):,.0f}-{max(rates):,.0f}]':>22} "
              f"{1e6 / med:>12.1f}")
    return 0 if gate else 1


if __name__ == "__main__":
    sys.exit(main())
