"""The expert bot: decision time and strength against the heuristic bot (duplicate play).

    .venv/bin/python benchmarks/bench_expert.py speed  [--bot expert] [--hands 20]
    .venv/bin/python benchmarks/bench_expert.py hands  [--bot expert] [--vs heuristic] [--deals 200]
    .venv/bin/python benchmarks/bench_expert.py games  [--bot expert] [--vs heuristic] [--games 100]
    .venv/bin/python benchmarks/bench_expert.py arena  --variant ten-point --games 20 --workers 2
    .venv/bin/python benchmarks/bench_expert.py speed  --variant ten-point-cutthroat --players 4
    .venv/bin/python benchmarks/bench_expert.py worlds [--hands 20] [--variant ten-point]

``--variant`` (default ``auction-partners``) and ``--players`` (the table size; default the
variant's own) choose the game; ``hands`` and ``games`` need a partnership variant, ``arena``
and ``speed`` take any.
``--hands-per-game N`` (arena) plays N hands per game with no target (the ten-point target of 52
makes games long): points per hand are then the measure.

``speed``: every decision of ``--hands`` hands of ``--variant`` self-play, timed on one
core: median, p90, p99 and max milliseconds, split by auction and card play, wall and process
(CPU) time; for the expert also its work (positions pushed, ``Budget.work``) and how many
decisions the wall clock stopped (``time_limit``, a safety net at the default budget).

``worlds``: building the sampled worlds of every decision of ``--hands`` heuristic hands, 48 a
decision: each world replayed from the deal (``build_world``, as ``expert-v1`` was written)
against one replay redealt (``build_worlds``, what ``sample_worlds`` does now), alternating,
microseconds per world (median of the rounds) and their ratio.

``hands``: duplicate hands.  Deal *k* is played twice from 0-0 with the teams swapped; the bot's
team margin (its team's score change minus the other team's) is averaged over the pairs, with a
95 % interval over pairs.  Also the bot's bids, make rate and set rate.

``games``: duplicate matches to the target (7).  Match seed *k* twice with the teams swapped; the
bot's match-win rate with a 95 % Wilson interval.

``arena``: the same through the project's arena (:func:`pitchcards.bots.arena.run_arena`), whose
table also gives bids, make/set rates and decision times.

``--vs heuristic`` uses the registered ``heuristic`` bot when it exists, else ``policy`` (the
expert's built-in rollout policy played from the view).  ``--workers 2`` splits the deals over two
processes.  ``--cluster ADDRESS`` (``hands``, ``games``, ``arena``; the ``[cluster]`` extra)
spreads them over a Ray cluster instead: ``auto`` starts one here with ``--workers`` CPUs,
``ray://HOST:PORT`` or ``HOST:PORT`` joins a running one (docs/research.md, "More than one
machine").  The deals and seeds are the same, so are the results.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

import pitchcards as pc
from pitchcards.actions import Action
from pitchcards.bots import BOTS, Bot, make_bot
from pitchcards.bots.arena import wilson
from pitchcards.bots.expert import ExpertBot
from pitchcards.bots.policy import policy_name, rollout_action
from pitchcards.bots.sampler import (
    build_world,
    build_worlds,
    evidence_of,
    sample_deal,
    sample_worlds,
)
from pitchcards.views import View, view_of

VARIANT = "auction-partners"
A = TypeVar("A")
R = TypeVar("R")


class PolicyBot(Bot):
    """The expert's rollout policy as a bot: it looks only at its own cards and public play."""

    name = "policy"

    def choose(self, view: View) -> Action:
        world = sample_worlds(view, 1, self.rng, soft=False)[0]
        return rollout_action(world)


def bot(name: str, seed: int) -> Bot:
    if name == "policy":
        return PolicyBot(seed)
    if name == "heuristic" and "heuristic" not in BOTS:
        from pitchcards.bots.heuristic import HeuristicBot  # registered later by its author

        return HeuristicBot(seed)
    return make_bot(name, seed)


def play_hand(rules: pc.RuleSet, deal_seed: int, dealer: int, bots: list[Bot],
              scores: list[int] | None) -> pc.HandResult:
    h = pc.Hand.deal(rules, 4, dealer=dealer, seed=deal_seed)
    while not h.is_over:
        s = h.seat_to_act
        assert s is not None
        h.push(bots[s].choose(view_of(h, s, scores=scores)))
    assert h.result is not None
    return h.result


def hand_pair(args: tuple[str, str, int]) -> tuple[float, list[tuple[int, bool]]]:
    """Deal k twice, teams swapped; (bot team margin summed over both, bot bids (bid, made))."""
    name, vs, k = args
    rules = pc.find_variant(VARIANT)
    margin = 0.0
    bids: list[tuple[int, bool]] = []
    for bot_team in (0, 1):
        bots = [bot(name if s % 2 == bot_team else vs, 1000 * k + s) for s in range(4)]
        r = play_hand(rules, k, k % 4, bots, None)
        margin += r.deltas[bot_team] - r.deltas[1 - bot_team]
        if r.pitcher_side == bot_team and isinstance(r.bid, int):
            bids.append((r.bid, r.made))
    return margin / 2, bids


