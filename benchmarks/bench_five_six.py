"""The expert against the heuristic at five (call-your-partner) and six (three teams), duplicate,
with a running table that can be stopped at any time (issue 36).

    .venv/bin/python benchmarks/bench_five_six.py --variant call-partner --games 200
    .venv/bin/python benchmarks/bench_five_six.py --variant three-teams --games 100 \\
        --expert "expert[worlds=8,bid_worlds=12,bid_worlds_max=0,worlds_max=0,time_limit=3600]"

The games are the arena's (:func:`pitchcards.bots.arena.run_arena`'s own game, seeds and
seatings), played one duplicate game at a time: at five, one expert among four heuristics, in
each of the five seats in turn; at six, the expert holding one team against two heuristic
teams, in each of the six orders of the three teams.  ``--hands`` hands a game and no target,
so points per hand are the measure: the expert's seats' mean score change minus the other
seats' mean, one sample per duplicate game (every seating of one deal sequence).  After every
duplicate game a line: games so far, the mean with a 95 % interval (1.96 standard errors over
the games), the expert's contracts and make rate, the heuristic's, and the expert's median
decision time.  The default budget is counted, not timed (``time_limit=3600``), so results do
not depend on the machine's load; say the budget with the numbers.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time

from pitchcards.bots.arena import _play, _seatings, _Task
from pitchcards.rules import find_variant

SMALL = "expert[worlds=8,bid_worlds=12,bid_worlds_max=0,worlds_max=0,time_limit=3600]"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--variant", choices=("call-partner", "three-teams"), default="call-partner")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--hands", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--expert", default=SMALL)
    a = ap.parse_args(argv)
    rules = find_variant(a.variant).replace(target=None)
    players = 5 if a.variant == "call-partner" else 6
    bots = (a.expert, *(["heuristic"] * (4 if players == 5 else 2)))
    seatings = _seatings(rules, len(bots))
    samples: list[float] = []
    contracts = [0, 0]
    made = [0, 0]
    times: list[int] = []
    start = time.perf_counter()
    print(f"{a.variant}: {a.expert} against heuristic, {players} players, {seatings} seatings "
          f"a duplicate game, {a.hands} hands each, seed {a.seed}", flush=True)
    print("games  pts/hand   95% CI              expert bids made%  heuristic bids made%  "
          "ms med  s", flush=True)
    for g in range(a.games):
        diff = hands = 0.0
        for r in range(seatings):
            o = _play(_Task(rules, bots, players, g, r, a.seed, a.hands, a.hands))
            diff += o.diff[0]
            hands += o.hands
            contracts[0] += o.contracts[0]
            made[0] += o.made[0]
            contracts[1] += sum(o.contracts[1:])
            made[1] += sum(o.made[1:])
            times.extend(o.times[0])
        samples.append(diff / hands)
        mean = statistics.fmean(samples)
        half = (1.96 * statistics.stdev(samples) / math.sqrt(len(samples))
                if len(samples) > 1 else math.inf)
        rate = [100 * m / c if c else 0.0 for m, c in zip(made, contracts, strict=True)]
        med = statistics.median(times) / 1e6 if times else 0.0
        print(f"{len(samples):5d}  {mean:+.3f}  [{mean - half:+.3f}, {mean + half:+.3f}]  "
              f"{contracts[0]:9d} {rate[0]:5.1f}  {contracts[1]:14d} {rate[1]:5.1f}  "
              f"{med:6.1f}  {time.perf_counter() - start:.0f}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
