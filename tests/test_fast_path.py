"""The compiled fast path (issue 35) gives exactly the pure build's answers.

``scripts/build_fast.py`` compiles the hot modules with mypyc (``scripts/test.sh`` runs it before
the suite, so the suite itself runs on the compiled build); these tests need that build and say
so when it is missing or stale.  The differential test plays the same seeded random hands of
every variant and option mix in two processes, one per build, and compares a digest of every
step (legal actions, state, every seat's view, push/pop/copy) and result; the expert's decisions
on tests/test_expert_v1.py's positions must hash the same in both.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import pitchcards as pc
from pitchcards import _fast
from test_expert_v1 import FROZEN

HERE = Path(__file__).resolve().parent
HANDS = 2000


def _compiled_or_fail() -> None:
    if _fast.compiled():
        return
    if os.environ.get(_fast.PURE_VARIABLE):
        pytest.skip(f"{_fast.PURE_VARIABLE} is set: this run tests the pure build only")
    pytest.fail(f"the compiled build is not running ({pc.fast_path()}): "
                "run python scripts/build_fast.py (scripts/test.sh does)")


def _start_trace(pure: bool, *args: str) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if k != _fast.PURE_VARIABLE}
    if pure:
        env[_fast.PURE_VARIABLE] = "1"
    return subprocess.Popen([sys.executable, str(HERE / "fast_trace.py"), *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _lines(trace: subprocess.Popen[str]) -> list[dict[str, str]]:
    out, err = trace.communicate(timeout=1800)  # a hang guard only
    assert trace.returncode == 0, f"tests/fast_trace.py failed:\n{err}"
    return [json.loads(line) for line in out.splitlines()]


def test_the_compiled_and_the_pure_build_play_every_hand_alike() -> None:
    _compiled_or_fail()
    # The two builds' traces run side by side (one core each when the machine has two).
    traces = [_start_trace(pure, str(HANDS), "expert") for pure in (False, True)]
    try:
        compiled, pure = (_lines(trace) for trace in traces)
    finally:
        for trace in traces:
            if trace.poll() is None:
                trace.kill()
                trace.wait()
    assert compiled[0]["build"].startswith("compiled")
    assert pure[0]["build"].startswith("pure")
    assert len(compiled) == len(pure) == HANDS + 2
    differ = [c["seed"] for c, p in zip(compiled[1:-1], pure[1:-1], strict=True) if c != p]
    assert not differ, f"the builds differ on seeds {differ[:10]} (tests/fast_trace.py)"
    assert compiled[-1] == pure[-1], "expert-v1 decides differently in the compiled build"
    # test_expert_v1_decides_as_it_always_did's record, so scripts/test.sh's pure-build run
    # need not play it again
    assert pure[-1] == {"expert": FROZEN}, "expert-v1's decisions changed (test_expert_v1.py)"


def test_the_compiled_modules_are_the_ones_running() -> None:
    _compiled_or_fail()
    import pitchcards.bots.solver
    import pitchcards.hand

    for module in (pitchcards.hand, pitchcards.bots.solver):
        assert module.__file__ is not None and module.__file__.endswith(".so")
    assert pc.fast_path().startswith("compiled (mypyc")


def test_pitchcards_pure_runs_the_python_source() -> None:
    code = ("import pitchcards, pitchcards.hand as h; print(pitchcards.fast_path()); "
            "print(h.__file__)")
    out = subprocess.run([sys.executable, "-c", code], env={**os.environ, "PITCHCARDS_PURE": "1"},
                         capture_output=True, text=True, check=True).stdout.splitlines()
    assert out == ["pure (PITCHCARDS_PURE is set)",
                   str(Path(pc.__file__).parent / "hand.py")]


def test_an_edited_source_is_never_shadowed_by_a_stale_build(tmp_path: Path) -> None:
    """A copy of the package whose hand.py differs by one byte from the build's source runs pure
    Python and says why (what ``pip install -e .`` users meet after an edit)."""
    _compiled_or_fail()
    package = Path(pc.__file__).parent
    copy = tmp_path / "pitchcards"
    subprocess.run(["cp", "-r", str(package), str(copy)], check=True)
    (copy / "hand.py").write_text((package / "hand.py").read_text() + "\n# edited\n")
    code = ("import pitchcards, pitchcards.hand as h; print(pitchcards.fast_path()); "
            "print(h.__file__)")
    env = {k: v for k, v in os.environ.items() if k != _fast.PURE_VARIABLE}
    env["PYTHONPATH"] = str(tmp_path)
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=tmp_path,
                         capture_output=True, text=True, check=True).stdout.splitlines()
    assert out[0].startswith("pure (compiled build is stale: sources changed since the build: "
                             "hand.py")
    assert out[1] == str(copy / "hand.py")
    # and the unedited copy does run compiled
    (copy / "hand.py").write_text((package / "hand.py").read_text())
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=tmp_path,
                         capture_output=True, text=True, check=True).stdout.splitlines()
    assert out[0].startswith("compiled") and out[1].endswith(".so")


def test_pitch_version_names_the_build(capsys: pytest.CaptureFixture[str]) -> None:
    from pitchcards.cli import main

    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().out.split() == ["pitch", f"{pc.__version__},",
                                               *pc.fast_path().split()]


def test_pitch_serve_says_which_build_it_runs(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The start line names the engine's build (``bench_server.py --builds`` checks it): the
    compiled one, or pure with the reason — here the switch back on purpose."""
    from pitchcards.server.cli import _engine_build
    from server_helpers import running_server

    _compiled_or_fail()
    assert _engine_build() == "compiled"
    monkeypatch.setenv(_fast.PURE_VARIABLE, "1")
    with running_server(tmp_path) as server:
        said = server.output()
    assert "engine: pure (PITCHCARDS_PURE is set); Ctrl+C stops" in said, said