def game_pair(args: tuple[str, str, int]) -> tuple[int, int]:
    """Match seed k twice, teams swapped; (matches the bot won, hands played)."""
    name, vs, k = args
    rules = pc.find_variant(VARIANT)
    wins = hands = 0
    for bot_team in (0, 1):
        bots = [bot(name if s % 2 == bot_team else vs, 1000 * k + s) for s in range(4)]
        m = pc.Match(rules, 4, dealer=k % 4, seed=k)
        while m.winner is None and len(m.results) < 60:
            h = m.deal()
            while not h.is_over:
                s = h.seat_to_act
                assert s is not None
                m.push(bots[s].choose(m.view(s)))
        hands += len(m.results)
        wins += m.winner == bot_team
    return wins, hands


def spread(job: Callable[[A], R], items: list[A], workers: int | None, cluster: str | None,
           chunksize: int = 1) -> list[R]:
    """``job`` over ``items`` in order: on ``workers`` local processes (default one), or on a
    Ray cluster (a local one with ``workers`` CPUs, default every core)."""
    if cluster is not None:
        from pitchcards.bots.ray_cluster import map_on_cluster

        return map_on_cluster(cluster, job, items, cpus=workers)
    with ProcessPoolExecutor(workers or 1) as ex:
        return list(ex.map(job, items, chunksize=chunksize))


def run_speed(name: str, hands: int, players: int = 4) -> None:
    rules = pc.find_variant(VARIANT)
    phases = ("auction", "declare", "call", "discard", "play")
    times: dict[str, list[float]] = {k: [] for k in phases}
    cpu: dict[str, list[float]] = {k: [] for k in phases}
    work: dict[str, list[int]] = {k: [] for k in phases}
    clock = 0
    bots = [bot(name, s) for s in range(players)]
    top = rules.target or 7
    for k in range(hands):
        h = pc.Hand.deal(rules, players, dealer=k % players, seed=10_000 + k)
        while not h.is_over:
            s = h.seat_to_act
            assert s is not None
            scores = [(k + 3 * i * k) % top for i in range(rules.side_count(players))]
            v = view_of(h, s, scores=scores)
            b = bots[s]
            c, t = time.process_time(), time.perf_counter()
            if isinstance(b, ExpertBot):  # its work (issue 35) and whether the clock stopped it
                analysis = b.analyse(v)
                a = analysis.best
                work[h.phase].append(analysis.work)
                clock += analysis.clock
            else:
                a = b.choose(v)
            times[h.phase].append(time.perf_counter() - t)
            cpu[h.phase].append(time.process_time() - c)
            h.push(a)
    print("wall ms per decision (cpu ms: process time, what a shared machine's load leaves "
          "out); work: positions pushed (Budget.work)")
    for label in (*times, "all"):
        ts = sorted(t for k, v in times.items() if label in (k, "all") for t in v)
        cs = sorted(t for k, v in cpu.items() if label in (k, "all") for t in v)
        ws = sorted(w for k, v in work.items() if label in (k, "all") for w in v)
        if not ts:
            continue
        p90, p99 = (_pct(ts, f) * 1e3 for f in (0.9, 0.99))
        median = statistics.median(ts) * 1e3
        line = (f"{name:8s} {label:8s} n={len(ts):5d}  median {median:7.1f} ms"
                f"  p90 {p90:7.1f}  p99 {p99:7.1f}  max {ts[-1] * 1e3:7.1f}"
                f"  | cpu median {statistics.median(cs) * 1e3:7.1f}"
                f"  p99 {_pct(cs, 0.99) * 1e3:7.1f}  max {cs[-1] * 1e3:7.1f}")
        if ws:
            line += f"  | work median {statistics.median(ws):8.0f}  p99 {_pct(ws, 0.99):8.0f}"
        print(line)
    if any(work.values()):
        print(f"stopped by the clock (time_limit, the safety net): {clock} decisions")


def _pct(xs: Sequence[A], f: float) -> A:
    """The ``f`` quantile of the sorted ``xs`` (nearest rank below)."""
    return xs[min(len(xs) - 1, int(f * len(xs)))]


