"""Issue 9 at the edges: records cut short or hostile, saves that cannot be written, save files
that try to seat a bot the game does not offer, a bot that fails, and bad numbers on the command
line.  Each test is one of the issue's reproductions."""

from __future__ import annotations

import asyncio
import errno
import io
import os
import random
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import pitchcards as pc
from helpers import python_lines
from pitchcards import cli, storage
from pitchcards.notation import (
    RecordDamagedError,
    RecordError,
    RecordSyntaxError,
    read_record,
    replay,
    write_record,
)


def played_match(hands: int = 2, seed: int = 3) -> pc.Match:
    match = pc.Match(pc.find_variant("auction"), players=4, dealer=0, seed=seed)
    rng = random.Random(seed)
    for _ in range(hands):
        hand = match.deal()
        while hand.seat_to_act is not None:
            match.push(rng.choice(hand.legal_actions()))
    return match


#: How long a call that must not hang may take before it counts as hanging.  Not a speed
#: claim (the machine is shared; speed is for benchmarks/): each call guarded here either
#: returns in well under a second or, with the bug it guards against, runs for hours.
HANG = 30.0


def quickly(call: Callable[[], Any], limit: float = HANG) -> Any:
    """``call()``, failing if it hangs (runs for ``limit`` seconds) instead of returning."""
    start = time.perf_counter()
    try:
        return call()
    finally:
        assert time.perf_counter() - start < limit, "hangs"


# ------------------------------------------------------------------------ records cut short
def test_a_record_cut_at_a_line_boundary_is_refused() -> None:
    """The issue's reproduction: cut before '# trick 3 won' it used to load as an earlier game."""
    t = write_record(played_match())
    with pytest.raises(RecordDamagedError, match="cut short") as info:
        pc.replay(pc.read_record(t[:t.index("# trick 3 won")]))
    assert info.value.line is not None and str(info.value).startswith(f"line {info.value.line}:")


def test_every_cut_of_a_version_2_record_is_refused() -> None:
    t = write_record(played_match(hands=1))
    ends = [i + 1 for i, c in enumerate(t) if c == "\n"][:-1]
    cuts = ends + list(range(len(t) - 25, len(t) - 1))  # every line, and inside the end line
    for cut in cuts:
        text = t[:cut]
        if not text.strip("\n ").endswith(t.strip().rsplit("\n", 1)[1]):
            with pytest.raises(RecordError):
                read_record(text)
    assert replay(read_record(t)).hands  # the whole text reads


def test_a_changed_version_2_record_is_refused_but_comments_and_spacing_are_not_changes() -> None:
    t = write_record(played_match(hands=1))
    with pytest.raises(RecordDamagedError, match="changed or damaged"):
        read_record(t.replace("seed 3", "seed 4"))
    noisy = "# saved\n" + t.replace("\n", "   # note\r\n").replace("deal 1 ", "deal  1  ")
    assert write_record(replay(read_record(noisy))) == t
    with pytest.raises(RecordSyntaxError, match="nothing but comments"):
        read_record(t + "seed 3\n")


def test_version_1_records_without_an_end_line_still_read() -> None:
    match = played_match()
    old = write_record(match, version=1)
    assert old.startswith("pitchcards-record 1\n") and "\nend " not in old
    assert write_record(replay(read_record(old))) == write_record(match)
    with pytest.raises(RecordSyntaxError, match="belongs to version 2"):
        read_record(old + "end 3 0123456789abcdef\n")


# ------------------------------------------------------------------------ hostile records
@pytest.mark.parametrize("line", [
    "option stake_per_point 1e99999999999",
    "option moon_payment 1e10000000",
    "option stake_per_point " + "9" * 5000,
])
def test_huge_amounts_in_option_lines_are_refused_quickly(line: str) -> None:
    text = write_record(pc.MoneySession(pc.find_variant("money"), ["A", "B"], dealer=0),
                        version=1)
    text = text.replace("players A B", f"{line}\nplayers A B")
    with pytest.raises(RecordSyntaxError, match="not an amount of dollars") as info:
        quickly(lambda: read_record(text))
    assert len(str(info.value)) < 300