def test_the_build_without_a_c_compiler_stops_and_says_so() -> None:
    """What scripts/test.sh meets on a machine with no compiler: a clear message, exit 1, and
    the build already there left alone."""
    manifest = _fast.build_dir() / "manifest.json"
    before = manifest.read_bytes() if manifest.exists() else None
    done = subprocess.run([sys.executable, str(HERE.parent / "scripts" / "build_fast.py")],
                          env={**os.environ, "PATH": ""}, capture_output=True, text=True)
    assert done.returncode == 1
    assert "build_fast: no C compiler (cc/gcc) found" in done.stderr
    assert (manifest.read_bytes() if manifest.exists() else None) == before


def test_the_readme_serve_command_runs_pure_python_where_it_cannot_compile() -> None:
    """The README's serve command runs ``build_fast.py --or-pure``: on a machine that cannot
    compile, it says so and succeeds, so ``pitch serve`` after it starts on pure Python."""
    manifest = _fast.build_dir() / "manifest.json"
    before = manifest.read_bytes() if manifest.exists() else None
    done = subprocess.run([sys.executable, str(HERE.parent / "scripts" / "build_fast.py"),
                           "--or-pure"],
                          env={**os.environ, "PATH": ""}, capture_output=True, text=True)
    assert done.returncode == 0
    assert "build_fast: no C compiler (cc/gcc) found" in done.stderr
    assert "running the pure-Python build instead" in done.stderr
    assert (manifest.read_bytes() if manifest.exists() else None) == before



def test_a_hand_result_copies_and_pickles_on_either_build() -> None:
    """A compiled class with an ``__init__`` of required arguments cannot be copied through
    ``cls.__new__(cls)``: ``HandResult`` once stated its own (issue 35's speed) and every copy of
    an outcome failed (tests/test_outcome_settlement.py, CI of 2026-12-07)."""
    import copy
    import pickle

    hand = pc.Hand.deal(pc.find_variant("auction"), players=4, dealer=0, seed=3)
    while not hand.is_over:
        hand.push(hand.legal_actions()[0])
    result = hand.result
    assert result is not None
    assert copy.deepcopy(result) == result == copy.copy(result)
    assert pickle.loads(pickle.dumps(result)) == result
