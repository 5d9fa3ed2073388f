"""Fuzzing the edges that take text from strangers: the record reader and the command line.

Random and mutated records (the golden records of tests/golden with lines dropped, repeated,
swapped, truncated, inserted, or tokens replaced by hostile values) go through ``read_record``
and ``replay``; random ``--option NAME=VALUE``, ``--bots`` and numbers go through ``pitch play``
and ``pitch arena`` up to the point where a game would start.  Nothing may raise anything but
the documented errors (the ``PitchError`` family; argparse's exit code 2), and no example may
hang (pytest-timeout).  No hypothesis ``deadline``: a limit in milliseconds fails on a loaded
machine, not on slow code (issue 27); the reader's linear time is counted in
test_robustness_faces.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pitchcards as pc
from helpers import mutate_record
from pitchcards import cli
from pitchcards.notation import RecordError, read_record, replay, write_record

pytestmark = pytest.mark.timeout(900)  # only a hang takes this long

GOLDEN = Path(__file__).resolve().parent / "golden"
_V1 = {p.stem: p.read_text(encoding="utf-8") for p in sorted(GOLDEN.glob("*.txt"))}
_V2 = {name: write_record(replay(read_record(text))) for name, text in _V1.items()}
BASES = {**{f"{k} v1": v for k, v in _V1.items()}, **{f"{k} v2": v for k, v in _V2.items()}}

#: Values a hostile record or command line might hold.
HOSTILE = ["1e99999999999", "1e10000000", "9" * 60, "-" + "9" * 45, "0", "-1", "+0", "1/0",
           "0/0", "nan", "inf", "-inf", "1e-99999", "0x10", "1_000", "٣", "²", "", " ", "none",
           "true", "moon", "\x00", "\u202e", "'", '"', '"unterminated', "#", "\\", "é" * 300,
           "x" * 5000, "AS", "10S", "♠", "bid", "pass", "end", "hand", "seat", "-", ",", "1.5",
           "0.1", "1/3", "-2/15"]
KEYWORDS = ["hand 1 dealer 0", "deal 0 AS KS QS JS TS 9S", "0 play AS", "1 bid 2", "2 pass",
            "result thrown in", "total 0 0 0 0", "winner 0", "join Zed", "leave Ann", "settle",
            "payout Ann 1/2", "seats Ann Bob", "option target 5", "option low_to holder",
            "names A B C D", "bot A easy", "practice true", "end 3 0123456789abcdef",
            "pitchcards-record 2", "seed 1", "scores 1 2"]

token = st.one_of(st.sampled_from(HOSTILE), st.text(max_size=12), st.integers().map(str))
edit = st.one_of(
    st.tuples(st.just("drop"), st.integers(0, 10**6), st.just("")),
    st.tuples(st.just("dup"), st.integers(0, 10**6), st.just("")),
    st.tuples(st.just("swap"), st.integers(0, 10**6), st.integers(0, 10**6).map(str)),
    st.tuples(st.just("token"), st.integers(0, 10**6), token),
    st.tuples(st.just("insert"), st.integers(0, 10**6),
              st.one_of(st.sampled_from(KEYWORDS), st.lists(token, max_size=4).map(" ".join))),
    st.tuples(st.just("cut"), st.integers(0, 10**7), st.just("")),
)


def read_and_replay(text: str) -> None:
    """Read a record; anything but a RecordError (with its line) is a bug."""
    try:
        record = read_record(text)
    except RecordError as err:
        assert isinstance(err, pc.PitchError)
        if err.line is not None:
            assert 1 <= err.line <= text.count("\n") + 1
            assert str(err).startswith(f"line {err.line}: ")
        assert len(str(err)) < 2000
        return
    game = replay(record)
    assert read_record(write_record(game)).items or not game.hands


FUZZ = settings(max_examples=300, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])


@FUZZ
@given(base=st.sampled_from(sorted(BASES)), edits=st.lists(edit, min_size=1, max_size=4))
def test_mutated_golden_records_fail_cleanly(base: str, edits: list[tuple[str, int, str]]) -> None:
    read_and_replay(mutate_record(BASES[base], edits))


@FUZZ
@given(head=st.sampled_from(["pitchcards-record 1", "pitchcards-record 2"]),
       game=st.sampled_from(["game match", "game money", "game " + "x"]),
       lines=st.lists(st.one_of(st.sampled_from(KEYWORDS),
                                st.lists(token, min_size=1, max_size=5).map(" ".join)),
                      max_size=30))
def test_random_records_fail_cleanly(head: str, game: str, lines: list[str]) -> None:
    read_and_replay("\n".join([head, game, "variant auction", "players 4", "dealer 0", *lines]))


# ------------------------------------------------------------------------ the command line
class _Started(Exception):
    """Raised where a game would start: the arguments were all accepted."""


@pytest.fixture
def no_games(monkeypatch: pytest.MonkeyPatch) -> None:
    from pitchcards.bots import arena
    from pitchcards.tui import app

    def start(*args: Any, **kwargs: Any) -> int:
        raise _Started

    monkeypatch.setattr(app, "run", start)
    monkeypatch.setattr(arena, "_play", start)
    monkeypatch.setattr(arena, "_in_pool", start)


def run_cli(argv: list[str]) -> None:
    """``pitch ...``: a usage error (exit 2), a refusal (return 2) or a start; nothing else."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli.main(argv)
        except SystemExit as exc:
            assert exc.code == 2, (argv, err.getvalue())
            return
        except _Started:
            return
    assert code == 2, (argv, out.getvalue(), err.getvalue())
    assert err.getvalue().strip() and "Traceback" not in err.getvalue()
    assert len(err.getvalue()) < 3000


