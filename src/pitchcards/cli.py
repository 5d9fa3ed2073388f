"""The ``pitch`` command.  Subcommands: ``demo`` (play a match between simple players and print
it), ``replay FILE`` (print the hands of a game record with their results) and ``analyze FILE``
(weigh every bid and card of a record, :mod:`pitchcards.analysis`)."""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from . import __version__
from ._fast import fast_path
from .argtypes import add_token_argument, api_token, seed_number, whole_number
from .bots import make_bot
from .cards import format_cards
from .errors import OptionError
from .events import ActionTaken, HandDealt, HandScored, MatchWon
from .match import Match
from .rules import VARIANTS, RuleSet, find_variant
from .storage import read_text
from .table import Table

if TYPE_CHECKING:
    from .tui.config import GameConfig


def _demo(args: argparse.Namespace) -> int:
    rules = find_variant(args.variant)
    low, high = rules.player_range
    players = args.players if args.players is not None else rules.default_players
    if not low <= players <= high:
        print(f"pitch demo: {rules.name} is played by {low} to {high} players, not {players}",
              file=sys.stderr)
        return 2
    # The demo is the one game loop at work: random bots at every seat of a Table, and what
    # happened printed from its events (the spectator's copy, plus the deal to show the cards).
    match = Match(rules, players=players, dealer=None, seed=args.seed)
    seed = args.seed if args.seed is not None else random.randrange(10**9)
    table = Table(match, bots={s: make_bot("random", seed=seed * 31 + s) for s in range(players)})
    print(f"{rules.name}: {players} players, target {rules.target}, seed {args.seed}")
    while not table.is_over and len(match.results) < args.hands:
        seen = table.seq
        table.advance(stop_at_hand_end=True)
        for event in table.events(None, after=seen):
            if isinstance(event, HandDealt):
                hand = match.hands[event.hand]
                print(f"\nhand {event.hand + 1}, dealer seat {event.dealer}")
                for seat in range(players):  # the demo shows every hand: it is nobody's game
                    print(f"  seat {seat}: {format_cards(hand.dealt[seat], symbols=True)}")
            elif isinstance(event, ActionTaken) and not event.action.startswith("play"):
                print(f"  seat {event.seat}: {event.action}")
            elif isinstance(event, HandScored):
                print("  " + event.result.summary())
                print(f"  scores {list(event.scores)}")
            elif isinstance(event, MatchWon):
                print(f"\nside {event.winner} wins after {len(match.results)} hands")
    return 0


def _replay(args: argparse.Namespace) -> int:
    from .notation import replay_text

    sys.stdout.write(replay_text(_read_record_arg(args.file)))
    return 0


def _read_record_arg(name: str) -> str:
    """A record's text from a file name, or from standard input for ``-``."""
    if name == "-":
        return read_text("standard input", stream=getattr(sys.stdin, "buffer", sys.stdin))
    return read_text(name)


def _analyze(args: argparse.Namespace) -> int:
    """``pitch analyze``: the analysis of a record, as text or JSON; progress on a terminal."""
    import json

    from .analysis import AnalysisBudget, analyse_record
    from .analysis_text import report
    from .notation import read_record

    record = read_record(_read_record_arg(args.file))
    budget = AnalysisBudget() if args.budget is None else AnalysisBudget(args.budget, args.budget)
    show = sys.stderr.isatty()

    def progress(done: int, total: int) -> None:
        end = "\n" if done == total else ""
        print(f"\ranalysing: decision {done} of {total}", end=end, file=sys.stderr, flush=True)

    analysis = analyse_record(record, budget, args.seed, seats=args.seat, hands=args.hand,
                              progress=progress if show else None)
    if args.json:
        sys.stdout.write(json.dumps(analysis.to_dict(), ensure_ascii=False, indent=1) + "\n")
    else:
        sys.stdout.write(report(analysis))
    return 0