def run_worlds(hands: int, players: int = 4, rounds: int = 7) -> None:
    import random

    rules = pc.find_variant(VARIANT)
    cases = []
    rng = random.Random(0)
    for k in range(hands):
        h = pc.Hand.deal(rules, players, dealer=k % players, seed=20_000 + k)
        bots = [bot("heuristic", s) for s in range(players)]
        while not h.is_over:
            s = h.seat_to_act
            assert s is not None
            v = view_of(h, s)
            ev = evidence_of(v)
            deals = [d for d in (sample_deal(ev, rng) for _ in range(48)) if d is not None]
            cases.append((v, ev, [(held, discards) for held, discards, _ in deals]))
            h.push(bots[s].choose(v))
    worlds = sum(len(d) for _, _, d in cases)

    def replayed() -> None:
        for v, ev, deals in cases:
            [build_world(v, held, ev, discards) for held, discards in deals]

    def redealt() -> None:
        for v, ev, deals in cases:
            build_worlds(v, deals, ev)

    timings: dict[str, list[float]] = {"replayed": [], "redealt": []}
    for _ in range(rounds):
        for label, run in (("replayed", replayed), ("redealt", redealt)):
            t = time.perf_counter()
            run()
            timings[label].append((time.perf_counter() - t) / worlds * 1e6)
    print(f"{len(cases)} decisions, {worlds} worlds a round, {rounds} alternating rounds")
    for label, ts in timings.items():
        print(f"{label:9s} median {statistics.median(ts):6.1f} us/world  "
              f"range {min(ts):.1f}-{max(ts):.1f}")
    ratio = statistics.median(a / b for a, b in zip(timings["redealt"], timings["replayed"],
                                                    strict=True))
    print(f"redealt / replayed: {ratio:.2f} (median of the rounds' ratios)")


def main(argv: list[str] | None = None) -> None:
    global VARIANT
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("mode", choices=("speed", "hands", "games", "arena", "worlds"))
    ap.add_argument("--bot", default="expert")
    ap.add_argument("--vs", default="heuristic")
    ap.add_argument("--hands", type=int, default=20)
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--workers", type=int, default=None,
                    help="processes (default 1); with --cluster auto: the local cluster's CPUs "
                         "(default every core)")
    ap.add_argument("--cluster", default=None, metavar="ADDRESS",
                    help="hands/games/arena on a Ray cluster: auto, ray://HOST:PORT or HOST:PORT")
    ap.add_argument("--variant", default=VARIANT)
    ap.add_argument("--players", type=int, default=None,
                    help="table size (default: the variant's own, 6 for three-teams, 5 for "
                         "call-partner, 4 for the rest)")
    ap.add_argument("--hands-per-game", type=int, default=None,
                    help="arena: hands per game with no target (default: to the target)")
    a = ap.parse_args(argv)
    VARIANT = a.variant
    if a.players is None:
        a.players = pc.find_variant(VARIANT).default_players
    vs = a.vs
    print(f"# {a.mode}: {a.bot} vs {vs} (rollout policy: {policy_name}), {VARIANT}")
    t0 = time.perf_counter()
    if a.mode == "speed":
        run_speed(a.bot, a.hands, a.players)
    elif a.mode == "worlds":
        run_worlds(a.hands, a.players)
    elif a.mode == "arena":
        from pitchcards.bots.arena import run_arena

        extra: dict[str, object] = {}
        if a.hands_per_game:
            extra = {"options": {"target": None}, "hands": a.hands_per_game}
        result = run_arena(VARIANT, [a.bot, vs], games=a.games, seed=a.start,
                           jobs=a.workers if a.cluster is not None else a.workers or 1,
                           players=a.players, cluster=a.cluster, **extra)  # type: ignore[arg-type]
        print(result.table())
    elif a.mode == "hands":
        jobs = [(a.bot, vs, k) for k in range(a.start, a.start + a.deals)]
        out = spread(hand_pair, jobs, a.workers, a.cluster, chunksize=4)
        margins = [m for m, _ in out]
        bids = [b for _, bs in out for b in bs]
        mean = statistics.fmean(margins)
        se = statistics.stdev(margins) / math.sqrt(len(margins)) if len(margins) > 1 else 0.0
        made = sum(ok for _, ok in bids)
        print(f"pairs {len(margins)}  margin/hand {mean:+.3f} ± {1.96 * se:.3f} (95 %)  "
              f"pairs won {sum(m > 0 for m in margins)} lost {sum(m < 0 for m in margins)}")
        if bids:
            print(f"bot contracts {len(bids)} (per deal {len(bids) / 2 / len(margins):.2f}), "
                  f"mean bid {statistics.fmean(b for b, _ in bids):.2f}, made "
                  f"{made / len(bids):.1%}")
    else:
        jobs = [(a.bot, vs, k) for k in range(a.start, a.start + a.games)]
        res = spread(game_pair, jobs, a.workers, a.cluster)
        wins = sum(w for w, _ in res)
        n = 2 * len(res)
        lo, hi = wilson(wins, n)
        print(f"games {n}  {a.bot} won {wins} = {wins / n:.1%}  95 % CI [{lo:.1%}, {hi:.1%}]  "
              f"hands/game {sum(h for _, h in res) / n:.1f}")
    print(f"# {time.perf_counter() - t0:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