def test_huge_payouts_are_refused_quickly() -> None:
    s = pc.MoneySession(pc.find_variant("money"), ["A", "B", "C"], dealer=0)
    s.leave("A")
    text = write_record(s, version=1)
    text = text.replace(f"payout A {s.payouts['A']}", "payout A 1e99999999999")
    with pytest.raises(RecordSyntaxError, match="payout") as info:
        quickly(lambda: read_record(text))
    assert info.value.line == text.split("\n").index("payout A 1e99999999999") + 1


@pytest.mark.parametrize("where", ["seed {}", "variant {}", "players {}", "deal 0 {}",
                                   "1 play {}", "total {}"])
def test_a_huge_bad_token_gives_a_short_error(where: str) -> None:
    text = write_record(played_match(hands=1), version=1)
    line = where.format("x" * 9_000)  # under the line limit: each error quotes it cut short
    key = where.split()[0] + " "
    lines = text.split("\n")
    k = next(i for i, ln in enumerate(lines) if ln.startswith(key))
    lines[k] = line
    with pytest.raises(RecordError) as info:
        quickly(lambda: read_record("\n".join(lines)))
    message = str(info.value)
    assert "x" * 100 not in message and len(message) < 1000, message[:400]
    huge = text.replace("seed 3", "seed " + "9" * 10_000_000)
    with pytest.raises(RecordSyntaxError, match="characters long") as err:
        quickly(lambda: read_record(huge))
    assert len(str(err.value)) < 200


def test_many_hands_are_read_in_linear_time() -> None:
    """The hand counter once summed over every earlier item: quadratic in the hands.  Eight
    times the hands must cost about eight times the work (that counter: over twelve)."""
    one = write_record(played_match(hands=1), version=1).split("\nhand 1 ")[1]
    deal = "\n".join(ln for ln in one.split("\n") if ln.startswith("deal "))

    def record_of(hands: int) -> str:
        body = "".join(f"\nhand {k} dealer 0\n{deal}\n" for k in range(1, hands + 1))
        return "pitchcards-record 1\ngame match\nvariant auction\nplayers 4\ndealer 0\n" + body

    with pytest.raises(RecordError):
        quickly(lambda: read_record(record_of(20_000)))
    small, large = (python_lines(lambda n=n: read_record(record_of(n))) for n in (300, 2400))
    assert large < 9 * small, (small, large)


# ------------------------------------------------------------------------ header tags
def test_names_and_bot_levels_are_header_tags() -> None:
    match = played_match(hands=1)
    t = write_record(match, names=["You", "Ann", "Bob", "Cy"], bots={"Ann": "easy", "Cy": "hard"},
                     practice=True)
    header = t.split("\n\n")[0].split("\n")
    assert header[-4:] == ["names You Ann Bob Cy", "bot Ann easy", "bot Cy hard", "practice true"]
    record = read_record(t)
    assert record.seat_names == ["You", "Ann", "Bob", "Cy"]
    assert record.bots == {"Ann": "easy", "Cy": "hard"} and record.practice is True
    assert write_record(replay(record), names=record.seat_names, bots=record.bots,
                        practice=record.practice) == t
    old = write_record(match, version=1)
    for bad, words in [("bot Zed easy", "names no player"),
                       ("names A B", "2 names for 4 seats"),
                       ("names A A B C", "different"),
                       ("bot Ann GOD LIKE", "bot NAME LEVEL"),
                       ("practice maybe", "true or false")]:
        with pytest.raises(RecordSyntaxError, match=words):
            read_record(old.replace("players 4", f"players 4\nnames Ann Bob Cy Dee\n{bad}"
                                    if bad.startswith("bot") else f"players 4\n{bad}"))
    with pytest.raises(ValueError):
        write_record(match, names=["A", "B"])
    with pytest.raises(ValueError):
        write_record(match, names=["A", "B", "C", "D"], bots={"Zed": "easy"})


# ------------------------------------------------------------------------ atomic writes
def test_write_atomically_replaces_the_whole_file(tmp_path: Path) -> None:
    target = tmp_path / "save.txt"
    storage.write_atomically(target, "old\n")
    storage.write_atomically(target, "new\n")
    assert target.read_text() == "new\n"
    assert os.listdir(tmp_path) == ["save.txt"]  # no temporary file left


