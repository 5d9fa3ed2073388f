"""Self-play data across a Ray cluster: positions and the expert's evaluations, in NPZ shards.

    .venv/bin/python examples/selfplay_shards.py --out data/selfplay --shards 8 --hands 25
    .venv/bin/python examples/selfplay_shards.py --out data/selfplay --cluster auto
    .venv/bin/python examples/selfplay_shards.py --out data/selfplay --cluster ray://head:10001

Needs the ``[rl]`` extra (numpy, for the encoder and the files) and, with ``--cluster``, the
``[cluster]`` extra (Ray).  Without ``--cluster`` the shards are made one after another here.

Each shard is one job, seeded by its number: ``--hands`` hands of ``--variant`` dealt from that
seed and played by ``--bot`` in every seat.  At every decision with more than one legal action
the seat's view is encoded (``pitchcards.envs.encoding.Encoder``: what that seat may know, the
observation the Gymnasium and PettingZoo environments give) and weighed by the expert's own
machinery (``pitchcards.analysis.analyse_decision``: every candidate valued over ``--worlds``
sampled deals, in points of net score for the seat's side).  A shard ``shard-00003.npz`` holds:

* ``obs``: float32, decisions x observation size;
* ``mask``: int8, decisions x action size (1 where the action is legal);
* ``value``: float32, decisions x action size: the expert's value of each action it weighed
  (NaN elsewhere: an action it did not weigh, or an illegal one);
* ``chosen``: int16, the action the bot played; ``best``: int16, the expert's best;
* ``phase``: int8 (0 auction, 1 play, 2 declare, 3 discard), ``seat``: int8, ``hand``: int32.

What travels to a worker is the job's number and the settings (ints and names); what comes back
is the arrays, written here by the driver, so the workers need no shared disk.  NPZ rather than
Parquet: the arrays are fixed-width numbers that numpy (already in ``[rl]``) writes and
``np.load`` reads into any framework, while Ray Data's Parquet writer would bring pyarrow and
pandas (over 100 MB) into the extra for no gain here.  A shard already on disk is skipped, so a
stopped run picks up where it was.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

import pitchcards as pc
from pitchcards.analysis import AnalysisBudget, analyse_decision
from pitchcards.bots import make_bot
from pitchcards.envs.encoding import Encoder, action_mask, action_size
from pitchcards.views import view_of

PHASES = {"auction": 0, "play": 1, "declare": 2, "discard": 3}


def make_shard(job: tuple[int, str, str, int, int]) -> dict[str, Any]:
    """One shard's arrays: ``hands`` hands dealt from seed ``number``, played by ``bot``."""
    number, variant, bot, hands, worlds = job
    rules = pc.find_variant(variant)
    players = rules.default_players
    encoder = Encoder(rules, players)
    size = action_size(rules)
    budget = AnalysisBudget(worlds, worlds)
    bots = [make_bot(bot, seed=1000 * number + s) for s in range(players)]
    rows: dict[str, list[Any]] = {k: [] for k in ("obs", "mask", "value", "chosen", "best",
                                                  "phase", "seat", "hand")}
    for k in range(hands):
        hand = pc.Hand.deal(rules, players, dealer=k % players, seed=100_000 * number + k)
        while not hand.is_over:
            seat = hand.seat_to_act
            assert seat is not None
            view = view_of(hand, seat)
            action = bots[seat].choose(view)
            if len(view.legal_actions) > 1:
                rng = random.Random(f"{number}/{k}/{len(rows['hand'])}")
                decision = analyse_decision(view, action, rng, budget)
                value = np.full(size, np.nan, dtype=np.float32)
                for c in decision.candidates:
                    value[int(c.action)] = c.value
                rows["obs"].append(encoder.encode(view))
                rows["mask"].append(action_mask(view))
                rows["value"].append(value)
                rows["chosen"].append(int(action))
                rows["best"].append(int(decision.best))
                rows["phase"].append(PHASES[view.phase])
                rows["seat"].append(seat)
                rows["hand"].append(k)
            hand.push(action)
    kinds = {"obs": np.float32, "mask": np.int8, "value": np.float32, "chosen": np.int16,
             "best": np.int16, "phase": np.int8, "seat": np.int8, "hand": np.int32}
    return {"number": number,
            **{k: np.asarray(v, dtype=kinds[k]) for k, v in rows.items()}}


def write_shard(out: Path, shard: dict[str, Any]) -> Path:
    path = out / f"shard-{shard.pop('number'):05d}.npz"
    partial = path.with_suffix(".partial.npz")
    np.savez_compressed(partial, **shard)
    partial.replace(path)  # a shard on disk is whole
    return path


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, required=True, help="folder for the shards")
    ap.add_argument("--shards", type=int, default=8)
    ap.add_argument("--hands", type=int, default=25, help="hands per shard")
    ap.add_argument("--variant", default="auction-partners")
    ap.add_argument("--bot", default="expert", help="who plays every seat (default expert)")
    ap.add_argument("--worlds", type=int, default=48,
                    help="sampled deals per evaluated decision (default 48, the expert's)")
    ap.add_argument("--cluster", default=None, metavar="ADDRESS",
                    help="make the shards on a Ray cluster: auto, ray://HOST:PORT or HOST:PORT")
    a = ap.parse_args(argv)
    a.out.mkdir(parents=True, exist_ok=True)
    todo = [(n, a.variant, a.bot, a.hands, a.worlds) for n in range(a.shards)
            if not (a.out / f"shard-{n:05d}.npz").exists()]
    start = time.perf_counter()
    written = 0
    if a.cluster is None:
        for job in todo:
            print(write_shard(a.out, make_shard(job)), flush=True)
            written += 1
    else:
        from pitchcards.bots.ray_cluster import as_completed, connected

        with connected(a.cluster) as cpus:
            # The shards come back as they are made, in any order; each is written at once.
            for shard in as_completed(make_shard, todo, 2 * cpus):
                print(write_shard(a.out, shard), flush=True)
                written += 1
    print(f"{written} shards written, {a.shards - len(todo)} already there, "
          f"{time.perf_counter() - start:.1f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
