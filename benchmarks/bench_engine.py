"""Engine speed: random full 4-player hands through the public API, side by side with OpenSpiel.

    .venv/bin/pip install -e '.[bench]'        # brings open_spiel (optional)
    .venv/bin/python benchmarks/bench_engine.py [--seconds 2] [--repeats 5] [--variant NAME]
        [--against OTHER/src] [--builds]

``--variant`` plays another named variant (``ten-point`` deals nine cards, names trump and
discards).  ``--against DIR`` also runs the pitchcards rows on the package found in ``DIR``
(e.g. the ``src`` of an older checkout: ``git worktree add /tmp/old <commit>``) and on this one,
each in a fresh subprocess, alternating repeat by repeat, and prints the ratio of each row: the
side-by-side check that a change kept the engine's speed (both sides run alike: an in-process
row would not be comparable, this process having loaded OpenSpiel and run other rows).

Rows (each run ``--repeats`` times, interleaved, so machine noise hits every row alike):

* ``pitchcards Hand (checked)`` — ``Hand.deal`` then ``legal_actions()`` / ``push()`` until the
  hand is over: the checked public API a bot or a server uses.
* ``pitchcards Hand (seeded deal)`` — the same, each hand dealt from its own ``seed=i``.
* ``open_spiel oh_hell`` — OpenSpiel's C++ ``oh_hell(players=4,num_tricks_fixed=6)`` driven by the
  same kind of Python loop (chance outcomes for the deal, ``legal_actions``/``apply_action``).
* ``pitchcards search path`` — what a search bot does: from a position just after the auction,
  random playouts with ``push_unchecked`` and ``pop`` back (hands/s and actions/s).

``--cpu`` measures every row per second of the process's CPU time instead of wall time: on a
shared, loaded machine the rows then compare the work each did, not how long each waited for a
core (OpenSpiel's loop is single-threaded Python and C++ like ours, so the ratio stays fair).

``--builds`` (issue 35) also runs the pitchcards rows on the compiled fast path and on pure
Python (``PITCHCARDS_PURE=1``), each in a fresh subprocess, alternating repeat by repeat, and
prints each build's medians, the compiled / pure ratio and each build's checked hands/s against
OpenSpiel's median of this run (build the fast path first: ``python scripts/build_fast.py``).

The table quotes medians with the [min-max] over repeats, and the ratio of our checked hands/s
to OpenSpiel's games/s (the engine's target: at least 1.5x).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import pitchcards as pc
from pitchcards.hand import Hand

RULES = pc.find_variant("auction")
#: What a row's rate is per: wall time, or with ``--cpu`` this process's CPU time (on a shared,
#: loaded machine the CPU time a row got is steadier than the wall time it waited through).
CLOCK: Callable[[], float] = time.perf_counter


def _random_hands(seconds: float, seeded: bool) -> tuple[float, float]:
    """Random hands through Hand.deal / legal_actions / push; returns (hands/s, actions/s).

    ``seeded``: deal every hand from its own ``seed=i`` instead of one shared generator.
    """
    rng = random.Random(1)
    rnd = rng.random
    hands = actions = 0
    deadline = CLOCK() + seconds
    start = CLOCK()
    while CLOCK() < deadline:
        for _ in range(100):
            if seeded:
                h = Hand.deal(RULES, players=4, dealer=hands & 3, seed=hands)
            else:
                h = Hand.deal(RULES, players=4, dealer=hands & 3, rng=rng)
            while h.seat_to_act is not None:
                acts = h.legal_actions()
                h.push(acts[int(rnd() * len(acts))])
                actions += 1
            hands += 1
    elapsed = CLOCK() - start
    return hands / elapsed, actions / elapsed


def pitch_checked(seconds: float) -> tuple[float, float]:
    return _random_hands(seconds, seeded=False)


def pitch_seeded(seconds: float) -> tuple[float, float]:
    return _random_hands(seconds, seeded=True)


def pitch_search_path(seconds: float) -> tuple[float, float]:
    """Random playouts from just after the auction with push_unchecked and pop back."""
    rng = random.Random(2)
    rnd = rng.random
    roots = []
    for i in range(64):
        h = Hand.deal(RULES, players=4, dealer=i & 3, rng=rng)
        while h.phase != "play":  # the auction (and naming trump, the discard: T4, T5)
            acts = h.legal_actions()
            h.push(acts[int(rnd() * len(acts))])
        roots.append(h)
    playouts = actions = 0
    deadline = CLOCK() + seconds
    start = CLOCK()
    while CLOCK() < deadline:
        for h in roots:
            depth = 0
            push, legal = h.push_unchecked, h.legal_actions
            while h.seat_to_act is not None:
                acts = legal()
                push(acts[int(rnd() * len(acts))])
                depth += 1
            for _ in range(depth):
                h.pop()
            actions += depth
            playouts += 1
    elapsed = CLOCK() - start
    return playouts / elapsed, actions / elapsed


def open_spiel_oh_hell(seconds: float) -> tuple[float, float] | None:
    """OpenSpiel's C++ oh_hell (4 players, 6 tricks) through the same Python loop."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("oh_hell(players=4,num_tricks_fixed=6)")
    rnd = random.Random(1).random
    games = actions = 0
    deadline = CLOCK() + seconds
    start = CLOCK()
    while CLOCK() < deadline:
        for _ in range(200):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[int(rnd() * len(outcomes))][0])
                else:
                    acts = state.legal_actions()
                    state.apply_action(acts[int(rnd() * len(acts))])
                actions += 1
            games += 1
    elapsed = CLOCK() - start
    return games / elapsed, actions / elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="per row and repeat")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--variant", default="auction", help="a named variant (4 players)")
    parser.add_argument("--against", metavar="DIR", default=None,
                        help="also run the pitchcards rows on the package in DIR, interleaved")
    parser.add_argument("--builds", action="store_true",
                        help="also run the pitchcards rows compiled and pure, interleaved")
    parser.add_argument("--cpu", action="store_true",
                        help="rates per second of CPU time of the process (every row alike)")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    global RULES, CLOCK
    RULES = pc.find_variant(args.variant)
    if args.cpu:
        CLOCK = time.process_time

    rows: dict[str, Callable[[float], tuple[float, float] | None]] = {
        "pitchcards Hand (checked)": pitch_checked,
        "pitchcards Hand (seeded deal)": pitch_seeded,
        "open_spiel oh_hell(4p, 6 tricks)": open_spiel_oh_hell,
        "pitchcards search path (unchecked push/pop)": pitch_search_path,
    }
    if args.json:  # one repeat of our rows, for another run's --against
        print(json.dumps({name: fn(args.seconds) for name, fn in rows.items()
                          if name.startswith("pitchcards")}))
        return 0
    samples: dict[str, list[tuple[float, float]]] = {name: [] for name in rows}
    mine: dict[str, list[tuple[float, float]]] = {name: [] for name in rows}
    other: dict[str, list[tuple[float, float]]] = {name: [] for name in rows}
    builds: dict[str, dict[str, list[float]]] = {"compiled": {}, "pure": {}}
    here = os.path.dirname(os.path.dirname(os.path.abspath(pc.__file__)))
    for _ in range(args.repeats):
        for name, fn in rows.items():
            got = fn(args.seconds)
            if got is not None:
                samples[name].append(got)
        if args.against:
            for side, path in ((mine, here), (other, args.against)):
                for name, rates in _run_rows(args, path).items():
                    side[name].append((rates[0], rates[1]))
        if args.builds:
            for build in builds:
                for name, rates in _run_rows(args, here, pure=build == "pure").items():
                    builds[build].setdefault(name, []).append(rates[0])

    print(f"pitchcards: {pc.fast_path()}")
    print(f"Python {sys.version.split()[0]}, {args.repeats} repeats x {args.seconds:g} s "
          f"{'of CPU time ' if args.cpu else ''}per row; variant {args.variant}; "
          "median [min-max]")
    print(f"{'row':<46} {'hands/s':>24} {'actions/s':>12}")
    medians: dict[str, float] = {}
    for name, got in samples.items():
        if not got:
            print(f"{name:<46} {'(open_spiel not installed)':>24}")
            continue
        rates = [g[0] for g in got]
        med = statistics.median(rates)
        medians[name] = med
        act = statistics.median(g[1] for g in got)
        span = f"{med:,.0f} [{min(rates):,.0f}-{max(rates):,.0f}]"
        print(f"{name:<46} {span:>24} {act:>12,.0f}")
    ours, theirs = "pitchcards Hand (checked)", "open_spiel oh_hell(4p, 6 tricks)"
    if theirs in medians:
        ratio = medians[ours] / medians[theirs]
        per_repeat = [a[0] / b[0] for a, b in zip(samples[ours], samples[theirs], strict=True)]
        print(f"\nratio checked pitchcards / OpenSpiel: {ratio:.2f}x "
              f"(per repeat {min(per_repeat):.2f}-{max(per_repeat):.2f}; target >= 1.5x)")
    if args.builds:
        print_builds(builds, "hands/s")
        if theirs in medians:
            for build in builds:
                ours_rate = statistics.median(builds[build][ours])
                print(f"  checked API, {build} / OpenSpiel: {ours_rate / medians[theirs]:.2f}x")
    if args.against:
        print(f"\n{here} against {args.against} (this / that, hands/s, each in its own "
              "subprocess, alternating; median [min-max] of the per-repeat ratios):")
        for name, got in other.items():
            if got and mine[name]:
                ratios = [a[0] / b[0] for a, b in zip(mine[name], got, strict=True)]
                print(f"  {name:<44} {statistics.median(ratios):.3f} "
                      f"[{min(ratios):.3f}-{max(ratios):.3f}]  "
                      f"(this {statistics.median(g[0] for g in mine[name]):,.0f}, "
                      f"that {statistics.median(g[0] for g in got):,.0f} hands/s)")
    return 0


