"""The arena on a Ray cluster (issue 37): the same results as local processes, bit for bit but the
decision times, whatever the number of workers; a worker killed mid-game loses nothing; the
command line's JSON has the same shape; Ctrl+C cancels the cluster's games; and without
``--cluster`` nothing imports Ray.

One real Ray cluster on this machine, two CPUs, is started for the module (its temporary files
in the module's pytest directory, not the shared ``/tmp/ray``) and stopped at its end, which
checks that none of its processes are left.  The cluster's tests are skipped, saying why, only
when Ray (the ``[cluster]`` extra) is not installed; ``scripts/test.sh`` installs it.  They use
the random and heuristic bots and a few games: a cluster's start is what they cost.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from helpers import interrupted
from pitchcards.bots import arena
from pitchcards.bots.arena import run_arena

try:
    import ray
except ModuleNotFoundError:  # the [cluster] extra is not installed
    ray = None

#: Everything in the arena's JSON that is not a timing: the same on any workers.
TIMINGS = ("elapsed", "jobs")
BOT_TIMINGS = ("ms_median", "ms_p99")
#: A hang, not a slow machine: what the waits below allow before they fail.
PATIENCE = 180.0


def results(result: dict[str, Any]) -> dict[str, Any]:
    """The arena's JSON without its timings (elapsed, jobs, milliseconds per decision)."""
    out = {k: v for k, v in result.items() if k not in TIMINGS}
    out["stats"] = [{k: v for k, v in s.items() if k not in BOT_TIMINGS}
                    for s in result["stats"]]
    return out


def shape(value: Any) -> Any:
    """The JSON's shape: its keys and the kinds of its values."""
    if isinstance(value, dict):
        return {k: shape(v) for k, v in value.items()}
    if isinstance(value, list):
        return [shape(v) for v in value]
    return "number" if isinstance(value, int | float) and not isinstance(value, bool) else (
        type(value).__name__)


def processes_mentioning(text: str) -> list[int]:
    """The processes whose command line mentions ``text`` (the cluster's temporary folder)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if text in cmdline:
            found.append(int(entry.name))
    return found


def wait_until(condition: Any, what: str) -> None:
    """Poll ``condition`` until it holds; fail naming ``what`` after :data:`PATIENCE`."""
    deadline = time.monotonic() + PATIENCE
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"still waiting, after {PATIENCE:.0f} s, for {what}")
        time.sleep(0.05)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A local Ray cluster with two CPUs for the module; yields its address (HOST:PORT)."""
    if ray is None:
        pytest.skip("Ray is not installed (the [cluster] extra: pip install -e '.[cluster]'; "
                    "scripts/test.sh installs it)")
    temp = tmp_path_factory.mktemp("ray")
    context = ray.init(address="local", num_cpus=2, include_dashboard=False,
                       _temp_dir=str(temp), logging_level=logging.WARNING, log_to_driver=False)
    try:
        yield context.address_info["gcs_address"]
    finally:
        ray.shutdown()
        wait_until(lambda: not processes_mentioning(str(temp)),
                   f"the cluster's processes to end: {processes_mentioning(str(temp))}")