def _add_analyze_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    analyze = sub.add_parser(
        "analyze", help="weigh every bid and card of a game record from each player's view",
        description="For every decision of a record (a finished hand, match or money session): "
                    "each candidate's expected net score change from that seat's own view "
                    "(sampled deals, never the hidden cards), the loss against the best, "
                    "labelled inaccuracy, mistake or blunder only beyond the sampling noise; "
                    "then a summary per player. Deterministic for a record, budget and seed.")
    analyze.add_argument("file", help="the record (- for standard input)")
    analyze.add_argument("--json", action="store_true", help="the analysis as JSON")
    analyze.add_argument("--seat", type=whole_number(0), action="append", default=None,
                         help="only this seat's decisions (repeatable)")
    analyze.add_argument("--hand", type=whole_number(1), action="append", default=None,
                         help="only this hand (1-based, repeatable)")
    analyze.add_argument("--budget", type=whole_number(2, 100_000), default=None,
                         metavar="DEALS", help="sampled deals per decision (default 128)")
    analyze.add_argument("--seed", type=seed_number, default=0,
                         help="the seed of the sampled deals (default 0)")
    analyze.set_defaults(func=_analyze)


#: Rule options with their own ``pitch play`` flag (any other: ``--option NAME=VALUE``).
_PLAY_OPTIONS = ("low_to", "follow_rule", "dealer_steal", "all_pass", "game_tie", "win_rule",
                 "moon", "min_bid", "auction", "average_mode")


def _play(args: argparse.Namespace) -> int:
    """``pitch play``: the terminal game (Textual is imported only here)."""
    from .tui.config import GameConfig, parse_bots, parse_option

    options = dict(parse_option(text) for text in args.option)
    for name in _PLAY_OPTIONS:
        value = getattr(args, name)
        if value is not None:
            options[name] = value
    if args.partners:
        options["partnership"] = "2x2"
    config = GameConfig(variant=args.variant, players=args.players, target=args.target,
                        seed=args.seed, practice=args.practice, options=options)
    if args.old_host:  # the old spelling: pitch serve's --host is the address it listens on
        print("pitch play: --host URL is now --new-table URL (--host still works for now; "
              "pitch serve --host is the address the server listens on)", file=sys.stderr)
        args.host = args.host or args.old_host
    if args.join or args.host:
        return _play_online(args, config)
    try:
        config.rules()
        if args.bots and "," not in args.bots and "=" not in args.bots:
            config.level = parse_bots(args.bots, 1)[0]
        elif args.bots:
            config.bots = tuple(parse_bots(args.bots, config.table() - 1, config.level))
        if not args.resume:
            config.check()
    except OptionError as exc:
        print(f"pitch play: {exc}", file=sys.stderr)
        return 2
    try:
        from .tui.app import run
    except ImportError as exc:  # pragma: no cover - Textual missing
        print(f"pitch play needs Textual ({exc}): pip install 'pitchcards'", file=sys.stderr)
        return 2
    return run(config, resume=args.resume, setup=args.setup, pace=args.pace)


def _play_online(args: argparse.Namespace, config: GameConfig) -> int:
    """``pitch play --new-table URL`` / ``--join INVITE``: the table screen at a server's
    table."""
    import asyncio

    import httpx

    from .client import ServerError
    from .tui.remote import RemoteGame, host_table, join_table, server_of, table_config

    if args.join and args.host:
        print("pitch play: --join and --new-table do not go together: join a table, or open "
              "one", file=sys.stderr)
        return 2
    if args.ranked and not args.host:
        print("pitch play: --ranked goes with --new-table (a table you join is ranked or not "
              "as its host made it)", file=sys.stderr)
        return 2
    from .tui.tournament_join import tournament_of

    if args.join and tournament_of(args.join):
        return _play_tournament(args)
    try:
        if args.host:
            config.check()
            seat = asyncio.run(host_table(args.host.rstrip("/"), config, args.name or "Host",
                                          args.bots, ranked=args.ranked,
                                          api_token=api_token(args)))
            info = None
            print(f"Your table is open. Invite friends with this link:\n\n  {seat.invite_url}"
                  f"\n\nThey run: pitch play --join {seat.invite_url}\n"
                  f"      or: pitch bot --join {seat.invite_url} --level expert\n", flush=True)
        else:
            server = server_of(args.join, args.server)
            seat, info = asyncio.run(join_table(args.join, server, args.name, args.seat,
                                                api_token(args)))
            config = table_config(info)
    except (OptionError, ServerError) as exc:
        print(f"pitch play: {exc}", file=sys.stderr)
        return 2
    except (OSError, httpx.HTTPError) as exc:
        return _unreachable(exc)
    from .tui.online import run_online

    game = RemoteGame(seat, config, info, invite_url=seat.invite_url or (
        args.join if args.join and "/" in args.join else None))
    return run_online(game, pace=args.pace)


