"""Call-your-partner defence (TricksterBots #97): the heuristic whose defenders reason who their
allies are against the same heuristic playing each seat alone until the reveal.

    .venv/bin/python benchmarks/bench_call_defence.py [--games 200] [--hands 6] [--seed 1]
    .venv/bin/python benchmarks/bench_call_defence.py --layout one --games 100

Duplicate games of ``call-partner`` through the arena (:func:`pitchcards.bots.arena.run_arena`),
``--hands`` hands a game with no target, so points per hand are the measure (each bot's seats'
mean score change minus the other seats', a 95 % interval over duplicate games).
``--layout two`` (default): the two bots alternate round the table (three seats and two, then
the other way round); ``--layout one``: one defending heuristic among four that do not, in each
of the five seats in turn.  ``--defenders side`` plays ``call_defenders="side"`` (CP6: the
defenders pool their points, and the defending heuristic plays the other defenders as allies).
Prints the arena table; jobs 1 (the bot without the defence is registered in this process
only).
"""

from __future__ import annotations

import argparse

from pitchcards.bots import HeuristicBot, register
from pitchcards.bots.arena import run_arena


class Undefended(HeuristicBot):
    """The heuristic as it was before #97: a defender plays every seat alone until the reveal."""

    name = "heuristic-undefended"
    defend = False


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--hands", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--layout", choices=("two", "one"), default="two")
    ap.add_argument("--defenders", choices=("each", "side"), default="each",
                    help="call_defenders: each scores its own points, or the three pool them")
    a = ap.parse_args(argv)
    register(Undefended.name, Undefended)
    bots = ["heuristic", Undefended.name] + ([Undefended.name] * 3 if a.layout == "one" else [])
    result = run_arena("call-partner", bots, games=a.games, seed=a.seed, jobs=1,
                       options={"target": None, "call_defenders": a.defenders}, hands=a.hands)
    print(result.table())


if __name__ == "__main__":
    main()