# ----------------------------------------------------------------------------- no Ray by default
def test_without_cluster_nothing_imports_ray() -> None:
    # `import pitchcards` and a whole `pitch arena` without --cluster, in a fresh interpreter.
    code = ("import sys, pitchcards, pitchcards.cli\n"
            "assert pitchcards.cli.main(['arena', '--games', '1', '--jobs', '1', '--quiet']) == 0\n"
            "loaded = sorted(m for m in sys.modules if m == 'ray' or m.startswith('ray.'))\n"
            "assert not loaded, loaded\n"
            "print('no ray')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=PATIENCE, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("no ray")


def test_a_bad_cluster_address_or_a_missing_ray_is_named() -> None:
    # Before the module's cluster starts: this process is not connected to Ray yet.
    assert ray is None or not ray.is_initialized()
    with pytest.raises(ValueError) as caught:
        run_arena("auction-partners", ["random", "random"], games=1, cluster=" ")
    if ray is None:
        assert "needs Ray" in str(caught.value) and "pitchcards[cluster]" in str(caught.value)
    else:
        assert "cluster address ' '" in str(caught.value)
        assert "'auto'" in str(caught.value) and "ray://HOST:PORT" in str(caught.value)


# ----------------------------------------------------------------------------- on the cluster
def test_the_cluster_plays_the_same_games_as_local_processes(cluster: str) -> None:
    for variant, bots, extra in (("auction-partners", ["heuristic", "random"], {}),
                                 ("auction", ["heuristic", "random", "random"], {}),
                                 ("money", ["heuristic", "random"], {"hands": 3})):
        here = run_arena(variant, bots, games=3, seed=11, jobs=1, **extra)  # type: ignore[arg-type]
        for jobs in (1, 2):  # the process is connected already: "auto" uses that connection
            there = run_arena(variant, bots, games=3, seed=11, jobs=jobs, cluster="auto",
                              **extra)  # type: ignore[arg-type]
            assert there.jobs == jobs
            assert results(there.to_dict()) == results(here.to_dict()), (variant, jobs)


#: Where the killed worker says who it is (set by the test; travels with the function below).
KILL_DIR: Path | None = None
PLAY = arena._play


def play_unless_chosen_to_die(task: Any) -> Any:
    """The arena's game, except that the first time game 1's first seating starts, its worker
    writes its process id and waits to be killed (the test kills it with SIGKILL)."""
    assert KILL_DIR is not None
    if (task.game, task.seating) == (1, 0):
        try:
            claim = os.open(KILL_DIR / "claimed", os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            pass  # played again after the kill: play it
        else:
            os.close(claim)
            (KILL_DIR / "pid.tmp").write_text(str(os.getpid()))
            os.replace(KILL_DIR / "pid.tmp", KILL_DIR / "pid")
            deadline = time.monotonic() + PATIENCE
            while time.monotonic() < deadline:
                time.sleep(0.05)
            raise RuntimeError("the test never killed this worker")
    return PLAY(task)


def test_a_worker_killed_mid_game_loses_only_that_game_which_is_played_again(
        cluster: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    global KILL_DIR
    here = run_arena("auction-partners", ["heuristic", "random"], games=3, seed=5, jobs=1)
    KILL_DIR = tmp_path
    # The replacement game travels by value (this test module is not installed on the workers).
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    monkeypatch.setattr(arena, "_play", play_unless_chosen_to_die)
    killed: list[int] = []

    def kill_the_chosen_worker() -> None:
        wait_until(lambda: (tmp_path / "pid").exists(), "the chosen game to start")
        pid = int((tmp_path / "pid").read_text())
        os.kill(pid, signal.SIGKILL)
        killed.append(pid)

    killer = threading.Thread(target=kill_the_chosen_worker, daemon=True)
    killer.start()
    try:
        there = run_arena("auction-partners", ["heuristic", "random"], games=3, seed=5, jobs=2,
                          cluster="auto")
    finally:
        ray.cloudpickle.unregister_pickle_by_value(sys.modules[__name__])
        KILL_DIR = None
    killer.join(PATIENCE)
    assert killed and killed[0] != os.getpid()
    assert results(there.to_dict()) == results(here.to_dict())


def test_the_command_line_on_a_cluster_prints_the_same_json(cluster: str) -> None:
    here = run_arena("auction-partners", ["heuristic", "random"], games=2, seed=3, jobs=1)
    done = subprocess.run(
        [sys.executable, "-m", "pitchcards.cli", "arena", "--games", "2", "--seed", "3",
         "--cluster", cluster, "--json", "--quiet"],
        capture_output=True, text=True, timeout=PATIENCE, check=False)
    assert done.returncode == 0, done.stderr
    there = json.loads(done.stdout)
    assert shape(there) == shape(here.to_dict())
    assert results(there) == json.loads(json.dumps(results(here.to_dict())))
    assert there["jobs"] == 2  # every CPU of the cluster


def test_ctrl_c_cancels_the_clusters_games(cluster: str) -> None:
    child = subprocess.Popen(
        [sys.executable, "-m", "pitchcards.cli", "arena", "--games", "100000", "--bots",
         "random,random", "--cluster", cluster],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def playing() -> None:
        """The progress bar's first redraw: games are being played on the cluster."""
        assert child.stderr is not None
        seen = ""
        while "arena [" not in seen:
            char = child.stderr.read(1)
            assert char, f"the arena ended before it was interrupted: {seen}"
            seen += char
    _, err = interrupted(child, playing, PATIENCE)
    assert child.returncode == 130, err
    assert "stopped; the games still running on the cluster were cancelled" in err
    assert "Traceback" not in err
    # Every CPU of the cluster is free again: nothing of that arena still runs there.
    wait_until(lambda: ray.available_resources().get("CPU") == 2,
               f"the cluster's CPUs to be free ({ray.available_resources()})")


# ----------------------------------------------------------------------------- benchmarks, example
ROOT = Path(__file__).resolve().parent.parent


def run_script(*args: str) -> str:
    return run_scripts(args)[0]


def run_scripts(*commands: tuple[str, ...]) -> list[str]:
    """Each command's output, the commands run at once (each pays Python's and Ray's start:
    side by side they pay it once in wall time; issue 27)."""
    started = [subprocess.Popen([sys.executable, *args], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, cwd=ROOT)
               for args in commands]
    outputs = []
    try:
        for proc in started:
            out, err = proc.communicate(timeout=PATIENCE)
            assert proc.returncode == 0, err[-3000:]
            outputs.append(out)
    finally:
        for proc in started:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    return outputs


def test_the_benchmarks_give_the_same_tables_on_the_cluster(cluster: str) -> None:
    # Bots without a clock: their decisions depend on the seeds alone.
    games = ["benchmarks/bench_expert.py", "games", "--bot", "heuristic", "--vs", "random",
             "--games", "2"]
    analysis = ["benchmarks/bench_analysis.py", "--matches", "2", "--budget", "2", "--target",
                "3", "--bots", "random,easy,medium,medium"]
    games_here, games_there, analysis_here, analysis_there = run_scripts(
        (*games,), (*games, "--cluster", cluster), (*analysis,), (*analysis, "--cluster", cluster))
    assert games_there == games_here
    # The losses and labels are the same; the cost table (CPU time) is not compared.
    here = analysis_here.split("analysis cost")[0]
    there = analysis_there.split("analysis cost")[0]
    assert there == here and "loss/choice" in here


def test_the_selfplay_example_writes_the_same_shards_on_the_cluster(
        cluster: str, tmp_path: Path) -> None:
    np = pytest.importorskip("numpy", reason="the example needs the [rl] extra (numpy)")
    args = ["examples/selfplay_shards.py", "--shards", "2", "--hands", "1", "--worlds", "2",
            "--bot", "heuristic"]
    run_scripts((*args, "--out", str(tmp_path / "here")),
                (*args, "--out", str(tmp_path / "there"), "--cluster", cluster))
    for n in range(2):
        here = np.load(tmp_path / "here" / f"shard-{n:05d}.npz")
        there = np.load(tmp_path / "there" / f"shard-{n:05d}.npz")
        assert sorted(here) == sorted(there) == ["best", "chosen", "hand", "mask", "obs",
                                                 "phase", "seat", "value"]
        assert len(here["obs"]) > 0 and here["obs"].shape[0] == here["value"].shape[0]
        for key in here:
            assert np.array_equal(here[key], there[key], equal_nan=key == "value"), key


def missing_for_rllib() -> list[str]:
    """The packages ``ray[rllib]`` and the example need that are not installed (by metadata:
    importing RLlib to find out costs seconds)."""
    from importlib.metadata import PackageNotFoundError, distribution, requires

    from packaging.requirements import Requirement

    needed = [Requirement("torch")]
    for text in requires("ray") or []:
        requirement = Requirement(text)
        if requirement.marker is not None and requirement.marker.evaluate({"extra": "rllib"}) \
                and not requirement.marker.evaluate({"extra": ""}):
            needed.append(requirement)
    missing = []
    for requirement in needed:
        try:
            distribution(requirement.name)
        except PackageNotFoundError:
            missing.append(requirement.name)
    return sorted(set(missing))


def test_the_rllib_example_trains_on_the_cluster(cluster: str) -> None:
    # RLlib (ray[rllib]: pandas, pyarrow, scipy, ...) is not in the test lock; run where installed.
    missing = missing_for_rllib()
    if missing:
        pytest.skip(f"RLlib's packages are not installed ({', '.join(missing)}): "
                    "examples/rllib_multiagent.py needs pip install 'ray[rllib]' torch==2.13.0")
    out = run_script("examples/rllib_multiagent.py", "--iterations", "1", "--batch", "128",
                     "--cluster", cluster)
    assert "iteration 1:" in out and "team_0" in out and "team_1" in out, out
