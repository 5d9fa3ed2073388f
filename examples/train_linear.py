"""Train a linear softmax policy on Pitch against the heuristic bot and plot its learning curve.

The learner holds seat 0 of ``auction-partners``; its partner and both opponents are our
``heuristic`` bot (``PitchEnv(opponents="heuristic")``).  One episode is one hand; the reward is
the learner's side's score change for the hand.  The policy is a softmax over the legal actions of
``W @ observation`` (one weight row per action id), trained by REINFORCE with a running-mean
baseline — a few lines of numpy, no deep-learning framework.

    python examples/train_linear.py                      # ~30 s; writes learning_curve.png
    python examples/train_linear.py --episodes 20000 --out curve.png

The plot shows the learner's mean reward per hand (moving average) against two references
measured on the same kind of hands: a uniformly random player and the heuristic bot itself in the
learner's seat.  Needs ``pip install pitchcards[rl]``.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from pitchcards.bots import make_bot
from pitchcards.envs.gymnasium import PitchEnv

Policy = Callable[[PitchEnv, dict[str, Any]], int]


class LinearPolicy:
    """Softmax over legal actions of a linear score; REINFORCE updates."""

    def __init__(self, n_features: int, n_actions: int, lr: float, rng: np.random.Generator):
        self.w = np.zeros((n_actions, n_features + 1), np.float64)
        self.lr = lr
        self.rng = rng

    def probs(self, x: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        legal = np.flatnonzero(mask)
        logits = self.w[legal] @ x
        logits -= logits.max()
        p = np.exp(logits)
        return legal, p / p.sum()

    def act(self, x: np.ndarray, mask: np.ndarray) -> tuple[int, tuple[Any, ...]]:
        legal, p = self.probs(x, mask)
        i = int(self.rng.choice(len(legal), p=p))
        return int(legal[i]), (x, legal, p, i)

    def update(self, trace: list[tuple[Any, ...]], advantage: float) -> None:
        for x, legal, p, i in trace:
            grad = -p
            grad[i] += 1.0
            self.w[legal] += self.lr * advantage * np.outer(grad, x)


def features(obs: dict[str, Any]) -> np.ndarray:
    return np.append(obs["observation"].astype(np.float64), 1.0)


def run_episode(env: PitchEnv, seed: int, choose: Callable[[dict[str, Any]], int]) -> float:
    obs, _ = env.reset(seed=seed)
    total, done = 0.0, False
    while not done:
        obs, reward, terminated, truncated, _ = env.step(choose(obs))
        total += reward
        done = terminated or truncated
    return total


def reference(env: PitchEnv, episodes: int, seed: int, kind: str) -> float:
    """Mean reward per hand of a uniformly random player or of the heuristic bot in seat 0."""
    rng = np.random.default_rng(seed)
    bot = make_bot("heuristic", seed)

    def choose(obs: dict[str, Any]) -> int:
        if kind == "random":
            return int(rng.choice(np.flatnonzero(obs["action_mask"])))
        return int(bot.choose(env.table.view(env.seat)))

    return float(np.mean([run_episode(env, seed + k, choose) for k in range(episodes)]))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--episodes", type=int, default=10000, help="training hands (default 10000)")
    ap.add_argument("--window", type=int, default=200, help="moving-average window (default 200)")
    ap.add_argument("--reference", type=int, default=1000,
                    help="hands to measure each reference line (default 1000)")
    ap.add_argument("--lr", type=float, default=0.01, help="learning rate (default 0.01)")
    ap.add_argument("--opponents", default="heuristic", help="bot for the other seats")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="learning_curve.png", help="PNG to write")
    args = ap.parse_args(argv)

    env = PitchEnv(variant="auction-partners", seat=0, opponents=args.opponents, episode="hand",
                   reward="points")
    rng = np.random.default_rng(args.seed)
    n_features = env.observation_space["observation"].shape[0]  # type: ignore[index]
    policy = LinearPolicy(n_features, int(env.action_space.n), args.lr, rng)
    start = time.perf_counter()
    returns: list[float] = []
    baseline = 0.0
    for episode in range(args.episodes):
        trace: list[tuple[Any, ...]] = []

        def choose(obs: dict[str, Any], trace: list[tuple[Any, ...]] = trace) -> int:
            action, step = policy.act(features(obs), obs["action_mask"])
            trace.append(step)
            return action

        ret = run_episode(env, 10**6 + episode, choose)
        policy.update(trace, ret - baseline)
        baseline += 0.02 * (ret - baseline)
        returns.append(ret)
    train_time = time.perf_counter() - start
    ref_random = reference(env, args.reference, 10**7, "random")
    ref_heuristic = reference(env, args.reference, 10**7, "heuristic")
    w = min(args.window, len(returns))
    curve = np.convolve(returns, np.ones(w) / w, mode="valid")
    print(f"{args.episodes} hands in {train_time:.1f} s; mean reward per hand: first {w} "
          f"{np.mean(returns[:w]):+.3f}, last {w} {np.mean(returns[-w:]):+.3f}; references "
          f"(same hands): random {ref_random:+.3f}, heuristic {ref_heuristic:+.3f}")

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(np.arange(w, len(returns) + 1), curve, label=f"linear policy ({w}-hand average)")
    ax.axhline(ref_random, color="grey", linestyle=":", label="uniform random in seat 0")
    ax.axhline(ref_heuristic, color="green", linestyle="--", label="heuristic bot in seat 0")
    ax.set_xlabel("training hands")
    ax.set_ylabel("reward per hand (side's points)")
    ax.set_title(f"Pitch (auction-partners): REINFORCE, linear, vs {args.opponents}")
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(args.out, dpi=100)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
