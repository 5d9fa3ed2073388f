"""RL environment speed: our PettingZoo and Gymnasium envs beside OpenSpiel's oh_hell and tensor.

    .venv/bin/pip install -e '.[rl,bench]'        # pettingzoo, gymnasium, open_spiel
    .venv/bin/python benchmarks/bench_envs.py [--seconds 2] [--repeats 5] [--variant NAME]
        [--builds] [--against OTHER/src] [--profile ROW]

Every row is the same kind of Python loop of uniformly random legal play, and counts decision
steps (an agent choosing an action); dealing is inside the timed loop but not counted:

* ``PettingZoo env()`` — :func:`pitchcards.envs.pettingzoo.env` (PettingZoo's classic wrappers:
  ``TerminateIllegalWrapper``, ``AssertOutOfBoundsWrapper``, ``OrderEnforcingWrapper``) driven
  by the documented AEC loop: ``for agent in env.agent_iter(): obs, ... = env.last()``, a
  random action among ``obs["action_mask"]``, ``env.step(action)``; ``reset(seed=i)`` when the
  episode ends.  Default episodes (a match) of ``--variant`` (default ``auction-partners``).
* ``PettingZoo raw_env`` — the same loop on :class:`~pitchcards.envs.pettingzoo.raw_env`.
* ``Gymnasium PitchEnv (3 random bots)`` — :class:`~pitchcards.envs.gymnasium.PitchEnv` with
  ``opponents="random"``: one step is one learner decision (the bots' turns happen inside it).
* ``open_spiel oh_hell + infostate tensor`` — OpenSpiel's C++
  ``oh_hell(players=4,num_tricks_fixed=6)``: chance outcomes for the deal, and at every
  decision ``information_state_tensor(player)`` then ``legal_actions()`` / ``apply_action``.
  (oh_hell has no observation tensor: ``ObservationTensorShape unimplemented``.)

Rows run ``--repeats`` times, interleaved, so machine noise hits every row alike; the table
quotes medians with [min-max] and the ratio of each of our rows to OpenSpiel's infostate row
(issue 35's research target: the PettingZoo env at least 1x).  ``--builds`` also runs our rows
on the compiled fast path and on pure Python (``PITCHCARDS_PURE=1``), each repeat in its own
fresh subprocess, alternating (build the fast path first: ``python scripts/build_fast.py``).
``--against DIR`` also runs our rows on the package found in ``DIR`` (e.g. the ``src`` of an
older checkout: ``git worktree add /tmp/old <commit>``) and on this one, each repeat in its own
fresh subprocess, alternating, and prints the ratio of each row (this / that).
``--profile ROW`` runs one row (``pettingzoo``, ``raw``, ``gymnasium``) once under cProfile
and prints the top of the profile instead.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import pitchcards as pc
from bench_engine import json_of_a_run, print_builds, span  # beside this script
from pitchcards.envs.gymnasium import PitchEnv
from pitchcards.envs.pettingzoo import env as pz_env
from pitchcards.envs.pettingzoo import raw_env

VARIANT = "auction-partners"
OPENSPIEL = "open_spiel oh_hell + infostate tensor"


def _aec_loop(make: Callable[[], Any], seconds: float) -> float:
    """Decision steps per second of random legal play through PettingZoo's AEC loop."""
    rnd = random.Random(1).random
    e = make()
    steps = episodes = 0
    deadline = time.perf_counter() + seconds
    start = time.perf_counter()
    while time.perf_counter() < deadline:
        e.reset(seed=episodes)
        episodes += 1
        for _agent in e.agent_iter():
            obs, _reward, terminated, truncated, _info = e.last()
            if terminated or truncated:
                action = None
            else:
                legal = np.flatnonzero(obs["action_mask"])
                action = int(legal[int(rnd() * len(legal))])
                steps += 1
            e.step(action)
    return steps / (time.perf_counter() - start)


def pettingzoo_wrapped(seconds: float) -> float:
    return _aec_loop(lambda: pz_env(variant=VARIANT), seconds)


def pettingzoo_raw(seconds: float) -> float:
    return _aec_loop(lambda: raw_env(variant=VARIANT), seconds)


def gymnasium_env(seconds: float) -> float:
    """Learner steps per second against three random bots."""
    rnd = random.Random(1).random
    e = PitchEnv(variant=VARIANT, opponents="random")
    steps = episodes = 0
    deadline = time.perf_counter() + seconds
    start = time.perf_counter()
    while time.perf_counter() < deadline:
        obs, _ = e.reset(seed=episodes)
        episodes += 1
        done = False
        while not done:
            legal = np.flatnonzero(obs["action_mask"])
            obs, _r, terminated, truncated, _info = e.step(int(legal[int(rnd() * len(legal))]))
            done = terminated or truncated
            steps += 1
    return steps / (time.perf_counter() - start)


