"""Run by tests/test_fast_path.py in a child process, once per build (``PITCHCARDS_PURE`` set or
not): plays seeded random hands of every variant under random option mixes and prints, per
hand, a SHA-256 of everything observable at every step (the legal action list, the state, the
views, push/pop/copy agreement, the result), then the expert's decision digest.  The parent
compares the two processes' output line by line.

    python tests/fast_trace.py HANDS [expert]
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import pitchcards as pc
from pitchcards.hand import Hand
from test_properties import OPTION_CHOICES, TEN_POINT_CHOICES, VARIANT_NAMES


def random_rules(rng: random.Random) -> pc.RuleSet:
    """A variant with a random mix of its options (the choices of tests/test_properties.py)."""
    rules = pc.find_variant(VARIANT_NAMES[rng.randrange(len(VARIANT_NAMES))])
    changes = {name: rng.choice(values) for name, values in OPTION_CHOICES.items()
               if rng.random() < 0.5}
    if rules.is_ten_point:
        changes |= {name: rng.choice(values) for name, values in TEN_POINT_CHOICES.items()
                    if rng.random() < 0.5}
        if changes.get("hand_size", 9) * rules.max_players > changes.get("deck", 54):
            changes["max_players"] = changes.get("deck", 54) // changes.get("hand_size", 9)
            changes["min_players"] = min(rules.min_players, changes["max_players"])
    return rules.replace(**changes)


def state(h: Hand, step: int) -> str:
    """Everything the public API says about a position: every seat's hand, discards, captures
    and tricks, and one reader's view (the spectator and each seat in turn, by ``step``), so
    every reader's view is compared every few steps and all of them at the end.  (Every view at
    every step was three quarters of the trace's time; the views are pure Python in both
    builds, made from the accessors hashed here at every step.)"""
    seats = range(h.players)
    readers = (None, *seats)
    return repr((h.phase, h.seat_to_act, h.pitcher, h.contract, h.trump, h.result, h.dealt,
                 [h.hand_of(s) for s in seats], [h.discarded(s) for s in seats],
                 [h.captured(s) for s in seats], [h.tricks_won(s) for s in seats],
                 h.current_trick(), h.completed_tricks(), h.view(readers[step % len(readers)])))


def trace_hand(seed: int) -> str:
    rng = random.Random(seed)
    rules = random_rules(rng)
    low, high = rules.player_range
    players = rng.randint(low, high)
    h = Hand.deal(rules, players, dealer=rng.randrange(players), seed=seed)
    digest = hashlib.sha256(repr(rules).encode())
    step = 0
    while not h.is_over:
        legal = h.legal_actions()
        digest.update(repr([(int(a), str(a)) for a in legal]).encode())
        digest.update(state(h, step).encode())
        action = legal[rng.randrange(len(legal))]
        if rng.random() < 0.2:  # push, pop and copy agree
            before = state(h, step)
            twin = h.copy()
            h.push(action)
            twin.push_unchecked(action)
            assert state(twin, step + 1) == state(h, step + 1), f"copy differs, seed {seed}"
            assert h.pop() == action and state(h, step) == before, f"pop differs, seed {seed}"
        h.push(action)
        step += 1
    digest.update(repr(h.result).encode())
    digest.update(repr([h.view(s) for s in (None, *range(h.players))]).encode())
    return digest.hexdigest()


def expert_digest() -> str:
    """expert-v1's decisions on tests/test_expert_v1.py's positions, clock off."""
    from pitchcards.bots.expert import EXPERT_V1, ExpertV1Bot
    from test_expert_v1 import _views

    clockless = dataclasses.replace(EXPERT_V1, time_limit=1e9)
    lines = [f"{where} {ExpertV1Bot(i, clockless).choose(view)}"
             for i, (where, view) in enumerate(_views())]
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


def main() -> None:
    hands = int(sys.argv[1])
    print(json.dumps({"build": pc.fast_path()}))
    for seed in range(hands):
        print(json.dumps({"seed": seed, "digest": trace_hand(seed)}))
    if "expert" in sys.argv[2:]:
        print(json.dumps({"expert": expert_digest()}))


if __name__ == "__main__":
    main()
