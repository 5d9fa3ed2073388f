"""RLlib's multi-agent PPO on the PettingZoo environment: two teams learning by self-play.

    python examples/rllib_multiagent.py                       # 5 iterations
    python examples/rllib_multiagent.py --iterations 2 --batch 256   # a smoke run
    python examples/rllib_multiagent.py --cluster HEAD_IP:6379 --runners 8

Needs ``pip install -e '.[rl,cluster]' 'ray[rllib]' torch==2.13.0`` (RLlib trains with torch; on
this machine torch 2.13.0 is the CPU build on disk; RLlib brings pandas, pyarrow and scipy).
None of that is in the test lock: ``tests/test_arena_cluster.py`` runs this example only where
RLlib and torch are installed, and skips it, saying so, elsewhere.

``auction-partners``, one hand per episode (``episode="hand"``), the environment's default
zero-sum reward (the side's points minus the other side's).  Seats 0 and 2 are agents of the
policy ``team_0``, seats 1 and 3 of ``team_1``: RLlib's multi-agent API with a policy per team,
both learning, each against the other.  Pitch is turn-based, so the environment is RLlib's
``MultiAgentEnv`` in the way RLlib's own PettingZoo wrapper does it: each step returns the
observation of the agent to act next only, every seat's reward of the step, and at the hand's
end every seat's last observation.  Illegal actions are masked: the observation is a dict of
``"observations"`` (the seat's encoded view) and ``"action_mask"`` (its legal actions), read by
RLlib's ``ActionMaskingTorchRLModule``.  After each iteration it prints each team's mean return
per hand; with ``--cluster`` the environment runners are spread over a Ray cluster.
"""

from __future__ import annotations

import argparse
import logging
import time
from typing import Any

import gymnasium as gym
import numpy as np
import ray
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.env.multi_agent_env import MultiAgentEnv
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import (
    ActionMaskingTorchRLModule,
)

from pitchcards.envs.pettingzoo import raw_env

VARIANT = "auction-partners"


class PitchMultiAgentEnv(MultiAgentEnv):  # type: ignore[misc]
    """:class:`pitchcards.envs.pettingzoo.raw_env` as an RLlib ``MultiAgentEnv`` (turn-based)."""

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        super().__init__()
        config = config or {}
        self.aec = raw_env(variant=config.get("variant", VARIANT), episode="hand")
        self.agents = self.possible_agents = list(self.aec.possible_agents)
        first = self.agents[0]
        actions = self.aec.action_space(first)
        space = gym.spaces.Dict({
            "observations": self.aec.observation_space(first)["observation"],
            "action_mask": gym.spaces.Box(0.0, 1.0, (actions.n,), np.float32)})
        self.observation_spaces = dict.fromkeys(self.agents, space)
        self.action_spaces = dict.fromkeys(self.agents, actions)

    def _observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        seen = self.aec.observe(agent)
        return {"observations": seen["observation"],
                "action_mask": seen["action_mask"].astype(np.float32)}

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        self.aec.reset(seed=seed)
        agent = self.aec.agent_selection
        return {agent: self._observe(agent)}, {}

    def step(self, action_dict: dict[str, int]) -> tuple[dict[str, Any], ...]:
        self.aec.step(int(action_dict[self.aec.agent_selection]))
        rewards = {a: float(r) for a, r in self.aec.rewards.items()}
        if all(self.aec.terminations.values()) or all(self.aec.truncations.values()):
            obs = {a: self._observe(a) for a in self.agents}  # every seat's last observation
            truncated = all(self.aec.truncations.values())
            return (obs, rewards, {**dict.fromkeys(self.agents, not truncated),
                                   "__all__": not truncated},
                    {**dict.fromkeys(self.agents, truncated), "__all__": truncated},
                    {a: {} for a in self.agents})
        agent = self.aec.agent_selection
        return ({agent: self._observe(agent)}, rewards, {"__all__": False}, {"__all__": False},
                {})


def team_of(agent_id: str, *_: Any, **__: Any) -> str:
    """Seats 0 and 2 are ``team_0``, 1 and 3 ``team_1`` (partners share a policy)."""
    return f"team_{int(agent_id.rsplit('_', 1)[1]) % 2}"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--iterations", type=int, default=5)
    ap.add_argument("--batch", type=int, default=1000, help="environment steps per iteration")
    ap.add_argument("--runners", type=int, default=1, help="environment runners (processes)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cluster", default=None, metavar="ADDRESS",
                    help="a running Ray cluster (HOST:PORT or ray://HOST:PORT); default: one "
                         "started here for the run")
    a = ap.parse_args(argv)
    ray.init(address=a.cluster, logging_level=logging.WARNING, log_to_driver=False,
             include_dashboard=False if a.cluster is None else None)
    module = RLModuleSpec(module_class=ActionMaskingTorchRLModule,
                          model_config={"fcnet_hiddens": [128, 128]})
    config = (
        PPOConfig()
        # RLlib's env check steps with unmasked random actions: illegal in Pitch, so off.
        .environment(PitchMultiAgentEnv, env_config={"variant": VARIANT},
                     disable_env_checking=True)
        .env_runners(num_env_runners=a.runners, num_envs_per_env_runner=1)
        .multi_agent(policies={"team_0", "team_1"}, policy_mapping_fn=team_of)
        .rl_module(rl_module_spec=MultiRLModuleSpec(
            rl_module_specs={"team_0": module, "team_1": module}))
        .training(train_batch_size_per_learner=a.batch, minibatch_size=min(a.batch, 256),
                  num_epochs=2, lr=3e-4)
        .debugging(seed=a.seed)
    )
    algo = config.build_algo()
    try:
        for i in range(1, a.iterations + 1):
            t = time.perf_counter()
            result = algo.train()
            runners = result.get("env_runners", {})
            returns = runners.get("module_episode_returns_mean", {})
            print(f"iteration {i}: {runners.get('num_episodes', 0)} hands, mean return per "
                  f"hand: " + ", ".join(f"{m} {returns.get(m, float('nan')):+.2f}"
                                        for m in ("team_0", "team_1"))
                  + f"  ({time.perf_counter() - t:.1f} s)", flush=True)
    finally:
        algo.stop()
        ray.shutdown()


if __name__ == "__main__":
    main()
