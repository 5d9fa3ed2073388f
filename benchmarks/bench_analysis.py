"""The analysis of a game (:mod:`pitchcards.analysis`, issue 33): does it order the bots as
their strength does, and what does it cost?

    .venv/bin/python benchmarks/bench_analysis.py [--matches 4] [--target 7] [--budget 128]
                                                  [--chance all|end]
                                                  [--bots random,easy,medium,hard,expert]
                                                  [--jobs N] [--cluster ADDRESS]
                                                  [--first K] [--save FILE | --load FILE ...]

Each match is a four-player cutthroat Auction Pitch match to ``--target`` between four of the
``--bots``: seat *i* of match *k* gets bot ``(k + i) mod n``, so the seats rotate from match to
match and with five bots each sits out one match in five (match *k* seeds the deals and the
bots); every decision of every match is then analysed at ``--budget`` sampled deals (seed 0).
The first table puts the arena's measure of the same matches, each bot's share of the matches
it played that it won (95 % Wilson interval), beside the analysis's: the mean loss per
decision with a choice (points of net score given up against the best candidate, from the
deciding seat's own view) with a 95 % interval over decisions, split into the auction and the
play (each with its interval), and the labels per 100 such decisions: each label, any label
(with its interval), and the choices that gave up points for the match (never labelled,
``analysis.FOR_THE_MATCH``); last, the mean loss with those not counted (the loss the analysis
holds against the player).  The second puts the
same share of wins beside the mean loss per choice in the **chance to win the match** (the
analysis's ``chance_loss``, percentage points, with intervals; all and split the same way):
what the arena counts and what ``hard`` and ``expert`` play for at every score.  With
``--chance all`` (the default) every decision of a match is weighed in chance
(``AnalysisBudget.chance_everywhere``: twice the analysis's work), with ``--chance end`` only
those near the match's end (as ``pitch analyze`` does).  The third is the analysis's cost: CPU
milliseconds per decision (forced ones included, as a match has them) and CPU seconds per
match.  ``--save FILE`` keeps the analysed matches (a pickle of this script's own results) and
``--load FILE`` prints their tables again without playing anything (several ``--load``: their
matches together); ``--first K`` plays only matches K to ``--matches`` - 1, the rest of a run
stopped early (each match's seeds are its number, so the union is the whole run).  ``--jobs N``
plays and analyses N matches at once (processes; the same tables);
Ctrl+C then stops early and prints the tables of the matches finished so far.

``--cluster ADDRESS`` (the ``[cluster]`` extra) plays and analyses the matches on a Ray cluster,
one match a job (``auto``: a cluster started here; ``ray://HOST:PORT`` or ``HOST:PORT``: a
running one; docs/research.md, "More than one machine").  Each match's seeds are its number, so
the tables' losses and labels are the same; the costs are CPU time in the worker that did it.
"""

from __future__ import annotations

import argparse
import itertools
import math
import pickle
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed

import pitchcards as pc
from pitchcards.analysis import (
    AUCTION_PHASES,
    LABELS,
    PLURALS,
    AnalysisBudget,
    Decision,
    analyse_record,
)
from pitchcards.bots import make_bot
from pitchcards.bots.arena import wilson
from pitchcards.notation import read_record
from pitchcards.table import Table

SEATS = 4  #: cutthroat, as the arena's four-player table


def play_match(rules: pc.RuleSet, bots: list[str], seed: int) -> tuple[str, int]:
    """One match between ``bots`` (seat by seat), dealt from ``seed``: its record and the
    winning seat."""
    match = pc.Match(rules, players=len(bots), dealer=0, seed=seed)
    table = Table(match, bots={s: make_bot(name, seed=seed * 31 + s)
                               for s, name in enumerate(bots)})
    while not table.is_over:
        table.advance(stop_at_hand_end=True)
    assert match.winner is not None
    return pc.write_record(match), match.winner


def seating_of(names: list[str], k: int) -> list[str]:
    """Match ``k``'s bots, seat by seat: seat *i* gets ``names[(k + i) mod n]``."""
    return [names[(k + i) % len(names)] for i in range(SEATS)]


def analyse_match(work: tuple[pc.RuleSet, list[str], int, AnalysisBudget]
                  ) -> tuple[list[str], int, list[Decision], list[float], float]:
    """Match ``k`` played and analysed: (its seating, the winning seat, its decisions, CPU ms
    per decision, CPU s for the match).  The match's number seeds everything."""
    rules, names, k, budget = work
    seating = seating_of(names, k)
    text, winner = play_match(rules, seating, k)
    record = read_record(text)
    ticks = [time.process_time()]  # CPU time after each decision

    def tick(_done: int, _total: int) -> None:
        ticks.append(time.process_time())

    analysis = analyse_record(record, budget, seed=0, progress=tick)
    per_decision = [1000 * (b - a) for a, b in itertools.pairwise(ticks)]
    return seating, winner, list(analysis.decisions), per_decision, ticks[-1] - ticks[0]


