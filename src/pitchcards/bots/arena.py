"""The arena: duplicate matches between bots, so that the luck of the deal cancels out.

Every *duplicate game* is one sequence of deals (a seeded :class:`~pitchcards.match.Match`, or a
:class:`~pitchcards.money.MoneySession` for the money variant) played once per *seating*:

* partnerships (two bots): bot A holds seats 0 and 2 and bot B seats 1 and 3, then the teams swap;
  with three teams of two (TT1: seats 0&3, 1&4, 2&5) and two or three bots, every way of giving
  each team a bot that seats every bot is one seating (6 each: a bot holds one or two teams);
* cutthroat with k bots: seat ``i`` gets bot ``(i + r) mod k`` in seating ``r = 0 .. k-1``, so every
  bot sits in every seat once (with more seats than bots, a bot holds several seats).

Each seating sees exactly the same cards hand after hand for as long as both games last, so the
difference between two bots is measured on equal cards.  A game is played to the target (bidder
goes out); without a target (the money variant) it is a fixed number of hands, and the money
ledger decides who won.

Bots only ever get views: ``match.view(seat)`` (the hand as that seat sees it, with the scores)
goes to ``bot.choose(view)``; only a bot that declares ``sees_all`` (a deliberate cheat, to
measure headroom) gets ``bot.choose_open(hand)``.

Everything except the decision times is reproducible from the seed, with any number of jobs::

    pitch arena --variant auction-partners --bots heuristic,random --games 200 --jobs 2 --seed 1

Reported per bot: game win rate with a 95 % Wilson interval; mean point difference per hand (the
bot's sides against the others, averaged over a duplicate game's seatings, then over games) with
a 95 % normal interval over duplicate games; how often its contracts were made and how often it
set the other bots' contracts, its average contract; median and p99 time per decision.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import hashlib
import itertools
import json
import math
import os
import signal
import sys
import threading
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import IO, Any

from ..errors import OptionError, shown
from ..rules import MOON, VARIANTS, RuleSet, find_variant
from ..session_kinds import new_session
from ..table import Table
from . import BOTS, bot_names, make_bot

__all__ = ["ArenaResult", "BotStats", "add_arena_parser", "run_arena", "wilson"]

_Z = 1.959963984540054  # two-sided 95 %


def wilson(successes: int, trials: int, z: float = _Z) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % by default); (0, 1) with no trials."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1.0 + z * z / trials
    center = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1.0 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, center - half), min(1.0, center + half))


@dataclasses.dataclass(frozen=True, slots=True)
class BotStats:
    """One bot's line of the arena table."""

    bot: str                      #: label (the bot name, numbered if it appears twice)
    games: int                    #: games it played (every duplicate game, every seating)
    wins: int
    win_rate: float
    win_ci: tuple[float, float]   #: 95 % Wilson interval
    hands: int                    #: hands it played
    point_diff: float             #: mean point difference per hand (its sides vs the others)
    point_diff_ci: tuple[float, float] | None  #: 95 % interval over duplicate games
    contracts: int                #: hands in which one of its seats was the pitcher
    made: int
    make_rate: float | None
    defended: int                 #: hands in which another bot's seat was the pitcher
    sets: int                     #: ... and that pitcher was set
    set_rate: float | None
    avg_bid: float | None         #: mean contract (moon/smudge = 5)
    money: float | None           #: mean dollars per game (money variant)
    decisions: int
    ms_median: float | None       #: time per decision (choose only), milliseconds
    ms_p99: float | None


