"""``pitch tournament``: a duplicate, Swiss or progressive event played out by bots.

The director's side without a server: the formats of this package, every seat played by a bot
(the entrants are named by their bot, cycling through ``--bots``), the barometer printed after
each duplicate round and the standings at the end.  Everything comes from ``--seed``: the
boards, the bots' own seeds, the lots.  A Swiss or progressive round is ``--boards`` hands at
every table, dealt from the same seeds at every table of the round (the same cards at tables of
the same size); a table's result is each side's total score change over them.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import IO, Any

from ..bots import BOTS, make_bot
from ..errors import OptionError, shown
from ..rules import VARIANTS, RuleSet, find_variant
from .boards import Board, make_boards, play_board
from .duplicate import Duplicate
from .errors import TournamentError
from .progressive import Progressive
from .scoring import Standing
from .seeding import derive_seed
from .swiss import Swiss

__all__ = ["add_tournament_parser", "bot_entrants", "play_duplicate_round", "play_table",
           "run_tournament"]


#: The formats ``pitch tournament`` plays.
FORMATS = ("duplicate", "swiss", "progressive")


def bot_entrants(count: int, bots: Sequence[str]) -> dict[str, str]:
    """``count`` entrants named after the bot that plays them (``heuristic 1``, ``random 2``,
    ...), the bots taken in turn; entrant -> bot name."""
    return {f"{bots[i % len(bots)]} {i + 1}": bots[i % len(bots)] for i in range(count)}


def _bots_for(seat_bots: Sequence[str], seed: int, *parts: object) -> list[Any]:
    return [make_bot(name, derive_seed(seed, "bot", *parts, seat))
            for seat, name in enumerate(seat_bots)]


def play_duplicate_round(event: Duplicate, rules: RuleSet, bot_of: dict[str, str],
                         round_: int) -> None:
    """Every board of ``round_`` played at every table by the entrants' bots, and recorded."""
    for play in event.schedule:
        if play.round != round_ or event.is_recorded(play.board.number, play.table):
            continue
        bots = _bots_for([bot_of[name] for name in play.seats], event.seed,
                         play.board.number, play.table)
        hand = play_board(rules, play.board, bots)
        assert hand.result is not None
        event.record(play.board.number, play.table, hand.result.deltas)


def play_table(rules: RuleSet, boards: Sequence[Board], seat_bots: Sequence[str], seed: int,
               *parts: object) -> list[int]:
    """``boards`` played at one table by bots (one name per seat): each side's total score
    change (a side is a partnership, or a seat each for himself)."""
    totals: list[int] = []
    for board in boards:
        hand = play_board(rules, board, _bots_for(seat_bots, seed, board.number, *parts))
        assert hand.result is not None
        totals = [a + b for a, b in zip(totals or [0] * len(hand.result.deltas),
                                        hand.result.deltas, strict=True)]
    return totals


def _seat_bots_for_sides(table: Sequence[str], bot_of: dict[str, str], pairs: bool) -> list[str]:
    """A table's bots by seat: two pairs hold seats 0 & 2 and 1 & 3; otherwise one a seat."""
    if pairs:
        first, second = bot_of[table[0]], bot_of[table[1]]
        return [first, second, first, second]
    return [bot_of[name] for name in table]


def run_tournament(fmt: str, *, entrants: int, bots: Sequence[str], rounds: int | None,
                   boards: int, seed: int, variant: str, cutthroat: bool = False,
                   odd_variant: str = "auction", out: IO[str]) -> list[Standing]:
    """Play a whole event between bots, printing as it goes to ``out``; the final standings."""
    if fmt not in FORMATS:
        raise TournamentError(f"unknown format {shown(fmt)}", given=shown(fmt), legal=FORMATS)
    for name in bots:
        if make_bot(name, 0).sees_all:  # make_bot checks the name itself
            raise TournamentError(f"{name} sees every card: no place in a tournament",
                                  given=shown(name), legal=tuple(
                                      b for b in sorted(BOTS) if not make_bot(b, 0).sees_all))
    rules = _rules(variant)
    if (fmt == "progressive" or not cutthroat) and rules.teams != 2:
        # Tournament tables are two pairs; three teams of six (TT1) have no movement yet.
        raise TournamentError(f"tables of two pairs need a two-team partnership variant, not "
                              f"{rules.name}", given=rules.name,
                              legal=tuple(n for n, v in VARIANTS.items() if v.teams == 2))
    bot_of = bot_entrants(entrants, bots)
    names = list(bot_of)
    if fmt == "duplicate":
        event = Duplicate(names, boards_per_round=boards, seed=seed, rounds=rounds,
                          movement="individual" if cutthroat else "mitchell",
                          partnership=rules.partnership_mode)
        _need(rules, 4, "a duplicate table")
        print(f"duplicate ({event.movement}): {len(names)} entrants at {event.tables} tables, "
              f"{event.rounds} rounds of {boards} boards, {rules.name}, seed {seed}", file=out)
        for r in range(event.rounds):
            play_duplicate_round(event, rules, bot_of, r)
            print(f"\nafter round {r + 1}:", file=out)
            _print(event.standings(through_round=r), out)
        return event.standings()
    if fmt == "swiss":
        swiss = Swiss(names, rounds=rounds or 3, table_size=4 if cutthroat else 2, seed=seed)
        print(f"Swiss ({'cutthroat' if cutthroat else 'pairs'}): {len(names)} entrants, "
              f"{swiss.rounds} rounds of {boards} hands, {rules.name}, seed {seed}", file=out)
        for r in range(swiss.rounds):
            seating = swiss.pair()
            deals = make_boards(derive_seed(seed, "swiss round", r), boards)
            results = [play_table(_table_rules(rules, odd_variant, len(t) if cutthroat else 4),
                                  deals, _seat_bots_for_sides(t, bot_of, not cutthroat), seed,
                                  r, t) for t in seating.tables]
            print(f"round {r + 1}: " + "; ".join(
                f"{' v '.join(t)} {' : '.join(f'{x:+d}' for x in p)}"
                for t, p in zip(seating.tables, results, strict=True))
                + "".join(f"; bye {b}" for b in seating.byes), file=out)
            swiss.record(results)
        print("\nstandings:", file=out)
        _print(swiss.standings(), out)
        return swiss.standings()
    # progressive
    night = Progressive(names, seed=seed)
    print(f"progressive: {len(names)} players, {rounds or 4} rounds of {boards} hands, "
          f"{rules.name} at fours, {odd_variant} at threes and fives, seed {seed}", file=out)
    for r in range(rounds or 4):
        deals = make_boards(derive_seed(seed, "progressive round", r), boards)
        night.record_round([play_table(_table_rules(rules, odd_variant, len(t)), deals,
                                       [bot_of[n] for n in t], seed, r, t)
                            for t in night.tables])
    print("\nstandings:", file=out)
    _print(night.standings(), out)
    return night.standings()


