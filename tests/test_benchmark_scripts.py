"""Every mode of ``benchmarks/bench_expert.py``, and ``calibrate_bids.py``, runs at its smallest
and prints its table (the figures themselves are measured by hand: docs/bots.md; the machine is
shared, no clock here)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCH_EXPERT = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_expert.py"
#: (arguments, text the output must hold): the cheapest run of each mode
MODES = [
    (["speed", "--bot", "hard", "--hands", "1"], "median"),
    (["worlds", "--hands", "1", "--variant", "ten-point"], "redealt / replayed"),
    (["hands", "--bot", "hard", "--vs", "heuristic", "--deals", "1"], "margin/hand"),
    (["games", "--bot", "heuristic", "--vs", "random", "--games", "1"], "won"),
    (["arena", "--bot", "heuristic", "--vs", "random", "--variant", "ten-point",
      "--games", "1", "--hands-per-game", "1"], "win%"),
]


@pytest.mark.parametrize("args,expected", MODES, ids=[m[0][0] for m in MODES])
def test_bench_expert_mode_runs(args: list[str], expected: str) -> None:
    out = subprocess.run([sys.executable, str(BENCH_EXPERT), *args],
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    assert expected in out.stdout, out.stdout


def test_calibrate_bids_prints_its_table_and_fit() -> None:
    """``benchmarks/calibrate_bids.py`` at its smallest: the residuals by level and the fit."""
    script = BENCH_EXPERT.with_name("calibrate_bids.py")
    for extra in ([], ["--vs", "heuristic"], ["--vs", "heuristic", "--variant", "auction"]):
        out = subprocess.run([sys.executable, str(script), "--bot", "hard", "--deals", "4", *extra],
                             capture_output=True, text=True, timeout=600)
        assert out.returncode == 0, out.stderr[-2000:]
        assert "| level chosen |" in out.stdout and "bias per level bid" in out.stdout, out.stdout
        assert ("against heuristic" in out.stdout) == bool(extra), out.stdout
        variant = "auction (4 players)" if "auction" in extra else "auction-partners (4 players)"
        assert variant in out.stdout, out.stdout


def test_build_match_odds_calibrate_compares_the_formula_and_the_odds() -> None:
    """``build_match_odds.py calibrate`` at its smallest, in cutthroat: every score, the
    winner's log loss and the table by lead."""
    script = BENCH_EXPERT.with_name("build_match_odds.py")
    out = subprocess.run([sys.executable, str(script), "calibrate", "--only", "auction/4",
                          "--matches", "3"], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    for text in ("auction/4 (heuristic, ", "winner log loss", "by lead over the best other",
                 "table - formula Brier"):
        assert text in out.stdout, out.stdout
    assert "table+dealer" not in out.stdout  # a cutthroat table does not use the dealer


def test_calibrate_bids_refuses_a_bot_without_estimates() -> None:
    script = BENCH_EXPERT.with_name("calibrate_bids.py")
    out = subprocess.run([sys.executable, str(script), "--bot", "heuristic", "--deals", "1"],
                         capture_output=True, text=True, timeout=600)
    assert out.returncode != 0 and "not a search bot" in out.stderr + out.stdout


def test_bench_analysis_prints_its_tables() -> None:
    """``benchmarks/bench_analysis.py`` at its smallest (one match, two deals a decision, no
    search bot at the table): the loss per bot and the cost per decision."""
    script = BENCH_EXPERT.with_name("bench_analysis.py")
    out = subprocess.run([sys.executable, str(script), "--matches", "1", "--budget", "2",
                          "--target", "3", "--bots", "random,easy,medium,medium"],
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    for text in ("In points of net score", "loss/choice", "blunders", "random ",
                 "labelled [95 % CI]", "for the match not counted", "In chance to win the match",
                 "auction choices", "CPU ms per decision", "CPU s per match"):
        assert text in out.stdout, out.stdout


def test_bench_envs_prints_our_envs_beside_openspiel_and_both_builds() -> None:
    """``benchmarks/bench_envs.py`` at its smallest: every row, the ratio to OpenSpiel where it
    is installed, and ``--builds`` (each build in its own subprocess, through bench_engine's
    ``json_of_a_run``)."""
    script = BENCH_EXPERT.with_name("bench_envs.py")
    out = subprocess.run([sys.executable, str(script), "--seconds", "0.1", "--repeats", "1",
                          "--builds"], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    for text in ("PettingZoo env() (wrapped)", "PettingZoo raw_env", "Gymnasium PitchEnv",
                 "compiled and pure builds", "/ OpenSpiel"):
        assert text in out.stdout, out.stdout


def test_bench_analysis_finishes_a_stopped_run_with_first_and_load(tmp_path: Path) -> None:
    """A run stopped early is finished with ``--first`` (the matches it lacks, each seeded by
    its number) and the two saves printed together give the whole run's tables."""
    script = BENCH_EXPERT.with_name("bench_analysis.py")
    small = ["--budget", "2", "--target", "3", "--bots", "random,easy,medium,medium"]

    def run(*args: str) -> str:
        out = subprocess.run([sys.executable, str(script), *small, *args], capture_output=True,
                             text=True, timeout=600)
        assert out.returncode == 0, out.stderr[-2000:]
        return out.stdout

    whole = run("--matches", "2")
    run("--matches", "1", "--save", str(tmp_path / "a.pkl"))
    assert run("--first", "1", "--matches", "2", "--save", str(tmp_path / "b.pkl")) \
        .startswith("# 1 matches")
    joined = run("--load", str(tmp_path / "a.pkl"), "--load", str(tmp_path / "b.pkl"))
    assert joined.startswith("# 2 matches")
    assert joined.split("analysis cost")[0] == whole.split("analysis cost")[0]