@dataclasses.dataclass(frozen=True, slots=True)
class ArenaResult:
    """What :func:`run_arena` measured; ``table()`` and ``to_dict()`` present it."""

    variant: str
    options: dict[str, Any]       #: rules options changed from the variant
    bots: tuple[str, ...]
    players: int
    games: int                    #: duplicate games (deal sequences)
    seatings: int                 #: seatings per duplicate game
    seed: int
    jobs: int
    hands_per_game: int | None    #: fixed hands per game when there is no target
    unfinished: int               #: games stopped at max_hands without a winner
    elapsed: float                #: seconds
    stats: tuple[BotStats, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (the same numbers as the table)."""
        out = dataclasses.asdict(self)
        out["options"] = {k: _jsonable(v) for k, v in self.options.items()}
        out["bots"] = list(self.bots)
        out["stats"] = [
            {**dataclasses.asdict(s), "win_ci": list(s.win_ci),
             "point_diff_ci": None if s.point_diff_ci is None else list(s.point_diff_ci)}
            for s in self.stats]
        return out

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2)

    def table(self) -> str:
        """The arena table as text."""
        opts = "".join(f" {k}={v}" for k, v in self.options.items())
        how = (f"{self.hands_per_game} hands per game" if self.hands_per_game is not None
               else "games to the target")
        lines = [
            f"arena: {self.variant}{opts}, {self.players} players, {how}; "
            f"{self.games} duplicate games x {self.seatings} seatings = "
            f"{self.games * self.seatings} games; seed {self.seed}, {self.jobs} jobs, "
            f"{self.elapsed:.1f} s" + (f"; {self.unfinished} unfinished" if self.unfinished
                                        else ""),
        ]
        money = any(s.money is not None for s in self.stats)
        width = max(12, *(len(s.bot) for s in self.stats))
        head = (f"{'bot':<{width}} {'games':>5} {'win%':>6} {'95% CI':>13} {'pts/hand':>8} "
                f"{'95% CI':>15} {'bids':>5} {'make%':>6} {'set%':>6} {'avg bid':>7}"
                + (f" {'$/game':>7}" if money else "")
                + f" {'ms med':>7} {'ms p99':>7}")
        lines.append(head)
        for s in self.stats:
            ci = s.point_diff_ci
            lines.append(
                f"{s.bot:<{width}} {s.games:>5} {100 * s.win_rate:>6.1f} "
                f"{f'[{100 * s.win_ci[0]:.1f},{100 * s.win_ci[1]:.1f}]':>13} "
                f"{s.point_diff:>+8.3f} "
                f"{(f'[{ci[0]:+.3f},{ci[1]:+.3f}]' if ci else '-'):>15} "
                f"{s.contracts:>5} {_pct(s.make_rate):>6} {_pct(s.set_rate):>6} "
                f"{(f'{s.avg_bid:.2f}' if s.avg_bid is not None else '-'):>7}"
                + (f" {(f'{s.money:+.2f}' if s.money is not None else '-'):>7}" if money
                   else "")
                + f" {_ms(s.ms_median):>7} {_ms(s.ms_p99):>7}")
        return "\n".join(lines)


def _pct(v: float | None) -> str:
    return "-" if v is None else f"{100 * v:.1f}"


def _ms(v: float | None) -> str:
    return "-" if v is None else (f"{v:.3f}" if v < 10 else f"{v:.1f}")


def _jsonable(v: Any) -> Any:
    if isinstance(v, bool | int | float | str) or v is None:
        return v
    return str(v)


# ----------------------------------------------------------------------------- one game
@dataclasses.dataclass(slots=True)
class _Outcome:
    """What one game (one duplicate game in one seating) produced, per bot index."""

    game: int
    seating: int
    winners: list[int]            #: bot indexes that won (empty: nobody / unfinished)
    unfinished: bool
    hands: int
    diff: list[float]             #: summed per-hand point differences per bot
    contracts: list[int]
    made: list[int]
    bid_sum: list[int]
    defended: list[int]
    sets: list[int]
    money: list[float]
    times: list[list[int]]        #: decision times (ns) per bot


def _derive(*parts: object) -> int:
    """A 63-bit seed from some parts (stable across runs and platforms)."""
    digest = hashlib.blake2b(repr(parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


@dataclasses.dataclass(frozen=True, slots=True)
class _Task:
    rules: RuleSet
    bots: tuple[str, ...]
    players: int
    game: int
    seating: int
    seed: int
    hands: int | None
    max_hands: int


def _team_seatings(bots: int, teams: int) -> list[tuple[int, ...]]:
    """Each team's bot in every seating of a partnership game: every assignment that seats
    every bot, in order (two teams, two bots: (0, 1) then (1, 0), the teams swapping).  Each
    bot holds each team equally often over the seatings, so the deals are shared fairly."""
    return [a for a in itertools.product(range(bots), repeat=teams) if len(set(a)) == bots]


def _seatings(rules: RuleSet, bots: int) -> int:
    """Seatings per duplicate game: one per team assignment, or one per bot (cutthroat)."""
    return len(_team_seatings(bots, rules.teams)) if rules.teams else bots


def _seat_bots(task: _Task) -> list[int]:
    k = len(task.bots)
    rules = task.rules
    if rules.teams:  # partners share a bot (B-R1.3, TT1)
        team_bot = _team_seatings(k, rules.teams)[task.seating]
        return [team_bot[rules.side_of(i)] for i in range(task.players)]
    return [(i + task.seating) % k for i in range(task.players)]


def _play(task: _Task) -> _Outcome:
    rules = task.rules
    n = task.players
    k = len(task.bots)
    seat_bot = _seat_bots(task)
    deal_seed = _derive("deals", task.seed, task.game)
    bots = [make_bot(task.bots[seat_bot[s]], _derive("bot", task.seed, task.game, task.seating, s))
            for s in range(n)]
    nsides = rules.side_count(n)
    side_bot = [seat_bot[s] for s in range(nsides)]  # side i is seat i, or team i (holds seat i)
    own = [[i for i in range(nsides) if side_bot[i] == b] for b in range(k)]
    other = [[i for i in range(nsides) if side_bot[i] != b] for b in range(k)]
    out = _Outcome(game=task.game, seating=task.seating, winners=[], unfinished=False, hands=0,
                   diff=[0.0] * k, contracts=[0] * k, made=[0] * k, bid_sum=[0] * k,
                   defended=[0] * k, sets=[0] * k, money=[0.0] * k, times=[[] for _ in range(k)])
    seat_names = [f"Seat {s}" for s in range(n)]  # a match's default names
    game = new_session(rules, seat_names, dealer=None, seed=deal_seed)
    # The arena reads results, never events: history=False keeps the loop as lean as a bare one.
    table = Table(game, bots=dict(enumerate(bots)), history=False, time_decisions=True)
    limit = task.hands if task.hands is not None else task.max_hands
    while out.hands < limit and not table.is_over:
        table.advance(stop_at_hand_end=True)
        hand = table.hand
        assert hand is not None
        result = hand.result
        assert result is not None
        out.hands += 1
        deltas = result.deltas
        for b in range(k):
            mine = sum(deltas[i] for i in own[b]) / len(own[b])
            theirs = sum(deltas[i] for i in other[b]) / len(other[b]) if other[b] else 0.0
            out.diff[b] += mine - theirs
        if result.pitcher is not None and result.bid not in (None, 0):
            pb = seat_bot[result.pitcher]
            out.contracts[pb] += 1
            out.made[pb] += result.made
            out.bid_sum[pb] += MOON if result.bid == "moon" else int(result.bid)
            for b in range(k):
                if b != pb:
                    out.defended[b] += 1
                    out.sets[b] += not result.made
    assert table.decision_ns is not None
    for s, name in enumerate(game.names):
        out.times[seat_bot[s]].extend(table.decision_ns[name])
    if rules.money != "none":  # money against the average (A-R7.3): settle, compare payouts
        game.settle()
        ledger = game.payouts
        for b in range(k):
            seats = [s for s in range(n) if seat_bot[s] == b]
            out.money[b] = float(sum(ledger[seat_names[s]] for s in seats)) / len(seats)
        out.winners = _best(out.money)
    elif game.winner is not None:
        out.winners = [side_bot[game.winner]]
    elif task.hands is not None:
        # No target: the best total score wins.
        scores = game.side_scores()
        totals = [sum(scores[i] for i in own[b]) / len(own[b]) for b in range(k)]
        out.winners = _best(totals)
    else:
        out.unfinished = True
    return out


def _best(values: Sequence[float]) -> list[int]:
    top = max(values)
    best = [b for b, v in enumerate(values) if v == top]
    return best if len(best) == 1 else []


# ----------------------------------------------------------------------------- the arena
def run_arena(variant: str | RuleSet, bots: Sequence[str], games: int = 100, seed: int = 0,
              jobs: int | None = None, options: Mapping[str, Any] | None = None, *,
              players: int | None = None, hands: int = 10, max_hands: int = 400,
              progress: IO[str] | None = None, cluster: str | None = None) -> ArenaResult:
    """Play ``games`` duplicate games between ``bots`` and measure them.

    ``variant``: a variant name (or a :class:`RuleSet`); ``options``: rules options to change
    (e.g. ``{"low_to": "holder"}``).  ``bots``: bot names, two for partnerships, two or more
    for cutthroat (``players`` defaults to 4 where the variant allows it).  ``hands``: hands per
    game when the rules have no target (money).  ``max_hands``: a game to the target still
    without a winner after that many hands is stopped and counted unfinished.  ``jobs``:
    worker processes (default and at most: every core); ``progress``: a stream for a progress
    bar.  Games are handed out as workers free up (never all of them at once), so any number of
    games starts at once and uses memory only for the games played.  ``cluster``: play the
    games on a Ray cluster instead of local processes (``"auto"``: one started on this machine
    with ``jobs`` CPUs; ``ray://HOST:PORT`` or ``HOST:PORT``: a running one, every CPU of it
    unless ``jobs`` says fewer; needs the ``[cluster]`` extra; :mod:`.ray_cluster`); the results
    are the same, bit for bit but the decision times, as with any number of local jobs.  Raises
    ``ValueError`` for an unknown variant, bot or option or a count out of range, naming what is
    allowed, or an unreachable cluster.
    """
    rules = find_variant(variant) if isinstance(variant, str) else variant
    if options:
        rules = rules.replace(**dict(options))
    names = [b.strip().lower() for b in bots]
    if len(names) < 2:
        raise ValueError(f"the arena needs at least two bots, got {shown(list(bots))}; "
                         f"bots are: {', '.join(sorted(BOTS))}")
    for b in names:
        make_bot(b, 0)  # the registry's own check: a known name, budget changes in brackets
    if players is None:  # every bot gets a seat if the rules have room
        players = min(max(rules.default_players, len(names)), rules.player_range[1])
    players = rules.check_players(players)
    if rules.partnership_mode and not 2 <= len(names) <= rules.teams:
        most = "two bots (one per team)" if rules.teams == 2 else (
            f"two to {rules.teams} bots (each holds one team or more)")
        raise ValueError(f"partnership play seats {most}, got {len(names)}: "
                         f"{', '.join(names)}")
    if len(names) > players:
        raise ValueError(f"{len(names)} bots do not fit {players} seats")
    if not isinstance(games, int) or games < 1:
        raise ValueError("games must be a positive number of duplicate games, not "
                         f"{shown(games)}")
    if not isinstance(hands, int) or hands < 1:
        raise ValueError("hands must be a positive number of hands per game, not "
                         f"{shown(hands)}")
    if not isinstance(max_hands, int) or max_hands < 1:
        raise ValueError(f"max_hands must be a positive number of hands, not {shown(max_hands)}")
    fixed = hands if rules.target is None else None
    if jobs is not None and (not isinstance(jobs, int) or jobs < 1):
        raise ValueError(f"jobs must be a positive number of processes, not {shown(jobs)}")
    seatings = _seatings(rules, len(names))
    total = games * seatings
    # Every game's seeds are fixed here, before it is handed out (_play derives them from the
    # arena's seed and the game's number): the results do not depend on who plays it.
    tasks = (_Task(rules, tuple(names), players, g, r, seed, fixed, max_hands)
             for g in range(games) for r in range(seatings))
    outcomes: list[_Outcome] = []
    with _players(tasks, total, jobs, cluster) as (played, jobs):
        # The clock starts once the workers are there (a cluster takes seconds to start).
        start = time.perf_counter()
        bar = _Progress(progress, total, start)
        for o in played:
            outcomes.append(o)
            bar.update(len(outcomes))
        elapsed = time.perf_counter() - start
        bar.done()
    outcomes.sort(key=lambda o: (o.game, o.seating))
    labels = _labels(names)
    changed = rules.changes() if rules.name in VARIANTS else {}
    return ArenaResult(
        variant=rules.name, options=changed, bots=tuple(labels), players=players, games=games,
        seatings=seatings, seed=seed, jobs=jobs, hands_per_game=fixed,
        unfinished=sum(o.unfinished for o in outcomes), elapsed=elapsed,
        stats=tuple(_stats(b, labels[b], outcomes, money=rules.money != "none")
                    for b in range(len(names))))


@contextlib.contextmanager
def _players(tasks: Iterator[_Task], total: int, jobs: int | None,
             cluster: str | None) -> Iterator[tuple[Iterable[_Outcome], int]]:
    """Where the games are played: (their outcomes as they finish, the number of workers).

    Here (one process, or a pool of at most every core), or on a Ray cluster, imported only
    then: without ``cluster`` nothing imports Ray."""
    if cluster is None:
        jobs = min(jobs or os.cpu_count() or 1, os.cpu_count() or 1, total)
        yield (map(_play, tasks) if jobs == 1 else _in_pool(tasks, jobs)), jobs
        return
    try:
        from . import ray_cluster
    except ModuleNotFoundError as exc:
        if exc.name != "ray":
            raise
        raise ValueError(f"cluster {shown(cluster)}: playing on a cluster needs Ray, which is "
                         "not installed; install the extra: pip install 'pitchcards[cluster]'"
                         ) from None
    with ray_cluster.connected(cluster, cpus=jobs) as cpus:
        workers = min(jobs or cpus, cpus, total)
        # Two games a worker handed out at once, so a worker never waits for its next game;
        # exactly ``jobs`` when that is fewer than the cluster's CPUs (Ray runs what it holds).
        in_flight = 2 * workers if workers == cpus else workers
        with contextlib.closing(ray_cluster.as_completed(_play, tasks, in_flight)) as played:
            yield played, workers


def _in_pool(tasks: Iterator[_Task], jobs: int) -> Iterator[_Outcome]:
    """Play the tasks in ``jobs`` processes, a few per worker in flight at a time: the tasks
    are taken from the iterator only as results come back."""
    with ProcessPoolExecutor(jobs) as pool:
        running: set[Future[_Outcome]] = {pool.submit(_play, t)
                                          for t in itertools.islice(tasks, 2 * jobs)}
        while running:
            done, running = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()
            running |= {pool.submit(_play, t) for t in itertools.islice(tasks, len(done))}


def _labels(names: Sequence[str]) -> list[str]:
    out = []
    for i, n in enumerate(names):
        out.append(f"{n}#{i + 1}" if names.count(n) > 1 else n)
    return out


def _stats(b: int, label: str, outcomes: Sequence[_Outcome],
           money: bool) -> BotStats:
    plays = len(outcomes)
    wins = sum(b in o.winners for o in outcomes)
    hands = sum(o.hands for o in outcomes)
    # One sample per duplicate game: the point difference per hand over all its seatings.
    per_game: dict[int, list[float]] = {}  # game -> [hands, summed point difference]
    for o in outcomes:
        entry = per_game.setdefault(o.game, [0.0, 0.0])
        entry[0] += o.hands
        entry[1] += o.diff[b]
    samples = [diff / h for h, diff in (per_game[g] for g in sorted(per_game)) if h]
    mean = sum(samples) / len(samples) if samples else 0.0
    ci: tuple[float, float] | None = None
    if len(samples) >= 2:
        var = sum((x - mean) ** 2 for x in samples) / (len(samples) - 1)
        half = _Z * math.sqrt(var / len(samples))
        ci = (mean - half, mean + half)
    contracts = sum(o.contracts[b] for o in outcomes)
    made = sum(o.made[b] for o in outcomes)
    defended = sum(o.defended[b] for o in outcomes)
    sets = sum(o.sets[b] for o in outcomes)
    times = sorted(t for o in outcomes for t in o.times[b])
    med = p99 = None
    if times:
        med = times[len(times) // 2] / 1e6 if len(times) % 2 else (
            times[len(times) // 2 - 1] + times[len(times) // 2]) / 2e6
        p99 = times[max(0, math.ceil(0.99 * len(times)) - 1)] / 1e6
    return BotStats(
        bot=label, games=plays, wins=wins, win_rate=wins / plays if plays else 0.0,
        win_ci=wilson(wins, plays), hands=hands, point_diff=mean, point_diff_ci=ci,
        contracts=contracts, made=made, make_rate=made / contracts if contracts else None,
        defended=defended, sets=sets, set_rate=sets / defended if defended else None,
        avg_bid=sum(o.bid_sum[b] for o in outcomes) / contracts if contracts else None,
        money=sum(o.money[b] for o in outcomes) / plays if money and plays else None,
        decisions=len(times), ms_median=med, ms_p99=p99)


class _Progress:
    """A plain-text progress bar (``\\r`` updates), at most ten redraws a second."""

    def __init__(self, stream: IO[str] | None, total: int, start: float) -> None:
        self.stream = stream
        self.total = total
        self.start = start
        self.last = 0.0

    def update(self, done: int) -> None:
        if self.stream is None:
            return
        now = time.perf_counter()
        if done < self.total and now - self.last < 0.1:
            return
        self.last = now
        elapsed = now - self.start
        width = 30
        filled = width * done // self.total
        eta = elapsed / done * (self.total - done) if done else 0.0
        self.stream.write(f"\rarena [{'#' * filled}{'.' * (width - filled)}] "
                          f"{done}/{self.total} games {elapsed:6.1f} s, eta {eta:5.0f} s")
        self.stream.flush()

    def done(self) -> None:
        if self.stream is not None:
            self.stream.write("\n")
            self.stream.flush()


# ----------------------------------------------------------------------------- command line
def _option(text: str) -> tuple[str, Any]:
    key, sep, raw = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"option {shown(text)}: write KEY=VALUE, "
                                         "e.g. low_to=holder")
    value: Any = raw.strip()
    low = value.lower()
    if low in ("true", "false"):
        value = low == "true"
    elif low == "none":
        value = None
    else:
        with contextlib.suppress(ValueError):
            value = int(value)
    return key.strip(), value


def add_arena_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``arena`` subcommand to a ``pitch`` command line's subparsers."""
    from ..argtypes import seed_number, whole_number

    p: argparse.ArgumentParser = subparsers.add_parser(
        "arena", help="duplicate matches between bots, with win rates and confidence intervals",
        description="Play duplicate games between bots (each deal sequence replayed with the "
                    "seats rotated) and print a table: win rate with a 95%% Wilson interval, "
                    "points per hand with a 95%% interval, make and set rates, average bid, "
                    "time per decision.")
    p.add_argument("--variant", default="auction-partners",
                   help=f"rules variant: {', '.join(VARIANTS)} (default auction-partners)")
    p.add_argument("--bots", default="heuristic,random",
                   help="comma-separated bot names (default heuristic,random); known: "
                        + ", ".join(sorted(BOTS)))
    p.add_argument("--games", type=whole_number(1), default=100,
                   help="duplicate games (default 100)")
    p.add_argument("--seed", type=seed_number, default=0)
    p.add_argument("--jobs", type=whole_number(1), default=None,
                   help="worker processes (default and at most: every core; with --cluster: "
                        "the workers used, default every CPU of the cluster)")
    p.add_argument("--cluster", default=None, metavar="ADDRESS",
                   help="play the games on a Ray cluster (the [cluster] extra): 'auto' starts "
                        "one on this machine with --jobs CPUs, ray://HOST:PORT or HOST:PORT "
                        "joins a running one (docs/research.md, 'More than one machine')")
    p.add_argument("--players", type=whole_number(1), default=None,
                   help="table size for cutthroat variants (default 4)")
    p.add_argument("--hands", type=whole_number(1), default=10,
                   help="hands per game when the rules have no target (money; default 10)")
    p.add_argument("--max-hands", type=whole_number(1), default=400,
                   help="stop a game still undecided after this many hands (default 400)")
    p.add_argument("--option", action="append", default=[], type=_option, metavar="KEY=VALUE",
                   help="change a rules option, e.g. --option low_to=holder (repeatable)")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=_arena_command)
    return p


