"""The ``pitch`` command.  Subcommands: ``demo`` (play a match between simple players and print
it) and ``replay FILE`` (print the hands of a game record with their results)."""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence

from .cards import format_cards
from .match import Match
from .rules import VARIANTS, find_variant


def _demo(args: argparse.Namespace) -> int:
    rules = find_variant(args.variant)
    players = args.players or (4 if rules.player_range[0] <= 4 <= rules.player_range[1]
                               else rules.player_range[0])
    match = Match(rules, players=players, dealer=None, seed=args.seed)
    rng = random.Random(args.seed)
    print(f"{rules.name}: {players} players, target {rules.target}, seed {args.seed}")
    while match.winner is None and len(match.results) < args.hands:
        hand = match.deal()
        print(f"\nhand {len(match.results) + 1}, dealer seat {hand.dealer}")
        for seat in range(players):
            print(f"  seat {seat}: {format_cards(hand.hand_of(seat), symbols=True)}")
        while hand.seat_to_act is not None:
            seat = hand.seat_to_act
            action = rng.choice(hand.legal_actions())
            match.push(action)
            if action.kind != "play":
                print(f"  seat {seat}: {action}")
        result = match.results[-1]
        print("  " + result.summary())
        print(f"  scores {match.scores}")
    if match.winner is not None:
        print(f"\nside {match.winner} wins after {len(match.results)} hands")
    return 0


def _replay(args: argparse.Namespace) -> int:
    from .notation import replay_text

    if args.file == "-":
        text = sys.stdin.read()
    else:
        with open(args.file, encoding="utf-8") as f:
            text = f.read()
    sys.stdout.write(replay_text(text))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pitch", description="The card game Pitch.")
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help="play a quick match between random players and print it")
    demo.add_argument("--variant", default="auction", choices=sorted(VARIANTS))
    demo.add_argument("--players", type=int, default=None)
    demo.add_argument("--seed", type=int, default=1)
    demo.add_argument("--hands", type=int, default=20, help="stop after this many hands")
    demo.set_defaults(func=_demo)
    replay = sub.add_parser("replay", help="print the hands of a game record and their results")
    replay.add_argument("file")
    replay.set_defaults(func=_replay)
    from .bots.arena import add_arena_parser

    add_arena_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except (ValueError, OSError) as exc:
        print(f"pitch: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