def oh_hell_infostate(seconds: float) -> float | None:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("oh_hell(players=4,num_tricks_fixed=6)")
    rnd = random.Random(1).random
    steps = 0
    deadline = time.perf_counter() + seconds
    start = time.perf_counter()
    while time.perf_counter() < deadline:
        state = game.new_initial_state()
        observe = state.information_state_tensor
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rnd() * len(outcomes))][0])
                continue
            observe(state.current_player())
            acts = state.legal_actions()
            state.apply_action(acts[int(rnd() * len(acts))])
            steps += 1
    return steps / (time.perf_counter() - start)


OURS: dict[str, Callable[[float], float]] = {
    "PettingZoo env() (wrapped)": pettingzoo_wrapped,
    "PettingZoo raw_env": pettingzoo_raw,
    "Gymnasium PitchEnv (3 random bots)": gymnasium_env,
}
PEERS: dict[str, Callable[[float], float | None]] = {
    OPENSPIEL: oh_hell_infostate,
}
PROFILE_ROWS = {"pettingzoo": pettingzoo_wrapped, "raw": pettingzoo_raw,
                "gymnasium": gymnasium_env}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="per row and repeat")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--variant", default="auction-partners",
                        help="a named variant (its default players)")
    parser.add_argument("--builds", action="store_true",
                        help="also run our rows compiled and pure, each in a subprocess")
    parser.add_argument("--against", metavar="DIR", default=None,
                        help="also run our rows on the package in DIR, interleaved")
    parser.add_argument("--profile", choices=sorted(PROFILE_ROWS), default=None)
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    global VARIANT
    VARIANT = args.variant
    if args.profile:
        profile = cProfile.Profile()
        profile.runcall(PROFILE_ROWS[args.profile], args.seconds)
        pstats.Stats(profile).sort_stats("tottime").print_stats(25)
        return 0
    if args.json:  # one repeat of our rows, for another run's --builds
        print(json.dumps({name: fn(args.seconds) for name, fn in OURS.items()}))
        return 0
    rows: dict[str, Callable[[float], float | None]] = {**OURS, **PEERS}
    samples: dict[str, list[float]] = {name: [] for name in rows}
    builds: dict[str, dict[str, list[float]]] = {"compiled": {}, "pure": {}}
    here = os.path.dirname(os.path.dirname(os.path.abspath(pc.__file__)))
    sides: dict[str, dict[str, list[float]]] = {"this": {}, "that": {}}
    for _ in range(args.repeats):
        for name, fn in rows.items():
            got = fn(args.seconds)
            if got is not None:
                samples[name].append(got)
        if args.builds:
            for build in builds:
                for name, rate in _run_ours(args, here, pure=build == "pure").items():
                    builds[build].setdefault(name, []).append(rate)
        if args.against:
            for side, path in (("this", here), ("that", args.against)):
                for name, rate in _run_ours(args, path).items():
                    sides[side].setdefault(name, []).append(rate)

    load = os.getloadavg()
    print(f"pitchcards: {pc.fast_path()}")
    print(f"Python {sys.version.split()[0]}, {args.repeats} repeats x {args.seconds:g} s per row; "
          f"variant {args.variant}; load average {load[0]:.1f}; decision steps/s, "
          "median [min-max]")
    peer = samples[OPENSPIEL]
    print(f"{'row':<42} {'steps/s':>24} {'/ OpenSpiel':>12}")
    for name, got in samples.items():
        if not got:
            print(f"{name:<42} {'(open_spiel not installed)':>24}")
            continue
        ratio = ""
        if peer:  # per-repeat ratios: both sides of one ratio ran seconds apart
            ratio = f"{statistics.median(a / b for a, b in zip(got, peer, strict=True)):.2f}x"
        print(f"{name:<42} {span(got):>24} {ratio:>12}")
    if args.builds:
        print_builds(builds, "steps/s")
        if peer:
            for build in builds:
                for name, got in builds[build].items():
                    print(f"  {name}, {build} / OpenSpiel infostate: "
                          f"{statistics.median(got) / statistics.median(peer):.2f}x")
    if args.against:
        print(f"\n{here} against {args.against} (this / that, steps/s, each repeat in its own "
              "subprocess, alternating; median [min-max] of the per-repeat ratios):")
        for name, this in sides["this"].items():
            that = sides["that"][name]
            ratios = [a / b for a, b in zip(this, that, strict=True)]
            print(f"  {name:<40} {statistics.median(ratios):.2f} "
                  f"[{min(ratios):.2f}-{max(ratios):.2f}]  (this {statistics.median(this):,.0f}, "
                  f"that {statistics.median(that):,.0f})")
    return 0


def _run_ours(args: argparse.Namespace, path: str, pure: bool | None = None
              ) -> dict[str, float]:
    """One repeat of our rows in a fresh subprocess on the package in ``path`` (``pure``: True
    for pure Python, False for the compiled build, None as this process runs)."""
    result: dict[str, float] = json_of_a_run(
        __file__, ["--json", "--seconds", str(args.seconds), "--variant", args.variant], path,
        pure)
    return result


if __name__ == "__main__":
    sys.exit(main())
