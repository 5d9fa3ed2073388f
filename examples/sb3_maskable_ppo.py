"""Train sb3-contrib's MaskablePPO on Pitch against the heuristic bot, then evaluate it.

The learner holds seat 0 of ``auction-partners``; its partner and both opponents are our
``heuristic`` bot (``PitchEnv(opponents="heuristic")``), one match per episode, with the default
zero-sum reward (the side's score change minus the opponents', per hand; ±1 for the match).
MaskablePPO reads the legal actions from ``PitchEnv.action_masks()`` itself: no wrapper needed.

After training it plays ``--eval-matches`` seeded matches against ``random``, ``heuristic`` and
``expert`` (the partner is the same bot as the opponents) with
:func:`pitchcards.envs.evaluate.evaluate`, and prints the win rate and points per hand, next to
those of the heuristic bot itself in the learner's seat on the same matches (the baseline).

    python examples/sb3_maskable_ppo.py                           # the numbers in docs/research.md
    python examples/sb3_maskable_ppo.py --steps 2048 --eval-matches 2   # a quick smoke run

Needs ``pip install -e '.[rl,sb3]'`` (Stable-Baselines3, sb3-contrib, torch for the CPU).
The defaults took 7 minutes here (docs/research.md): training 3, the expert matches most of the
rest (``expert`` takes seconds per match, so it plays 30 matches by default, not 100).
Training uses one torch thread.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.env_util import make_vec_env

from pitchcards.envs.evaluate import Evaluation, Policy, evaluate
from pitchcards.envs.gymnasium import PitchEnv

VARIANT = "auction-partners"
LEVELS = ("random", "heuristic", "expert")


def train(steps: int, seed: int, envs: int) -> MaskablePPO:
    """MaskablePPO trained for ``steps`` learner decisions against the heuristic bot."""
    vec = make_vec_env(PitchEnv, n_envs=envs, seed=seed,
                       env_kwargs={"variant": VARIANT, "opponents": "heuristic"})
    model = MaskablePPO("MultiInputPolicy", vec, n_steps=512, batch_size=256, n_epochs=5,
                        seed=seed, device="cpu", verbose=0)
    model.learn(total_timesteps=steps)
    return model


def as_policy(model: MaskablePPO) -> Policy:
    """The trained model as an :func:`evaluate` policy: its most likely legal action."""
    def choose(obs: dict[str, np.ndarray[Any, Any]], mask: np.ndarray[Any, Any]) -> int:
        action, _ = model.predict(obs, action_masks=mask, deterministic=True)
        return int(action)
    return choose


def row(level: str, matches: int, ppo: Evaluation, base: Evaluation) -> str:
    return (f"| {level} | {matches} | {100 * ppo.win_rate:.1f} | {ppo.points_per_hand:+.3f} | "
            f"{100 * base.win_rate:.1f} | {base.points_per_hand:+.3f} |")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=300_000,
                        help="learner decisions to train for (default 300000)")
    parser.add_argument("--seed", type=int, default=0, help="training seed (default 0)")
    parser.add_argument("--envs", type=int, default=4,
                        help="environments stepped together (default 4)")
    parser.add_argument("--eval-matches", type=int, default=100,
                        help="matches against random and heuristic (default 100)")
    parser.add_argument("--expert-matches", type=int, default=None,
                        help="matches against expert, which is slow (default 30, or "
                             "--eval-matches if fewer)")
    parser.add_argument("--eval-seed", type=int, default=1000,
                        help="match i is seeded eval-seed + i (default 1000)")
    args = parser.parse_args(argv)
    expert_matches = min(30, args.eval_matches) if args.expert_matches is None \
        else args.expert_matches
    if min(args.steps, args.envs, args.eval_matches, expert_matches) < 1:
        parser.error("--steps, --envs, --eval-matches and --expert-matches must be positive")

    torch.set_num_threads(1)  # a small network: one thread is as fast, and shares the machine
    start = time.perf_counter()
    model = train(args.steps, args.seed, args.envs)
    trained = time.perf_counter() - start
    print(f"MaskablePPO: {args.steps} steps against heuristic, {VARIANT}, seat 0, "
          f"seed {args.seed}: {trained:.0f} s")

    policy = as_policy(model)
    print(f"evaluation: seat 0, the partner is the opponents' bot; match i seeded "
          f"{args.eval_seed} + i")
    print("| opponents | matches | PPO win % | PPO points/hand | heuristic win % | "
          "heuristic points/hand |")
    print("|---|---:|---:|---:|---:|---:|")
    for level in LEVELS:
        matches = expert_matches if level == "expert" else args.eval_matches
        common: dict[str, Any] = {"opponents": level, "matches": matches, "seed": args.eval_seed}
        ppo = evaluate(policy, VARIANT, **common)
        base = evaluate("heuristic", VARIANT, **common)
        print(row(level, matches, ppo, base), flush=True)
    print(f"total {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