def _rules(variant: str) -> RuleSet:
    try:
        return find_variant(variant)
    except OptionError as exc:
        raise TournamentError(str(exc), given=shown(variant), legal=tuple(VARIANTS)) from None


def _need(rules: RuleSet, players: int, what: str) -> None:
    low, high = rules.player_range
    if not low <= players <= high:
        raise TournamentError(f"{what} seats {players}, and {rules.name} is for {low}-{high} "
                              f"players", given=rules.name,
                              legal=tuple(n for n, v in VARIANTS.items()
                                          if v.player_range[0] <= players
                                          <= v.player_range[1]))


def _table_rules(rules: RuleSet, odd_variant: str, seats: int) -> RuleSet:
    """The rules of a table of ``seats``: ``rules`` where they seat that many, else the
    odd-table variant (threes and fives); a table of four of pairs needs partnership rules."""
    low, high = rules.player_range
    chosen = rules if low <= seats <= high else _rules(odd_variant)
    _need(chosen, seats, f"a table of {seats}")
    return chosen


def _print(standings: Sequence[Standing], out: IO[str]) -> None:
    for line in standings:
        print(line.text(), file=out)


# ----------------------------------------------------------------------------- the command
def add_tournament_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``pitch tournament`` to a ``pitch`` command line's subparsers."""
    from ..argtypes import seed_number, whole_number

    p: argparse.ArgumentParser = subparsers.add_parser(
        "tournament", help="a duplicate, Swiss or progressive event between bots, with standings",
        description="Play a whole tournament between bots and print the standings "
                    "(docs/tournaments.md): duplicate (the barometer after every round), Swiss "
                    "or progressive Pitch.")
    p.add_argument("format", choices=FORMATS)
    p.add_argument("--entrants", type=whole_number(2, 400), default=6,
                   help="pairs (duplicate, Swiss) or players (--cutthroat, progressive); "
                        "default 6")
    p.add_argument("--bots", default="heuristic,random",
                   help="bots playing the entrants, in turn (default heuristic,random); known: "
                        + ", ".join(sorted(BOTS)))
    p.add_argument("--rounds", type=whole_number(1, 100), default=None,
                   help="rounds (default: every table for duplicate, 3 Swiss, 4 progressive)")
    p.add_argument("--boards", type=whole_number(1, 100), default=2,
                   help="boards per round (hands per round in Swiss and progressive; default 2)")
    p.add_argument("--variant", default=None,
                   help="rules (default auction-partners; auction with --cutthroat)")
    p.add_argument("--odd-variant", default="auction",
                   help="the rules at progressive tables of three and five (default auction)")
    p.add_argument("--cutthroat", action="store_true",
                   help="each for himself: the individual movement, or Swiss at threes and fours")
    p.add_argument("--seed", type=seed_number, default=0)
    p.set_defaults(func=_tournament_command)
    return p


def _tournament_command(args: argparse.Namespace) -> int:
    variant = args.variant or ("auction" if args.cutthroat else "auction-partners")
    bots = [b.strip().lower() for b in args.bots.split(",") if b.strip()]
    if not bots:
        raise TournamentError(f"--bots names no bot: {shown(args.bots)}", given=shown(args.bots),
                              legal=tuple(sorted(BOTS)))
    run_tournament(args.format, entrants=args.entrants, bots=bots, rounds=args.rounds,
                   boards=args.boards, seed=args.seed, variant=variant, cutthroat=args.cutthroat,
                   odd_variant=args.odd_variant, out=sys.stdout)
    return 0