#: Seconds ``pitch arena --cluster`` gives Ray to stop its games after Ctrl+C before the arena
#: exits anyway; the driver's exit ends them (Ray stops a job's tasks when its driver is gone).
STOP_PATIENCE = 30.0


@contextlib.contextmanager
def _ctrl_c_ends_within(seconds: float, message: str) -> Iterator[None]:
    """For the block: Ctrl+C raises KeyboardInterrupt as usual and starts a clock; if the
    process still runs ``seconds`` later, it prints ``message`` and exits with 130.  A driver
    connected to a Ray cluster once went on playing after Ctrl+C (a CI run of 2026-12-07: the
    interrupt lost inside Ray, or its shutdown stuck), so the command line's promise that
    Ctrl+C stops the arena does not rest on Ray alone.  Only on the main thread (signals)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    def exit_now() -> None:
        print(message, file=sys.stderr, flush=True)
        os._exit(130)
    clock = threading.Timer(seconds, exit_now)
    clock.daemon = True

    def interrupted(signum: int, frame: object) -> None:
        if clock.ident is None:
            clock.start()
        raise KeyboardInterrupt
    previous = signal.signal(signal.SIGINT, interrupted)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        clock.cancel()


def _arena_command(args: argparse.Namespace) -> int:
    options = dict(args.option)
    try:
        rules = find_variant(args.variant)
    except OptionError as exc:
        raise ValueError(str(exc)) from None
    # The pool's or the cluster's games are stopped on the way out (run_arena's with-blocks).
    where = " on the cluster" if args.cluster is not None else ""
    stopped = f"\npitch arena: stopped; the games still running{where} were cancelled"
    bounded = (_ctrl_c_ends_within(STOP_PATIENCE, stopped) if args.cluster is not None
               else contextlib.nullcontext())
    try:
        with bounded:
            result = run_arena(rules, bot_names(args.bots), games=args.games, seed=args.seed,
                               jobs=args.jobs, options=options, players=args.players,
                               hands=args.hands, max_hands=args.max_hands,
                               progress=None if args.quiet else sys.stderr,
                               cluster=args.cluster)
    except KeyboardInterrupt:
        print(stopped, file=sys.stderr)
        return 130
    print(result.to_json() if args.json else result.table())
    return 0

