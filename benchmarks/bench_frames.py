"""The server's cost of sending one action's events to a table's readers, without sockets.

Since a seat's copy of an action's event carries that seat's own view (issue 29), every copy
holds a whole view. This times, per action, the work ``Room._flush`` does for four seats and
one spectator: ``Table.cut`` for each reader, then its frame —

* ``per copy``: each copy encoded whole (``json.dumps(copy.to_dict())``, what the room did
  before ``server/frames.py``);
* ``shared``: ``frames.EventFrames``, the view's public part encoded once per event and each
  copy's own part beside it (what the room does now).

Both build the very same frames (checked here, and by tests/test_server_frames.py). The games
are seeded, so every run times the same actions; medians of ``--repeat`` runs are printed with
their ratio. The machine is shared: only the ratio means much.

    .venv/bin/python benchmarks/bench_frames.py --variant auction --actions 2000 --repeat 5
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable

import pitchcards as pc
from pitchcards.events import Event
from pitchcards.server.frames import EventFrames
from pitchcards.table import Table

NAMES = ["Ann", "Bob", "Cy", "Dee"]


def _whole(event: Event, copy: Event) -> str:
    return '{"type":"event","event":' + json.dumps(copy.to_dict(), separators=(",", ":")) + "}"


def record(variant: str, actions: int, seed: int) -> list[tuple[Table, list[Event]]]:
    """Seeded games of random legal play: each action's events, with their table."""
    rules = pc.find_variant(variant)
    out: list[tuple[Table, list[Event]]] = []
    rng = random.Random(seed)
    done = 0
    while done < actions:
        if rules.money != "none":
            session: pc.Match | pc.MoneySession = pc.MoneySession(rules, NAMES, dealer=0,
                                                                  seed=rng.getrandbits(32))
        else:
            session = pc.Match(rules, players=4, dealer=0, seed=rng.getrandbits(32))
        table = Table(session, auto_deal=False)
        new: list[Event] = []
        table.subscribe(new.append)
        for _ in range(400):  # a few hands of each game
            if table.is_over or done >= actions:
                break
            if not table.in_hand:
                table.deal()
            else:
                seat = table.to_act
                assert seat is not None
                table.push(rng.choice(table.view(seat).legal_actions), seat)
                done += 1
            out.append((table, new[:]))
            new.clear()
    return out


def send(changes: list[tuple[Table, list[Event]]], shared: bool) -> tuple[float, list[str]]:
    """Seconds to build every reader's frame of every change, and the frames."""
    frames: list[str] = []
    start = time.perf_counter()
    for table, events in changes:
        names = table.names
        readers = [None, *names]
        for event in events:
            encode: Callable[[Event, Event], str]
            if shared:
                maker = EventFrames(event)
                encode = lambda _e, copy, m=maker: m.frame(copy)  # noqa: E731
            else:
                encode = _whole
            for who in readers:
                frames.append(encode(event, table.cut(event, who)))
    return time.perf_counter() - start, frames


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="auction")
    parser.add_argument("--actions", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    changes = record(args.variant, args.actions, args.seed)
    events = sum(len(e) for _, e in changes)
    times: dict[bool, list[float]] = {False: [], True: []}
    old: list[str] = []
    for _ in range(args.repeat):
        for shared in (False, True):  # interleaved: the machine's load hits both alike
            seconds, frames = send(changes, shared)
            times[shared].append(seconds)
            if not shared:
                old = frames
            elif [json.loads(f) for f in frames] != [json.loads(f) for f in old]:
                raise SystemExit("the shared encoding built other frames than the whole one")
    kb = sum(len(f) for f in old) / 1024
    per = {s: statistics.median(t) / args.actions * 1e3 for s, t in times.items()}
    print(f"{args.variant}: {args.actions} actions, {events} events, 5 readers each "
          f"(4 seats, a spectator), {kb:.0f} KB of frames; median of {args.repeat} runs")
    print("| encoding | ms per action (median) | ratio |\n|---|---|---|")
    print(f"| per copy (before) | {per[False]:.3f} | 1.00 |")
    print(f"| shared (now) | {per[True]:.3f} | {per[True] / per[False]:.2f} |")


if __name__ == "__main__":
    main()
