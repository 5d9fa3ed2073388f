"""The Gymnasium environment as Stable-Baselines3 and sb3-contrib use it (issue 17): both env
checkers on every variant, MaskablePPO finding ``action_masks`` through Gymnasium's and SB3's
wrappers, masks, results and illegal actions seen through an SB3 vectorised env, the zero-sum
reward, the example, and torch kept out of ``pitchcards.envs``.

SB3 is the ``[sb3]`` extra, which ``scripts/test.sh`` (CI) installs; the tests that need it skip
only where it is absent.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

gymnasium = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

from gymnasium.utils.env_checker import check_env as gymnasium_check_env  # noqa: E402

from helpers import run_python  # noqa: E402
from pitchcards.envs.gymnasium import PitchEnv  # noqa: E402
from pitchcards.envs.table import Table  # noqa: E402
from pitchcards.errors import REASONS  # noqa: E402
from pitchcards.rules import VARIANTS  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
ENV_ID = "pitchcards/Pitch-v0"

# Every named variant at every table size it allows.
TABLES = [(name, n) for name, rules in VARIANTS.items()
          for n in range(rules.player_range[0], rules.player_range[1] + 1)]


def sb3() -> Any:
    """Stable-Baselines3 and sb3-contrib, or skip (they are the [sb3] extra)."""
    pytest.importorskip("sb3_contrib")
    return pytest.importorskip("stable_baselines3")


def legal_mask(env: PitchEnv) -> list[int]:
    """The engine's legal actions for the learning seat now (not through the adapter's mask)."""
    return sorted(int(a) for a in env.table.view(env.seat).legal_actions)


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("size", ["fewest", "most"])
def test_sb3_and_gymnasium_env_checkers_pass_on_every_variant(variant: str, size: str) -> None:
    sb3()
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    low, high = VARIANTS[variant].player_range
    kwargs: dict[str, Any] = {"players": low if size == "fewest" else high, "max_hands": 3,
                              "opponents": "random"}
    sb3_check_env(PitchEnv(variant, **kwargs), warn=True)
    sb3_check_env(PitchEnv(variant, render_mode="ansi", **kwargs), warn=True)
    # through gymnasium.make, so that its render check can remake the env from its spec
    gymnasium_check_env(gymnasium.make(ENV_ID, variant=variant, render_mode="ansi",
                                       **kwargs).unwrapped)


def test_maskable_ppo_finds_action_masks_through_gymnasium_make_and_sb3_wrappers() -> None:
    sb3()
    from gymnasium.wrappers import RecordEpisodeStatistics
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.env_util import make_vec_env

    # gymnasium.make: PassiveEnvChecker, OrderEnforcing, TimeLimit; then a user's wrapper
    wrapped = RecordEpisodeStatistics(gymnasium.make(ENV_ID, max_episode_steps=400))
    chain, inner = [], wrapped
    while isinstance(inner, gymnasium.Wrapper):
        chain.append(type(inner).__name__)
        inner = inner.env
    assert {"RecordEpisodeStatistics", "TimeLimit", "OrderEnforcing"} <= set(chain)
    wrapped.reset(seed=3)
    assert is_masking_supported(wrapped)
    assert np.flatnonzero(get_action_masks(wrapped)).tolist() == legal_mask(wrapped.unwrapped)

    # make_vec_env by id asks for render_mode="rgb_array": accepted with a warning, not refused
    with pytest.warns(UserWarning, match="render_mode='rgb_array'"):
        vec = make_vec_env(ENV_ID, n_envs=2, seed=3,
                           env_kwargs={"opponents": "heuristic", "max_episode_steps": 400})
    assert is_masking_supported(vec)

    class NoIllegalAction(BaseCallback):
        steps = 0

        def _on_step(self) -> bool:
            self.steps += 1
            assert not any("illegal" in info for info in self.locals["infos"])
            return True

    seen = NoIllegalAction()
    model = MaskablePPO("MultiInputPolicy", vec, n_steps=64, batch_size=64, n_epochs=1, seed=3,
                        device="cpu")
    model.learn(256, callback=seen)
    assert seen.steps == 128  # two envs: 256 learner decisions, every one legal


@pytest.mark.parametrize("kwargs", [
    {},
    {"variant": "auction", "players": 5, "seat": 2, "opponents": "random", "max_hands": 6},
    {"variant": "money", "players": 3, "opponents": "easy", "max_hands": 3},
    {"variant": "setback", "episode": "hand", "reward": "points", "opponents": "random"},
    {"variant": "ten-point", "episode": "hand", "opponents": "random"},  # 176 actions
])
def test_action_masks_in_an_sb3_vec_env_are_the_engines_legal_actions_at_every_step(
        kwargs: dict[str, Any]) -> None:
    sb3()
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.env_util import make_vec_env

    vec = make_vec_env(PitchEnv, n_envs=2, seed=11, env_kwargs=kwargs)
    envs: list[PitchEnv] = [e.unwrapped for e in vec.envs]
    vec.reset()
    rng = random.Random(11)
    episodes = 0
    for _ in range(400):
        masks = get_action_masks(vec)
        assert masks.dtype == np.bool_ and masks.shape == (2, envs[0].action_space.n)
        assert envs[0].action_space.n == (110 if kwargs.get("variant") != "ten-point" else 176)
        for mask, env in zip(masks, envs, strict=True):
            assert np.flatnonzero(mask).tolist() == legal_mask(env)
        _, _, dones, _ = vec.step(np.array([rng.choice(legal_mask(e)) for e in envs]))
        episodes += int(dones.sum())  # finished episodes reset: the next masks are new deals'
    assert episodes > 0


def test_results_in_an_sb3_vec_envs_info_at_the_end_add_up_to_the_episode_return() -> None:
    sb3()
    from stable_baselines3.common.env_util import make_vec_env

    vec = make_vec_env(PitchEnv, n_envs=1, seed=5,
                       env_kwargs={"opponents": "heuristic", "max_hands": 12})
    env: PitchEnv = vec.envs[0].unwrapped
    vec.reset()
    rng = random.Random(5)
    ended: list[dict[str, Any]] = []
    while len(ended) < 6:
        _, _, dones, infos = vec.step(np.array([rng.choice(legal_mask(env))]))
        assert ("result" in infos[0]) == bool(dones[0])
        if dones[0]:
            ended.append(infos[0])
    for info in ended:
        result = info["result"]
        assert set(result) == {"winner", "hands", "scores", "made", "set", "terminated",
                               "truncated"}
        assert result["terminated"] != result["truncated"]
        assert (result["winner"] is None) == result["truncated"]
        assert result["hands"] == 12 if result["truncated"] else 0 < result["hands"] <= 12
        assert sum(result["made"]) + sum(result["set"]) <= result["hands"]
        # SB3 bootstraps a truncated episode's value from this key
        assert info["TimeLimit.truncated"] == result["truncated"]
        # Monitor's episode return (the default zero-sum reward) is the score margin, ±1
        mine, theirs = result["scores"]
        bonus = 0.0 if result["winner"] is None else 1.0 if result["winner"] == 0 else -1.0
        assert info["episode"]["r"] == pytest.approx(mine - theirs + bonus, abs=1e-5)
        assert "terminal_observation" in info
    assert {info["result"]["truncated"] for info in ended} == {False, True}  # seen both ends


@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_zero_sum_rewards_sum_to_zero_across_sides_every_hand(variant: str,
                                                              players: int) -> None:
    table = Table(variant, players, max_hands=12)
    rng = random.Random(players)
    for seed in range(2):
        table.reset(seed)
        hands = nonzero = 0
        match = table.match
        assert match is not None
        while not table.done:
            seat = table.seat_to_act
            assert seat is not None
            before = len(match.results)
            rewards = table.step(rng.choice(table.view(seat).legal_actions))
            side_of = table.hand.side_of
            for s in range(players):  # partners share their side's reward
                assert rewards[s] == rewards[side_of(s)]
            assert sum(rewards[side] for side in range(table.sides)) == pytest.approx(0.0)
            if len(match.results) == before:
                assert rewards == [0.0] * players  # paid only when a hand ends
            else:
                hands += 1
                nonzero += any(rewards)
        assert hands == table.results()["hands"] > 0 and nonzero > 0


def test_the_illegal_action_default_refuses_through_an_sb3_vec_env() -> None:
    sb3()
    from stable_baselines3.common.env_util import make_vec_env

    vec = make_vec_env(PitchEnv, n_envs=1, seed=2)
    env: PitchEnv = vec.envs[0].unwrapped
    obs = vec.reset()
    legal = legal_mask(env)
    illegal = next(a for a in range(110) if a not in legal)
    obs2, rewards, dones, infos = vec.step(np.array([illegal]))
    assert rewards[0] == -1.0 and not dones[0]
    assert infos[0]["illegal"] in REASONS  # the engine's reason
    assert legal_mask(env) == legal  # nothing was played
    for key in obs:
        assert np.array_equal(obs[key], obs2[key])


def test_importing_the_research_adapters_imports_no_torch_or_sb3() -> None:
    code = ("import sys\n"
            "import pitchcards.envs, pitchcards.envs.gymnasium, pitchcards.envs.evaluate\n"
            "import pitchcards.envs.pettingzoo\n"
            "bad = [m for m in ('torch', 'stable_baselines3', 'sb3_contrib') if m in sys.modules]\n"
            "assert not bad, bad\n")
    run = run_python(code)
    assert run.returncode == 0, run.stderr


ROW = re.compile(r"^\| (random|heuristic|expert) \| (\d+) \| ([\d.]+) \| ([-+][\d.]+) \| "
                 r"([\d.]+) \| ([-+][\d.]+) \|$", re.MULTILINE)


def test_maskable_ppo_example_smoke_run() -> None:
    sb3()
    run = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "sb3_maskable_ppo.py"), "--steps", "2048",
         "--envs", "2", "--eval-matches", "2", "--expert-matches", "1", "--seed", "1"],
        capture_output=True, text=True, timeout=240, check=False)
    assert run.returncode == 0, run.stderr
    assert "MaskablePPO: 2048 steps against heuristic" in run.stdout
    rows = {m[0]: m[1:] for m in ROW.findall(run.stdout)}
    assert list(rows) == ["random", "heuristic", "expert"]
    assert [int(rows[level][0]) for level in rows] == [2, 2, 1]
    for _, ppo_win, _, base_win, _ in rows.values():
        assert 0 <= float(ppo_win) <= 100 and 0 <= float(base_win) <= 100