OPTION_NAMES = [*pc.RuleSet.OPTION_CHOICES, "target", "stake_per_point", "moon_payment",
                "min_players", "max_players", "allow_two_players", "colour", ""]
option = st.tuples(st.one_of(st.sampled_from(OPTION_NAMES), st.text(max_size=8)),
                   st.one_of(token, st.sampled_from([str(v) for vs in
                                                     pc.RuleSet.OPTION_CHOICES.values()
                                                     for v in vs])))
number = st.one_of(st.sampled_from(HOSTILE), st.integers(-3, 12).map(str))
bots = st.one_of(st.sampled_from(["easy", "hard,easy", "1=hard,3=easy", "oracle", "godlike",
                                  "1=", "=easy", ",", "9=easy", "easy,1=hard", "random"]),
                 token)


@FUZZ
@given(variant=st.sampled_from([*pc.VARIANTS, "nope"]),
       options=st.lists(option, max_size=3),
       bot=st.one_of(st.none(), bots),
       players=st.one_of(st.none(), number),
       target=st.one_of(st.none(), number))
def test_play_command_line_fails_cleanly(no_games: None, variant: str,
                                         options: list[tuple[str, str]], bot: str | None,
                                         players: str | None, target: str | None) -> None:
    argv = ["play", "--variant", variant]
    for name, value in options:
        argv += ["--option", f"{name}={value}"]
    for flag, value in (("--bots", bot), ("--players", players), ("--target", target)):
        if value is not None:
            argv.append(f"{flag}={value}")
    run_cli(argv)


@FUZZ
@given(variant=st.sampled_from([*pc.VARIANTS, "nope"]),
       options=st.lists(option, max_size=3),
       names=st.one_of(st.sampled_from(["heuristic,random", "random,random,random", "oracle,x",
                                        "random", ",", ""]), token),
       counts=st.lists(st.tuples(st.sampled_from(["--games", "--jobs", "--players", "--hands",
                                                  "--max-hands", "--seed"]), number),
                       max_size=3))
def test_arena_command_line_fails_cleanly(no_games: None, variant: str,
                                          options: list[tuple[str, str]], names: str,
                                          counts: list[tuple[str, str]]) -> None:
    argv = ["arena", "--variant", variant, f"--bots={names}", "--quiet"]
    for name, value in options:
        argv += ["--option", f"{name}={value}"]
    for flag, value in counts:
        argv.append(f"{flag}={value}")
    run_cli(argv)


@FUZZ
@given(values=st.lists(st.tuples(st.sampled_from(["stake_per_point", "moon_payment"]),
                                 st.one_of(st.sampled_from(HOSTILE), st.text(max_size=45))),
                       min_size=1, max_size=2))
def test_money_amounts_on_the_command_line_fail_cleanly(no_games: None,
                                                        values: list[tuple[str, str]]) -> None:
    argv = ["play", "--variant", "money"]
    for name, value in values:
        argv += ["--option", f"{name}={value}"]
    run_cli(argv)