def test_a_full_disk_leaves_the_old_file_and_no_temporary(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "save.txt"
    target.write_text("the old save\n")

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(storage.os, "fsync", full)
    with pytest.raises(storage.SaveError, match="No space left") as info:
        storage.write_atomically(target, "the new save\n" * 1000)
    assert str(target) in str(info.value)
    assert target.read_text() == "the old save\n"
    assert os.listdir(tmp_path) == ["save.txt"]


def test_an_unwritable_folder_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("a file, not a folder")
    with pytest.raises(storage.SaveError, match="cannot"):
        storage.write_atomically(blocker / "save.txt", "text")
    with pytest.raises(storage.SaveError, match="cannot create the folder"):
        storage.ensure_folder(blocker / "saves")


# ------------------------------------------------------------------------ the terminal game
textual = pytest.importorskip("textual")

from pitchcards.tui.app import Delays, PitchApp  # noqa: E402
from pitchcards.tui.config import GameConfig  # noqa: E402
from pitchcards.tui.controller import GameController  # noqa: E402
from pitchcards.tui.screens import QuitScreen  # noqa: E402

FAST = Delays(bot=0.0, trick=0.0)


@pytest.fixture
def unwritable_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A data folder that cannot be created (its parent is a file: even root cannot)."""
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    monkeypatch.setenv("XDG_DATA_HOME", str(blocker))
    yield blocker


async def _wait(pilot: Any, done: Callable[[], bool], timeout: float = 10.0) -> None:
    for _ in range(int(timeout / 0.01)):
        if done():
            return
        await pilot.pause(0.01)
    raise AssertionError("timed out")


def _run(app: PitchApp, script: Callable[[Any], Any]) -> None:
    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await script(pilot)

    asyncio.run(go())


def test_quit_and_save_into_an_unwritable_folder_exits_non_zero(unwritable_home: Path) -> None:
    app = PitchApp(GameConfig(variant="auction", seed=4, level="easy"), delays=FAST)

    async def script(pilot: Any) -> None:
        await _wait(pilot, lambda: app.ctl.human_to_act and not app.busy)
        view = app.ctl.view()
        app.act(view.legal_actions[0])
        await _wait(pilot, lambda: bool(app.ctl.hand and app.ctl.hand.history))
        await pilot.press("q")
        await _wait(pilot, lambda: isinstance(app.screen, QuitScreen))
        await pilot.press("y")
        await pilot.pause(0.05)

    _run(app, script)
    assert app.return_code == 1
    assert app.save_error is not None and "not saved" in app.save_error
    assert str(unwritable_home) in app.save_error


def test_the_automatic_save_at_the_end_says_why_it_failed(unwritable_home: Path) -> None:
    from rich.text import Text

    from pitchcards.tui.local import LocalSource

    app = PitchApp(GameConfig(variant="auction", seed=4), delays=FAST)
    body = Text()
    assert isinstance(app.source, LocalSource)
    app.source.attach(app)  # the local driver saves the finished game's record
    app.source._saved_line(body)
    assert "Not saved" in body.plain and str(unwritable_home) in body.plain
    assert app.save_error is not None and app.ctl.saved_record is None


def test_run_returns_1_when_a_save_failed(unwritable_home: Path,
                                         monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    from pitchcards.tui import app as app_module

    def fake_run(self: PitchApp) -> None:
        self.save_error = "cannot save here: Not a directory; the game was not saved"

    monkeypatch.setattr(app_module.PitchApp, "run", fake_run)
    assert app_module.run(GameConfig(variant="auction", seed=1)) == 1
    assert "the game was not saved" in capsys.readouterr().err


def _save_text(level_line: str) -> str:
    ctl = GameController(GameConfig(variant="auction", seed=5))
    ctl.deal()
    text = write_record(ctl.game, version=1)
    return (text + "\n# pitch-play level medium practice 0\n# pitch-play names You Ann Bob Cy\n"
            + level_line + "\n")


def test_an_old_save_with_comment_lines_still_resumes(tmp_path: Path) -> None:
    path = tmp_path / "old.txt"
    path.write_text(_save_text("# pitch-play bot Ann easy\n# pitch-play bot Bob hard"))
    ctl = GameController.load(path)
    assert ctl.levels == {"Ann": "easy", "Bob": "hard", "Cy": "medium"}
    assert ctl.names == ["You", "Ann", "Bob", "Cy"]


@pytest.mark.parametrize("line", ["# pitch-play bot Ann godlike", "# pitch-play bot Ann oracle",
                                  "# pitch-play level oracle practice 0"])
def test_a_save_cannot_seat_a_bot_the_game_does_not_offer(tmp_path: Path, line: str) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(_save_text(line))
    with pytest.raises(pc.OptionError, match="levels are: easy, medium, hard, expert") as info:
        GameController.load(path)
    assert str(path) in str(info.value)


def test_a_save_with_a_bot_tag_of_oracle_is_refused_on_the_command_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ctl = GameController(GameConfig(variant="auction", seed=5))
    ctl.deal()
    path = tmp_path / "oracle.txt"
    path.write_text(write_record(ctl.game, names=ctl.names, bots={**ctl.levels, "Ann": "oracle"}))
    assert cli.main(["play", "--resume", str(path)]) == 2
    err = capsys.readouterr().err
    assert "oracle" in err and "does not offer" in err and "Traceback" not in err


def test_save_and_load_use_header_tags(tmp_path: Path) -> None:
    ctl = GameController(GameConfig(variant="auction", seed=5, bots=("hard", "easy", "medium"),
                                    practice=True))
    ctl.deal()
    path = ctl.save(tmp_path / "game.txt")
    text = path.read_text()
    assert "# pitch-play" not in text
    assert "\nnames You Ann Bob Cy\nbot Ann hard\nbot Bob easy\nbot Cy medium\npractice true\n" \
        in text
    again = GameController.load(path)
    assert again.levels == ctl.levels and again.config.practice and again.names == ctl.names


def test_a_failing_bot_is_shown_not_left_thinking(monkeypatch: pytest.MonkeyPatch) -> None:
    app = PitchApp(GameConfig(variant="auction", seed=2), delays=FAST)

    def broken(turn: Any, min_seconds: float = 0.0) -> Any:
        raise ValueError("unknown bot 'godlike'")

    monkeypatch.setattr(app.ctl, "think", broken)  # what the local driver asks of a bot's turn

    async def script(pilot: Any) -> None:
        await _wait(pilot, lambda: app.stalled is not None)
        prompt = str(app.query_one("#prompt").render())
        assert "cannot move" in prompt and "godlike" in prompt
        assert "thinking" not in prompt
        assert not app.busy

    _run(app, script)


# ------------------------------------------------------------------------ the command line
@pytest.mark.parametrize("argv, words", [
    (["demo", "--players", "0"], "--players: must be a whole number from 1 up, not '0'"),
    (["demo", "--hands", "-3"], "--hands: must be a whole number from 1 up"),
    (["arena", "--max-hands", "0"], "--max-hands: must be a whole number from 1 up, not '0'"),
    (["arena", "--max-hands", "-5"], "--max-hands: must be a whole number from 1 up"),
    (["arena", "--games", "0"], "--games: must be a whole number from 1 up"),
    (["arena", "--jobs", "0"], "--jobs: must be a whole number from 1 up"),
    (["arena", "--games", "9" * 5000], "--games: must be a whole number from 1 up"),
    (["play", "--players", "-1"], "--players: must be a whole number from 1 up"),
])
def test_bad_numbers_exit_2_saying_what_is_allowed(argv: list[str], words: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        cli.main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert words in err and "9" * 100 not in err


def test_demo_with_too_many_players_says_how_many(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["demo", "--players", "9"]) == 2
    assert "3 to 7 players, not 9" in capsys.readouterr().err


@pytest.mark.parametrize("value", ["1e99999999999", "1e10000000", "9" * 100])
def test_a_huge_stake_on_the_command_line_is_refused_quickly(
        value: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = quickly(lambda: cli.main(["play", "--variant", "money", "--option",
                                     f"stake_per_point={value}"]))
    assert code == 2
    err = capsys.readouterr().err
    assert "stake_per_point" in err and len(err) < 400


def test_arena_takes_work_lazily_and_caps_jobs(monkeypatch: pytest.MonkeyPatch) -> None:
    """100 000 000 games start at once (no list of every task); jobs never exceed the cores."""
    from pitchcards.bots import arena

    played: list[int] = []

    def fake_play(task: Any) -> Any:
        played.append(task.game)
        if len(played) == 5:
            raise KeyboardInterrupt  # stop the run: the point is that it started
        return real(task)

    real = arena._play
    monkeypatch.setattr(arena, "_play", fake_play)
    start = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        arena.run_arena("auction", ["random", "random"], games=100_000_000, jobs=1, max_hands=1)
    assert time.perf_counter() - start < HANG and len(played) == 5
    monkeypatch.setattr(arena, "_play", real)
    result = arena.run_arena("auction", ["random", "random"], games=1, jobs=10_000, max_hands=2)
    assert result.jobs <= (os.cpu_count() or 1) and result.jobs <= 2
    with pytest.raises(ValueError, match="max_hands must be a positive number"):
        arena.run_arena("auction", ["random", "random"], games=1, jobs=1, max_hands=0)


def test_a_match_with_named_seats_keeps_its_names_through_a_record() -> None:
    match = pc.Match(pc.find_variant("setback"), players=4, dealer=1, seed=2,
                     names=["Ann Lee", "Bob", "Cy", "Dee"])
    text = write_record(match)
    assert '\nnames "Ann Lee" Bob Cy Dee\n' in text
    again = replay(read_record(text))
    assert again.names == match.names and write_record(again) == text
    assert "\nnames " not in write_record(played_match(hands=1))  # default names: no tag


def test_resuming_a_save_cut_short_names_the_file(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    ctl = GameController(GameConfig(variant="auction", seed=5))
    ctl.deal()
    path = ctl.save(tmp_path / "game.txt")
    text = path.read_text()
    path.write_text(text[:text.index("\nend ")])
    assert cli.main(["play", "--resume", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"pitch: {path}: line ") and "cut short" in err


def test_read_text_is_bounded_and_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "big.txt"
    path.write_bytes(b"x" * 101)
    with pytest.raises(storage.ReadError, match=f"cannot read {path}: it is larger than 100"):
        storage.read_text(path, limit=100)
    assert storage.read_text(path, limit=101) == "x" * 101
    path.write_bytes(b"a\r\nb\rc\n\xc3\xa9")
    assert storage.read_text(path) == "a\nb\nc\n\u00e9"
    path.write_bytes(b"game \xff\xfe")
    with pytest.raises(storage.ReadError, match=f"cannot read {path}: it is not UTF-8"):
        storage.read_text(path)
    with pytest.raises(storage.ReadError, match=r"cannot read .*nowhere\.txt"):
        storage.read_text(tmp_path / "nowhere.txt")
    with pytest.raises(storage.ReadError, match="cannot read standard input: it is larger"):
        storage.read_text("standard input", stream=io.BytesIO(b"x" * 5), limit=4)
    assert storage.read_text("standard input", stream=io.StringIO("a\r\nb")) == "a\nb"


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
@pytest.mark.parametrize("argv", [["replay", "/dev/zero"], ["play", "--resume", "/dev/zero"]])
def test_the_cli_refuses_an_endless_file_instead_of_hanging(
        argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert quickly(lambda: cli.main(argv)) == 2
    err = capsys.readouterr().err
    assert err.startswith("pitch: cannot read /dev/zero: it is larger than") and len(err) < 200


@pytest.mark.parametrize("resume", [False, True])
def test_the_cli_names_a_binary_file(resume: bool, tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.bin"
    path.write_bytes(bytes(range(256)))
    argv = ["play", "--resume", str(path)] if resume else ["replay", str(path)]
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"pitch: cannot read {path}: it is not UTF-8") and "Traceback" not in err


@pytest.mark.parametrize("command", ["play", "demo", "arena"])
def test_a_huge_seed_is_refused_with_a_short_message(
        command: str, capsys: pytest.CaptureFixture[str]) -> None:
    for seed in ("9" * 100_000, "1" * 31, "x", "1.5"):
        with pytest.raises(SystemExit) as info:
            cli.main([command, "--seed", seed])
        assert info.value.code == 2
        err = capsys.readouterr().err
        assert "--seed: must be a whole number of at most 30 digits" in err and len(err) < 2000
    assert cli.seed_number("-" + "9" * 30) == -int("9" * 30)
    assert cli.seed_number(" 7 ") == 7


def test_counting_lines_puts_back_the_tracer_that_was_set() -> None:
    """python_lines replaces the process's tracer while it counts: coverage's (or a debugger's)
    must be back after, or every later test of the process goes unmeasured (it set none, and
    a coverage run of the suite lost most of the terminal client's lines)."""
    def other(frame: Any, event: str, arg: Any) -> Any:
        return None

    before = sys.gettrace()
    sys.settrace(other)
    try:
        assert python_lines(lambda: sum(range(3))) > 0
        assert sys.gettrace() is other
    finally:
        sys.settrace(before)
