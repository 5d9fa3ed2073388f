"""Every mode of ``benchmarks/bench_expert.py`` runs, at its smallest, and prints its table (the
figures themselves are measured by hand: docs/bots.md; the machine is shared, no clock here)."""

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