def span(rates: list[float]) -> str:
    """A row's rates as ``median [min-max]``."""
    return f"{statistics.median(rates):,.0f} [{min(rates):,.0f}-{max(rates):,.0f}]"


def print_builds(builds: dict[str, dict[str, list[float]]], unit: str) -> None:
    """The compiled and the pure build's rates of each row side by side (``builds[build][row]``:
    one rate a repeat, the repeats alternating between the builds) with the median of the
    per-repeat ratios (also bench_envs.py's table)."""
    print(f"\ncompiled and pure builds ({unit}, each repeat in its own subprocess, "
          "alternating; median [min-max]):")
    print(f"  {'row':<44} {'compiled':>22} {'pure':>22} {'ratio':>6}")
    for name, compiled in builds["compiled"].items():
        pure = builds["pure"][name]
        ratios = [a / b for a, b in zip(compiled, pure, strict=True)]
        print(f"  {name:<44} {span(compiled):>22} {span(pure):>22} "
              f"{statistics.median(ratios):>5.2f}x")


def json_of_a_run(script: str, argv: list[str], path: str, pure: bool | None = None) -> Any:
    """What ``script`` (a benchmark run with ``--json`` among ``argv``) prints, run in a fresh
    subprocess on the package in ``path`` (``pure``: True for pure Python, False for the
    compiled build, None as this process runs); bench_envs.py's ``--builds`` and ``--against``
    use it too."""
    env = {**os.environ, "PYTHONPATH": os.path.abspath(path)}
    if pure is not None:
        env.pop("PITCHCARDS_PURE", None)
        if pure:
            env["PITCHCARDS_PURE"] = "1"
    out = subprocess.run([sys.executable, os.path.abspath(script), *argv], env=env,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def _run_rows(args: argparse.Namespace, path: str, pure: bool | None = None
              ) -> dict[str, list[float]]:
    """One repeat of the pitchcards rows on the package in ``path``, in a fresh subprocess."""
    result: dict[str, list[float]] = json_of_a_run(
        __file__, ["--json", "--seconds", str(args.seconds), "--variant", args.variant,
                   *(["--cpu"] if args.cpu else [])], path, pure)
    return result


if __name__ == "__main__":
    sys.exit(main())