def _unreachable(exc: Exception) -> int:
    print(f"pitch play: cannot reach the server ({type(exc).__name__}: {exc})",
          file=sys.stderr)
    return 2


def _play_tournament(args: argparse.Namespace) -> int:
    """``pitch play --join <tournament link> --name NAME [--partner NAME]``: register (or come
    back), then the table screen at your table each round (docs/tournaments.md)."""
    import asyncio

    import httpx

    from .client import Client, Seat, ServerError
    from .tui.online import run_online
    from .tui.remote import RemoteGame, table_config
    from .tui.tournament_join import play_tournament

    if not args.name:
        print("pitch play: a tournament needs your name: --name NAME (and --partner NAME in "
              "an event of pairs)", file=sys.stderr)
        return 2

    def sit(seat: Seat) -> int:
        async def table() -> dict[str, Any]:
            async with Client(seat.server) as api:
                return await api.table(seat.table)

        info = asyncio.run(table())
        return run_online(RemoteGame(seat, table_config(info), info), pace=args.pace)

    names = [args.name, *([args.partner] if args.partner else [])]
    try:
        return play_tournament(args.join, names, sit, lambda text: print(text, flush=True),
                               server=args.server, invite=args.invite)
    except ServerError as exc:
        print(f"pitch play: {exc}", file=sys.stderr)
        return 2
    except (OSError, httpx.HTTPError) as exc:
        return _unreachable(exc)
    except KeyboardInterrupt:
        print("\npitch play: left the tournament (a bot plays your seat; --join again with "
              "the same --name to come back)", file=sys.stderr)
        return 130


def _add_play_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    play = sub.add_parser(
        "play", help="play Pitch in the terminal against bots, or at a server's table",
        description="A full-screen game of Pitch against bots. Keys: in the auction p, 1-4, m "
                    "choose a bid (arrows: a card to pitch) and Enter makes it; in play arrows "
                    "or 1-6 choose a card and Enter plays it; ten-point: 4-9 and 0 choose "
                    "bids 4-10, 1-4 choose the trump suit you name, arrows or 1-9 a card to "
                    "discard face down; h hint; u undo; t last trick; "
                    "f pace; g score sheet; i statistics; l log; ? rules; n new game; q quit "
                    "(offers to save); at a match's end, a analyses every bid and card.")
    play.add_argument("--variant", default="auction", choices=sorted(VARIANTS))
    play.add_argument("--players", type=whole_number(1), default=None,
                      help="seats at the table, you included")
    play.add_argument("--bots", default=None, metavar="LEVEL",
                      help="bot level (easy, medium, hard, expert), or one per seat: "
                           "hard,easy,medium or 1=hard,3=easy")
    play.add_argument("--target", type=whole_number(1), default=None,
                      help="points to win (not in money)")
    play.add_argument("--seed", type=seed_number, default=None, help="deal reproducibly")
    play.add_argument("--resume", metavar="FILE", default=None, help="continue a saved game")
    play.add_argument("--practice", action="store_true",
                      help="mark the game as practice (undo, u, works in every game)")
    from .tui.pace import PACES

    play.add_argument("--pace", default=None, choices=tuple(PACES),
                      help="how long a finished trick stays on the table (wait: until Enter); "
                           "remembered for the next games (f changes it while playing)")
    play.add_argument("--setup", action="store_true", help="open the setup screen first")
    play.add_argument("--partners", action="store_true",
                      help="two partnerships (seats 0 & 2 against 1 & 3; 4 players)")
    for name in _PLAY_OPTIONS:
        play.add_argument("--" + name.replace("_", "-"), dest=name, default=None,
                          type=type(RuleSet.OPTION_CHOICES[name][0]),
                          choices=RuleSet.OPTION_CHOICES[name], help="rule option")
    play.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                      help="any other rule option (see docs/rules.md), e.g. target=11")
    online = play.add_argument_group(
        "at a server table (pitch serve)",
        "--new-table URL opens a table there and shows its invite; --join INVITE sits down by "
        "it. With --new-table, --bots LEVEL is the level of the bots that take the seats still "
        "open when you start (s), and --bots SEAT=LEVEL,... seats bots from the start.")
    online.add_argument("--join", default=None, metavar="INVITE",
                        help="take a seat by an invite URL (or code) and play there; or a "
                             "tournament's link (…/tournaments/ID): enter it with --name "
                             "(and --partner) and play at your table each round")
    online.add_argument("--new-table", dest="host", default=None, metavar="URL",
                        help="create a table on the server at URL (e.g. http://127.0.0.1:8000); "
                             "you host it")
    online.add_argument("--host", dest="old_host", default=None, metavar="URL",
                        help="the old spelling of --new-table (deprecated: pitch serve --host "
                             "is the address the server listens on)")
    online.add_argument("--server", default=None, metavar="URL",
                        help="with --join: the server (default: the invite URL's)")
    online.add_argument("--name", default=None,
                        help="your display name at the table (default: Host, or Guest)")
    online.add_argument("--partner", default=None,
                        help="with --join <tournament link>: your partner's name, in an "
                             "event of pairs")
    online.add_argument("--invite", default=None, metavar="CODE",
                        help="with --join <tournament link>: the code of a tournament whose "
                             "entry is by invite (or the link's ?invite=CODE)")
    add_token_argument(online)
    online.add_argument("--ranked", action="store_true",
                        help="with --new-table: a ranked table, rated at the match's end "
                             "(needs --token or $PITCH_TOKEN; its variant's own rules, a turn "
                             "timer; see docs/accounts.md)")
    online.add_argument("--seat", type=whole_number(0), default=None,
                        help="with --join: the seat you want, counted from 0 as every "
                             "command's --seat (the screens number seats from 1: --seat 1 is "
                             "the second); default: the first free one")
    play.set_defaults(func=_play)


