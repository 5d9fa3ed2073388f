"""Ctrl+C ends ``pitch arena --cluster`` even when the interrupt is lost (arena.py
``_ctrl_c_ends_within``): a CI run of 2026-12-07 saw a driver on a Ray cluster go on playing
after Ctrl+C.  Here a child process loses every KeyboardInterrupt on purpose, as Ray did, and
must still exit with 130 and its message; when the interrupt is not lost, the clock is stopped
with the block and the process goes on as it chooses."""

from __future__ import annotations

import subprocess
import sys

from helpers import interrupted

#: Only catches a hang: the child's own clock is 0.5 s.
PATIENCE = 60.0

LOSES_EVERY_INTERRUPT = """
import time
from pitchcards.bots.arena import _ctrl_c_ends_within
with _ctrl_c_ends_within(0.5, "stopped anyway"):
    while True:
        try:  # "ready" inside the try: the one Ctrl+C lands in it, never between two turns
            print("ready", flush=True)
            time.sleep(3600)
        except KeyboardInterrupt:
            pass
"""

STOPS_AT_ONCE = """
import sys, time
from pitchcards.bots.arena import _ctrl_c_ends_within
try:
    with _ctrl_c_ends_within(0.5, "stopped anyway"):
        print("ready", flush=True)
        while True:
            time.sleep(0.05)
except KeyboardInterrupt:
    print("interrupted", file=sys.stderr, flush=True)
time.sleep(1.5)  # three times the clock: it was stopped with the block, or this exits 130
"""


def _interrupted(child_code: str) -> subprocess.CompletedProcess[str]:
    child = subprocess.Popen([sys.executable, "-c", child_code], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)

    def ready() -> None:
        assert child.stdout is not None
        assert child.stdout.readline() == "ready\n"
    out, err = interrupted(child, ready, PATIENCE)
    return subprocess.CompletedProcess(child.args, child.returncode, out, err)


def test_an_interrupt_lost_on_the_way_still_ends_the_arena_with_130() -> None:
    done = _interrupted(LOSES_EVERY_INTERRUPT)
    assert done.returncode == 130, done.stderr
    assert done.stderr.strip() == "stopped anyway"


def test_an_interrupt_that_arrives_stops_the_clock_with_the_block() -> None:
    done = _interrupted(STOPS_AT_ONCE)
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip() == "interrupted"
