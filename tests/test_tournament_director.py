"""``pitch tournament``: whole events between bots, from the seed alone."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from pitchcards.cli import main
from pitchcards.tournament import TournamentError
from pitchcards.tournament.director import bot_entrants, run_tournament
from pitchcards.tournament.scoring import Standing


def _run(fmt: str, **options: object) -> tuple[list[Standing], str]:
    out = io.StringIO()
    settings: dict[str, object] = {"entrants": 4, "bots": ["heuristic", "random"],
                                   "rounds": None, "boards": 1, "seed": 5,
                                   "variant": "auction-partners"}
    settings.update(options)
    standings = run_tournament(fmt, out=out, **settings)  # type: ignore[arg-type]
    return standings, out.getvalue()


def test_a_duplicate_event_prints_the_barometer_and_replays_from_its_seed() -> None:
    standings, text = _run("duplicate")
    assert "after round 1:" in text and "after round 2:" in text
    assert [s.entrant for s in standings] == [s.entrant for s in _run("duplicate")[0]]
    assert _run("duplicate")[1] == text
    assert sorted(s.entrant for s in standings) == sorted(bot_entrants(4, ["heuristic",
                                                                           "random"]))
    # Two tables, two boards, two directions: 1 matchpoint a field and board.
    assert sum(s.score for s in standings) == 2 * 2 * Fraction(1)
    assert _run("duplicate", seed=6)[1] != text


def test_a_cutthroat_duplicate_uses_the_individual_movement() -> None:
    standings, text = _run("duplicate", entrants=8, variant="auction", cutthroat=True,
                           rounds=2)
    assert "duplicate (individual)" in text and len(standings) == 8
    assert sum(s.score for s in standings) == 2 * 4 * Fraction(1)  # 2 boards, 4 seats


@pytest.mark.parametrize(("fmt", "options"), [
    ("swiss", {"entrants": 5, "rounds": 3}),
    ("swiss", {"entrants": 7, "rounds": 2, "cutthroat": True, "variant": "auction"}),
    ("progressive", {"entrants": 9, "rounds": 2}),
])
def test_swiss_and_progressive_events_rank_everyone(fmt: str, options: dict[str, object]
                                                    ) -> None:
    standings, text = _run(fmt, **options)
    assert "standings:" in text
    assert len(standings) == options["entrants"]
    assert [s.rank for s in standings] == sorted(s.rank for s in standings)
    assert _run(fmt, **options)[1] == text


@pytest.mark.parametrize(("argv", "message"), [
    (["tournament", "swiss", "--variant", "auction"], "partnership variant"),
    (["tournament", "duplicate", "--entrants", "5"], "2 per table"),
    (["tournament", "duplicate", "--bots", "oracle"], "sees every card"),
    (["tournament", "duplicate", "--bots", "nobody"], "unknown bot"),
])
def test_the_command_refuses_what_cannot_be_played(argv: list[str], message: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_the_examples_of_docs_tournaments_run(capsys: pytest.CaptureFixture[str]) -> None:
    doc = (Path(__file__).resolve().parent.parent / "docs" / "tournaments.md").read_text("utf-8")
    blocks = re.findall(r"```python\n(.*?)```", doc, re.S)
    assert len(blocks) == 3
    for block in blocks:
        exec(compile(block, "docs/tournaments.md", "exec"), {})
    printed = capsys.readouterr().out
    assert "%" in printed and "latecomer" in printed


def test_the_tournament_benchmark_prints_its_table() -> None:
    """``benchmarks/bench_tournament.py`` at its smallest (the figures: docs/tournaments.md)."""
    script = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_tournament.py"
    out = subprocess.run([sys.executable, str(script), "--tables", "2", "--rounds", "2"],
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    for text in ("| step", "Swiss pairs, 4 pairs", "Swiss cutthroat, 8 players",
                 "progressive, 8 players", "duplicate, 2 tables"):
        assert text in out.stdout, out.stdout


def test_an_unknown_format_is_refused_before_anything_is_played() -> None:
    with pytest.raises(TournamentError, match="unknown format 'knockout'") as err:
        _run("knockout", variant="auction")
    assert err.value.legal == ("duplicate", "swiss", "progressive")