def _score(args: argparse.Namespace) -> int:
    """``pitch score``: keep the score of a real table (Textual is imported only here)."""
    try:
        from .tui.score_app import score_main
    except ImportError as exc:  # pragma: no cover - Textual missing
        print(f"pitch score needs Textual ({exc}): pip install 'pitchcards'", file=sys.stderr)
        return 2
    return score_main(args.names, args.variant, args.stake, args.option, args.resume)


def _add_score_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    score = sub.add_parser(
        "score", help="keep the score of a real table's Pitch (hands entered by their outcome)",
        description="A score sheet for Pitch played with real cards: enter each hand by who "
                    "bid what, trump and who took High, Low, Jack and Game; players join and "
                    "leave; the money is settled in the fewest payments. Saved as it goes.")
    score.add_argument("names", nargs="*", help="the players in seat order, the first dealer "
                       "first (none: the setup form, or the last open sheet)")
    score.add_argument("--variant", default="money", choices=sorted(VARIANTS))
    score.add_argument("--stake", help="dollars per point in the money game (e.g. 0.25)")
    score.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                       help="a rules option (as for pitch play), e.g. moon_payment=0.50")
    score.add_argument("--resume", nargs="?", const="", default=None, metavar="FILE",
                       help="go on with the last open sheet (or FILE)")
    score.set_defaults(func=_score)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pitch", description="The card game Pitch.")
    # Issue 35: which build runs, the compiled fast path or pure Python (and why).
    parser.add_argument("--version", action="version",
                        version=f"pitch {__version__}, {fast_path()}")
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help="play a quick match between random players and print it")
    demo.add_argument("--variant", default="auction", choices=sorted(VARIANTS))
    demo.add_argument("--players", type=whole_number(1), default=None)
    demo.add_argument("--seed", type=seed_number, default=1)
    demo.add_argument("--hands", type=whole_number(1), default=20,
                      help="stop after this many hands")
    demo.set_defaults(func=_demo)
    replay = sub.add_parser("replay", help="print the hands of a game record and their results")
    replay.add_argument("file")
    replay.set_defaults(func=_replay)
    _add_analyze_parser(sub)
    _add_play_parser(sub)
    _add_score_parser(sub)
    from .bots.arena import add_arena_parser

    add_arena_parser(sub)
    from .tournament.director import add_tournament_parser

    add_tournament_parser(sub)
    from .server.cli import add_server_parsers

    add_server_parsers(sub)
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
