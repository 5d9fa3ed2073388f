"""The Gymnasium adapter: the env checker, seeding, rewards, illegal actions, the example."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

gymnasium = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from pitchcards.envs.gymnasium import PitchEnv  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("kwargs", [
    {},
    {"variant": "auction", "players": 3, "seat": 1, "opponents": ["random", "heuristic"]},
    {"variant": "money", "players": 5, "max_hands": 2, "opponents": "random"},
    {"variant": "setback", "episode": "hand", "reward": "points", "opponents": "easy"},
])
def test_gymnasium_check_env(kwargs: dict[str, object]) -> None:
    check_env(PitchEnv(**kwargs), skip_render_check=True)


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_registered_with_gymnasium_make() -> None:
    e = gymnasium.make("pitchcards/Pitch-v0", opponents="random")
    check_env(e.unwrapped, skip_render_check=True)
    obs, info = e.reset(seed=0)
    assert np.array_equal(obs["action_mask"], info["action_mask"])


def _episode(e: PitchEnv, seed: int) -> tuple[float, list[int]]:
    obs, _ = e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total, actions, done = 0.0, [], False
    while not done:
        a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        actions.append(a)
        obs, reward, term, trunc, info = e.step(a)
        assert "illegal" not in info
        total += reward
        done = term or trunc
    return total, actions


def test_points_reward_is_the_seats_final_score_and_seeds_reproduce() -> None:
    e = PitchEnv(seat=1)
    total, actions = _episode(e, 5)
    match = e.table.match
    assert match is not None and match.winner is not None
    assert total == match.scores[1]
    assert _episode(PitchEnv(seat=1), 5) == (total, actions)


def test_illegal_actions_are_replaced_or_raise() -> None:
    e = PitchEnv(illegal_penalty=-1.0)
    obs, _ = e.reset(seed=2)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, _, _, info = e.step(illegal)
    assert info["illegal"] is True and reward <= -1.0 + 4  # the penalty, plus at most a hand
    e = PitchEnv(illegal="raise")
    obs, _ = e.reset(seed=2)
    with pytest.raises(ValueError, match="not legal"):
        e.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        PitchEnv(opponents="nobody")
    with pytest.raises(ValueError, match="seat"):
        PitchEnv(seat=4)
    with pytest.raises(ValueError, match="opponents"):
        PitchEnv(opponents=["random"])


def test_train_linear_example_runs(tmp_path: Path) -> None:
    out = tmp_path / "curve.png"
    run = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "train_linear.py"), "--episodes", "60",
         "--window", "20", "--reference", "10", "--out", str(out)],
        capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stderr
    assert "60 hands" in run.stdout
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
