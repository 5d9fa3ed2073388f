"""The Gymnasium adapter: the env checker, seeding, rewards, masks, results, illegal actions,
evaluation, the example."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

gymnasium = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from pitchcards.actions import action_count  # noqa: E402
from pitchcards.envs.evaluate import Evaluation, evaluate  # noqa: E402
from pitchcards.envs.gymnasium import PitchEnv  # noqa: E402
from pitchcards.errors import IllegalActionError  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


VARIANTS: list[dict[str, object]] = [
    {},
    {"variant": "auction", "players": 3, "seat": 1, "opponents": ["random", "heuristic"]},
    {"variant": "money", "players": 5, "max_hands": 2, "opponents": "random"},
    {"variant": "setback", "episode": "hand", "reward": "points", "opponents": "easy"},
    {"reward": "win", "opponents": "random"},
    {"variant": "auction", "players": 3, "illegal": "random", "opponents": "random"},
    {"variant": "ten-point", "max_hands": 2, "opponents": "random"},  # 54 cards, 176 actions
    {"variant": "ten-point-cutthroat", "players": 6, "seat": 5, "episode": "hand",
     "opponents": "random"},
    # Three teams of two (TT1): six seats, three sides in the observation, the same actions.
    {"variant": "three-teams", "seat": 4, "max_hands": 2, "opponents": "heuristic"},
]


# No warning at all: the render check is skipped only because a directly built env has no spec
# (Gymnasium warns about that, not about the env).
@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("kwargs", VARIANTS)
def test_gymnasium_check_env(kwargs: dict[str, object]) -> None:
    check_env(PitchEnv(**kwargs), skip_render_check=True)


def test_metadata_has_render_fps() -> None:
    assert PitchEnv.metadata["render_fps"] > 0


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


def test_zero_sum_reward_is_the_score_difference_plus_the_win_bonus() -> None:
    e = PitchEnv(seat=1)
    total, _ = _episode(e, 5)
    match = e.table.match
    assert match is not None and match.winner is not None
    bonus = 1.0 if match.winner == 1 else -1.0
    assert total == pytest.approx(match.scores[1] - match.scores[0] + bonus)


def test_zero_sum_reward_with_three_sides_subtracts_the_others_mean() -> None:
    e = PitchEnv(variant="auction", players=3, seat=2, opponents="heuristic", max_hands=8)
    total, _ = _episode(e, 6)
    match = e.table.match
    assert match is not None
    s = match.scores
    bonus = 0.0 if match.winner is None else 1.0 if match.winner == 2 else -0.5
    assert total == pytest.approx(s[2] - (s[0] + s[1]) / 2 + bonus)


# Changed with issue 17: "points" is no longer the default reward, so this test asks for it.
def test_points_reward_is_the_seats_final_score_and_seeds_reproduce() -> None:
    e = PitchEnv(seat=1, reward="points")
    total, actions = _episode(e, 5)
    match = e.table.match
    assert match is not None and match.winner is not None
    assert total == match.scores[1]
    assert _episode(PitchEnv(seat=1, reward="points"), 5) == (total, actions)


@pytest.mark.parametrize("kwargs", [
    {},
    {"variant": "auction", "players": 3, "seat": 1, "opponents": "random"},
    {"variant": "setback", "opponents": "easy", "episode": "hand"},
    {"variant": "ten-point", "opponents": "random", "episode": "hand"},
    {"variant": "ten-point-cutthroat", "players": 3, "seat": 2, "opponents": "random",
     "max_hands": 2},
])
def test_action_masks_are_the_engines_legal_actions_at_every_step(
        kwargs: dict[str, object]) -> None:
    e = PitchEnv(**kwargs)  # type: ignore[arg-type]
    for seed in range(3):
        obs, info = e.reset(seed=seed)
        done, steps = False, 0
        while not done:
            view = e.table.view(e.seat)
            legal = sorted(int(a) for a in view.legal_actions)
            mask = e.action_masks()
            assert mask.dtype == np.bool_ and mask.shape == (e.action_space.n,)
            assert e.action_space.n == action_count(e.table.rules)  # 110, or 176 in ten-point
            assert list(np.flatnonzero(mask)) == legal
            assert np.array_equal(obs["action_mask"].astype(bool), mask)
            assert np.array_equal(info["action_mask"], obs["action_mask"])
            last = mask
            obs, _, term, trunc, info = e.step(legal[(seed + steps) % len(legal)])
            done, steps = term or trunc, steps + 1
        # after the end, the mask stays the last decision's (never empty)
        assert np.array_equal(e.action_masks(), last) and last.any()
        assert np.array_equal(obs["action_mask"].astype(bool), last)


def test_info_carries_the_results_at_the_end_only() -> None:
    e = PitchEnv(opponents="random")
    obs, info = e.reset(seed=3)
    assert "result" not in info
    done = False
    while not done:
        obs, _, term, trunc, info = e.step(int(np.flatnonzero(obs["action_mask"])[0]))
        done = term or trunc
        assert ("result" in info) == done
    match = e.table.match
    assert match is not None
    result = info["result"]
    assert set(result) == {"winner", "hands", "scores", "made", "set", "terminated",
                           "truncated"}
    assert result["winner"] == match.winner is not None
    assert result["hands"] == len(match.results) > 0
    assert result["scores"] == list(match.scores)
    assert result["terminated"] is True and result["truncated"] is False
    assert len(result["made"]) == len(result["set"]) == 2
    contracts = [r for r in match.results if r.bid not in (None, 0) and not r.thrown_in]
    assert sum(result["made"]) == sum(r.made for r in contracts)
    assert sum(result["made"]) + sum(result["set"]) == len(contracts)


def test_truncated_episode_reports_it() -> None:
    e = PitchEnv(opponents="random", max_hands=1)
    obs, _ = e.reset(seed=1)
    done, info = False, {}
    while not done:
        obs, _, term, trunc, info = e.step(int(np.flatnonzero(obs["action_mask"])[0]))
        done = term or trunc
    assert trunc and info["result"]["truncated"] and info["result"]["hands"] == 1
    assert info["result"]["winner"] is None


def test_illegal_action_default_refuses_with_a_penalty() -> None:
    e = PitchEnv()
    obs, _ = e.reset(seed=2)
    before = e.table.view(0)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs2, reward, term, trunc, info = e.step(illegal)
    assert reward == -1.0 and not term and not trunc
    assert isinstance(info["illegal"], str) and info["illegal"]
    assert np.array_equal(obs["observation"], obs2["observation"])
    assert np.array_equal(obs["action_mask"], obs2["action_mask"])
    assert e.table.view(0).legal_actions == before.legal_actions
    legal = int(np.flatnonzero(obs2["action_mask"])[0])
    e.step(legal)  # the game goes on from where it was


def test_illegal_action_raise_and_random_options() -> None:
    e = PitchEnv(illegal="raise")
    obs, _ = e.reset(seed=2)
    with pytest.raises(IllegalActionError) as caught:
        e.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert caught.value.reason
    assert isinstance(caught.value, ValueError)
    e = PitchEnv(illegal="random", illegal_penalty=-1.0)
    obs, _ = e.reset(seed=2)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, _, _, info = e.step(illegal)
    assert isinstance(info["illegal"], str) and reward <= -1.0 + 6  # the penalty, plus a hand
    assert PitchEnv(illegal="random").illegal_penalty == 0.0


def test_evaluate_plays_seeded_matches_of_a_policy_against_a_bot() -> None:
    def first_legal(obs: dict[str, np.ndarray], mask: np.ndarray) -> int:
        return int(np.flatnonzero(mask)[0])

    result = evaluate(first_legal, opponents="random", matches=3, seed=7)
    assert isinstance(result, Evaluation)
    assert result.matches == 3 and 0 <= result.wins <= 3
    assert result.win_rate == result.wins / 3
    assert result.hands > 0
    assert evaluate(first_legal, opponents="random", matches=3, seed=7) == result
    bots = evaluate("heuristic", opponents="random", matches=2, seed=1)
    assert bots.matches == 2 and bots.hands > 0


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        PitchEnv(opponents="nobody")
    with pytest.raises(ValueError, match="seat"):
        PitchEnv(seat=4)
    with pytest.raises(ValueError, match="opponents"):
        PitchEnv(opponents=["random"])
    with pytest.raises(ValueError, match="illegal"):
        PitchEnv(illegal="ignore")
    with pytest.raises(ValueError, match="reward"):
        PitchEnv(reward="money")


def test_train_linear_example_runs(tmp_path: Path) -> None:
    out = tmp_path / "curve.png"
    run = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "train_linear.py"), "--episodes", "60",
         "--window", "20", "--reference", "10", "--out", str(out)],
        capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stderr
    assert "60 hands" in run.stdout
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