def in_processes(work: list[tuple[pc.RuleSet, list[str], int, AnalysisBudget]], jobs: int
                 ) -> list[tuple[list[str], int, list[Decision], list[float], float]]:
    """The matches on ``jobs`` processes, in match order.  Ctrl+C (SIGINT) stops early: the
    tables are then of the matches finished so far (the first line says how many), each
    match's numbers the same as in a full run (its seeds are its number)."""
    pool = ProcessPoolExecutor(jobs)
    done: dict[int, tuple[list[str], int, list[Decision], list[float], float]] = {}
    futures = {pool.submit(analyse_match, w): w[2] for w in work}
    try:
        for future in as_completed(futures):
            done[futures[future]] = future.result()
            print(f"{len(done)}/{len(work)} matches", file=sys.stderr, flush=True)
    except KeyboardInterrupt:
        print(f"stopped: {len(done)} of {len(work)} matches finished", file=sys.stderr)
        for p in list(getattr(pool, "_processes", {}).values()):
            p.terminate()
    pool.shutdown(wait=False, cancel_futures=True)
    return [done[k] for k in sorted(done)]


def interval(xs: list[float], digits: int = 3) -> str:
    """The mean and its 95 % normal interval ("-" for none)."""
    if not xs:
        return "-"
    if len(xs) < 2:
        return f"{xs[0]:.{digits}f}"
    mean = statistics.fmean(xs)
    half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))
    return f"{mean:.{digits}f} [{mean - half:.{digits}f}, {mean + half:.{digits}f}]"


def deciles(xs: list[float]) -> list[float]:
    """The nine deciles of ``xs`` (within its range), or ``xs`` itself nine times for one."""
    return statistics.quantiles(xs, n=10, method="inclusive") if len(xs) > 1 else xs * 9


Match = tuple[list[str], int, list[Decision], list[float], float]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--matches", type=int, default=4)
    ap.add_argument("--first", type=int, default=0,
                    help="play matches FIRST..MATCHES-1 only (the rest of a run stopped early: "
                         "each match's seeds are its number)")
    ap.add_argument("--target", type=int, default=7)
    ap.add_argument("--budget", type=int, default=AnalysisBudget().worlds,
                    help="sampled deals per decision")
    ap.add_argument("--chance", choices=("all", "end"), default="all",
                    help="weigh every decision by the chance to win the match (all: what the "
                         "search bots play for and the arena counts; twice the work) or only "
                         "near the match's end (end: as pitch analyze does)")
    ap.add_argument("--bots", default="random,easy,medium,hard,expert")
    ap.add_argument("--jobs", type=int, default=1, help="matches at once (processes)")
    ap.add_argument("--cluster", default=None, metavar="ADDRESS",
                    help="the matches on a Ray cluster: auto, ray://HOST:PORT or HOST:PORT")
    ap.add_argument("--save", default=None, metavar="FILE",
                    help="also keep the analysed matches in FILE (pickle) for --load")
    ap.add_argument("--load", action="append", default=None, metavar="FILE",
                    help="print the tables of the matches --save kept (nothing is played; "
                         "--budget, --chance, --target and --bots as the run had them); "
                         "several --load: their matches together")
    args = ap.parse_args(argv)
    names = args.bots.split(",")
    rules = pc.find_variant("auction").replace(target=args.target)
    budget = AnalysisBudget(args.budget, args.budget, chance_everywhere=args.chance == "all")
    work = [(rules, names, k, budget) for k in range(args.first, args.matches)]
    matches: list[Match] = []
    if args.load is not None:
        for path in args.load:
            with open(path, "rb") as f:
                matches += pickle.load(f)
    elif args.cluster is None and args.jobs <= 1:
        matches = [analyse_match(w) for w in work]
    elif args.cluster is None:
        matches = in_processes(work, args.jobs)
    else:
        from pitchcards.bots.ray_cluster import map_on_cluster

        matches = map_on_cluster(args.cluster, analyse_match, work)
    if args.save is not None:
        with open(args.save, "wb") as f:
            pickle.dump(matches, f)
    print(f"# {len(matches)} matches of {rules.name} to {args.target}, {SEATS} seats "
          f"({', '.join(names)}, rotated), analysed at {args.budget} deals a decision, "
          f"chance to win weighed {'everywhere' if args.chance == 'all' else 'near the end'}")
    tables(matches, names)


def tables(matches: list[Match], names: list[str]) -> None:
    """The arena's share of matches won beside the analysis's mean loss per choice, in points
    and in chance to win the match, then the analysis's cost."""
    decisions: dict[str, list[Decision]] = {name: [] for name in names}
    per_decision: list[float] = []
    per_match: list[float] = []
    played = dict.fromkeys(names, 0)
    won = dict.fromkeys(names, 0)
    for seating, winner, analysed, ms, cpu in matches:
        for name in seating:
            played[name] += 1
        won[seating[winner]] += 1
        per_match.append(cpu)
        per_decision += ms
        for d in analysed:
            decisions[seating[d.seat]].append(d)

    def share(name: str) -> str:
        lo, hi = wilson(won[name], played[name])
        return f"{won[name] / max(played[name], 1):.2f} [{lo:.2f}, {hi:.2f}]"

    print("\nIn points of net score given up per decision with a choice (mean [95 % CI]):")
    header = "  ".join(f"{PLURALS[name]:>12s}" for name, _ in reversed(LABELS))
    print(f"{'bot':8s} {'matches':>7s}  {'won [95 % CI]':>19s}  {'choices':>7s}  "
          f"{'loss/choice':>24s}  {'auction':>24s}  {'play':>24s}  {header}  "
          f"{'labelled [95 % CI]':>22s}  {'for the match':>13s}  (per 100 choices)  "
          f"{'loss/choice, for the match not counted':>38s}")
    for name in names:
        mine = [d for d in decisions[name] if not d.forced]
        auction = [d.loss for d in mine if d.phase in AUCTION_PHASES]
        play = [d.loss for d in mine if d.phase not in AUCTION_PHASES]
        counts = "  ".join(f"{100 * sum(d.label == label for d in mine) / max(len(mine), 1):12.1f}"
                           for label, _ in reversed(LABELS))
        # any label, and points given up for the match (never labelled): analysis.FOR_THE_MATCH
        labelled = interval([100.0 * (d.label is not None) for d in mine], 1)
        traded = 100 * sum(getattr(d, "for_the_match", False) for d in mine) / max(len(mine), 1)
        # the loss the analysis holds against the player: none where it gave up points for
        # the match (what the labels say too)
        held = interval([0.0 if getattr(d, "for_the_match", False) else d.loss for d in mine])
        print(f"{name:8s} {played[name]:7d}  {share(name):>19s}  {len(mine):7d}  "
              f"{interval([d.loss for d in mine]):>24s}  {interval(auction):>24s}  "
              f"{interval(play):>24s}  {counts}  {labelled:>22s}  {traded:13.1f}  "
              f"{' ' * 17}{held:>38s}")
    print("\nIn chance to win the match given up per decision with a choice, in percentage "
          "points (mean [95 % CI]; the decisions where it was weighed):")
    print(f"{'bot':8s} {'won [95 % CI]':>19s}  {'choices':>7s}  {'loss/choice':>24s}  "
          f"{'auction':>24s}  {'play':>24s}  {'auction choices':>15s}")
    for name in names:
        weighed = [d for d in decisions[name] if not d.forced and d.chance_loss is not None]
        pct = [100 * (d.chance_loss or 0.0) for d in weighed]
        auction = [x for d, x in zip(weighed, pct, strict=True) if d.phase in AUCTION_PHASES]
        play = [x for d, x in zip(weighed, pct, strict=True) if d.phase not in AUCTION_PHASES]
        print(f"{name:8s} {share(name):>19s}  {len(weighed):7d}  {interval(pct, 2):>24s}  "
              f"{interval(auction, 2):>24s}  {interval(play, 2):>24s}  {len(auction):15d}")
    print()
    print(f"{'analysis cost':24s} {'median':>8s} {'p90':>8s} {'max':>8s}")
    q = deciles(per_decision)
    print(f"{'CPU ms per decision':24s} {statistics.median(per_decision):8.1f} {q[-1]:8.1f} "
          f"{max(per_decision):8.1f}   ({len(per_decision)} decisions)")
    qm = deciles(per_match)
    print(f"{'CPU s per match':24s} {statistics.median(per_match):8.1f} {qm[-1]:8.1f} "
          f"{max(per_match):8.1f}   ({len(per_match)} matches)")


if __name__ == "__main__":
    main()
