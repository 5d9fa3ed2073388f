"""Build (and check) the simulated table of match-win chances (issue 14, item 3).

    .venv/bin/python benchmarks/build_match_odds.py build [--matches 3000] [--seed 0]
    .venv/bin/python benchmarks/build_match_odds.py calibrate [--matches 1000] [--seed 1000000]
    .venv/bin/python benchmarks/build_match_odds.py dealer-games --seed 0 --matches 1

``build``: heuristic self-play matches (every seat the ``heuristic`` bot, match seeds
``seed .. seed + matches - 1``) of each covered rule set.  Two teams: every hand's outcome
(relative to the dealer's side) is counted and each variant's table is computed from the counts
(:func:`pitchcards.bots.match_odds.compute_table`); other targets and win rules over the same
play are computed from the counts on first use.  Cutthroat (``auction`` at 3 to 7 seats): the
slope of :class:`pitchcards.bots.match_odds.SoftmaxOdds` is fitted to who won
(:func:`fit_slope`).  All of it is written, with this provenance, to
``src/pitchcards/bots/_match_odds_data.py``.  Deterministic: the same arguments write the same
file.

``calibrate``: held-out matches (other seeds) of the same self-play; before every hand each
side's chance to win the match is predicted by the formula (:func:`~pitchcards.bots.utility.
win_chance`), by the table averaged over the dealer (what the expert uses unless told the dealer)
and by the table knowing who deals (``table+dealer``; cutthroat tables ignore it), and scored
against who won: Brier score and log loss, with 95 % intervals over matches (hands of one match
are not independent), and the paired differences.
``--bot expert-v1`` plays the held-out matches with another bot (slow).

``build --configs auction-partners/4,auction/4`` builds only those.  ``dealer-games``: an
experiment, see :func:`dealer_games` (``--seed`` the first match seed, ``--matches`` the pairs).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

import pitchcards as pc
from pitchcards.bots import make_bot
from pitchcards.bots.match_odds import SoftmaxOdds, compute_table, encode, table_for
from pitchcards.bots.utility import win_chance

#: (variant, players) built: the two-team rule sets with a four-point target (outcome counts
#: and a table) and cutthroat auction pitch at every table size it allows (a fitted slope)
CONFIGS: tuple[tuple[str, int], ...] = (
    ("auction-partners", 4), ("setback", 4), *(("auction", n) for n in range(3, 8)))
OUT = Path(__file__).resolve().parents[1] / "src" / "pitchcards" / "bots" / "_match_odds_data.py"
DIGITS = 6  #: decimals of the stored tables
SLOPE_DIGITS = 4  #: decimals of the fitted slopes
LEAD = 6  #: calibrate: leads beyond this are counted with it
MAX_HANDS = 200  #: a match still running after this many hands is cut off (and not counted)

#: one match: per hand (scores before it, dealer seat, the hand's result); and the winner
Played = tuple[list[tuple[tuple[int, ...], int, pc.HandResult]], int | None]


def play_match(rules: pc.RuleSet, players: int, seed: int, bot: str = "heuristic") -> Played:
    """One self-play match of ``bot`` at every seat, match seed ``seed``, first dealer drawn."""
    bots = [make_bot(bot, seed * 100 + s) for s in range(players)]
    m = pc.Match(rules, players, dealer=None, seed=seed)
    hands: list[tuple[tuple[int, ...], int, pc.HandResult]] = []
    while m.winner is None and len(m.results) < MAX_HANDS:
        before = tuple(m.scores)
        h = m.deal()
        while not h.is_over:
            s = h.seat_to_act
            assert s is not None
            m.push(bots[s].choose(m.view(s)))
        hands.append((before, h.dealer, m.results[-1]))
    return hands, m.winner


def outcome_counts(rules: pc.RuleSet, played: Sequence[Played]) -> Counter[tuple[int, ...]]:
    """Every hand's encoded outcome in the ``played`` matches of ``rules``, counted."""
    counts: Counter[tuple[int, ...]] = Counter()
    for hands, _ in played:
        for before, dealer, result in hands:
            sides = len(before)
            dealer_side = dealer % 2 if rules.partnership_mode else dealer
            counts[encode(result, dealer_side, sides)] += 1
    return counts


def self_play(variant: str, players: int, seeds: range) -> list[Played]:
    """Heuristic self-play matches of ``variant`` at ``players`` seats, one per match seed."""
    rules = pc.find_variant(variant)
    return [play_match(rules, players, k) for k in seeds]


def _chunks(text: str, width: int) -> list[str]:
    """``text`` cut at spaces into pieces of at most about ``width`` characters (spaces kept)."""
    out = [""]
    for word in text.split(" "):
        if out[-1] and len(out[-1]) + len(word) > width:
            out.append("")
        out[-1] += word + " "
    out[-1] = out[-1][:-1]
    return out


def render(data: dict[tuple[str, int], Counter[tuple[int, ...]]],
           slopes: dict[tuple[str, int], float], source: str) -> str:
    """The generated module's text (sorted, so a rebuild with the same arguments is identical)."""
    lines = [
        '"""Generated by benchmarks/build_match_odds.py: do not edit (rebuild instead).',
        "",
        "Two teams: one hand's outcome counted over heuristic self-play matches, per (variant,",
        "players):",
        "``(count, pitcher side, made, moon, High, Low, Jack, Game, points per side...,",
        "deltas per side...)`` with sides relative to the dealer's side and -1 for None",
        "(:func:`pitchcards.bots.match_odds.encode`).",
        '"""',
        "",
        "SOURCE = (",
        *(f"    {chunk!r}" for chunk in _chunks(source, 90)),
        ")",
        "",
        "OUTCOMES: dict[tuple[str, int], tuple[tuple[int, ...], ...]] = {",
    ]
    for key in sorted(data):
        lines.append(f"    {key!r}: (")
        lines += [f"        {row!r}," for row in _rows(data[key])]
        lines.append("    ),")
    lines.append("}")
    lines += ["", "#: each built variant's own table, rounded (:func:`pitchcards.bots.match_odds.",
              "#: compute_table`): (lo, hi, {opponent offset: chance at",
              "#: (a - lo) + (b - lo) * width})",
              "TABLES: dict[tuple[str, int], tuple[int, int, dict[int, tuple[float, ...]]]] = {"]
    for key in sorted(data):
        rows = _rows(data[key])
        table = compute_table(pc.find_variant(key[0]), key[1], rows)
        lines.append(f"    {key!r}: ({table.lo}, {table.hi}, {{")
        for opp, race in sorted(table.races.items()):
            lines.append(f"        {opp}: (")
            values = [f"{round(x, DIGITS)!r}," for x in race]
            lines += ["            " + " ".join(values[i:i + 8]) for i in range(0, len(values), 8)]
            lines.append("        ),")
        lines.append("    }),")
    lines.append("}")
    lines += ["", "#: cutthroat: the fitted slope of :class:`pitchcards.bots.match_odds.",
              "#: SoftmaxOdds`",
              "SLOPES: dict[tuple[str, int], float] = {",
              *(f"    {key!r}: {slope!r}," for key, slope in sorted(slopes.items())), "}"]
    return "\n".join(lines) + "\n"


def _rows(counts: Counter[tuple[int, ...]]) -> tuple[tuple[int, ...], ...]:
    """The counted outcomes as the data module's rows, sorted."""
    return tuple((n, *code) for code, n in sorted(counts.items()))


def source_text(matches: int, seed: int, configs: Sequence[tuple[str, int]], hands: int) -> str:
    """The provenance written with the data: the command that rebuilds it and what it played."""
    option = "" if tuple(configs) == CONFIGS else " --configs " + ",".join(
        f"{v}/{n}" for v, n in configs)
    return (f"benchmarks/build_match_odds.py build --matches {matches} --seed {seed}{option}: "
            f"heuristic self-play, match seeds {seed}..{seed + matches - 1} per rule set, "
            f"{hands} hands in all")


def fit_slope(matches: Sequence[Played], target: int) -> float:
    """The :class:`~pitchcards.bots.match_odds.SoftmaxOdds` slope under which the winners of
    ``matches`` were likeliest (the mean log-likelihood of the winner over every hand start;
    unfinished matches are left out), by golden-section search: the log-likelihood is concave
    in the slope."""
    starts = [(before, winner) for hands, winner in matches if winner is not None
              for before, _, _ in hands]
    if not starts:
        raise ValueError("no finished match to fit the slope to")

    def loglik(slope: float) -> float:
        odds = SoftmaxOdds(target, slope)
        return sum(math.log(odds.chances(before)[winner]) for before, winner in starts)

    lo, hi = 0.0, 4.0
    g = (math.sqrt(5) - 1) / 2
    a, b = hi - g * (hi - lo), lo + g * (hi - lo)
    fa, fb = loglik(a), loglik(b)
    while hi - lo > 1e-5:
        if fa < fb:
            lo, a, fa = a, b, fb
            b = lo + g * (hi - lo)
            fb = loglik(b)
        else:
            hi, b, fb = b, a, fa
            a = hi - g * (hi - lo)
            fa = loglik(a)
    return round((lo + hi) / 2, SLOPE_DIGITS)


def build(matches: int, seed: int, configs: Sequence[tuple[str, int]] = CONFIGS) -> str:
    """The data module's text: ``matches`` heuristic self-play matches per rule set."""
    data: dict[tuple[str, int], Counter[tuple[int, ...]]] = {}
    slopes: dict[tuple[str, int], float] = {}
    total = 0
    for variant, players in configs:
        t0 = time.perf_counter()
        rules = pc.find_variant(variant)
        played = self_play(variant, players, range(seed, seed + matches))
        hands = sum(len(h) for h, _ in played)
        total += hands
        if rules.partnership_mode:
            data[(variant, players)] = c = outcome_counts(rules, played)
            what = f"{len(c)} outcomes"
        else:
            assert rules.target is not None
            slopes[(variant, players)] = slope = fit_slope(played, rules.target)
            what = f"slope {slope}"
        print(f"{variant}/{players}: {hands} hands, {what}, "
              f"{time.perf_counter() - t0:.0f} s", file=sys.stderr)
    return render(data, slopes, source_text(matches, seed, configs, total))


def _interval(xs: Sequence[float]) -> str:
    m = statistics.fmean(xs)
    half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else math.nan
    return f"{m:.4f} ± {half:.4f}"


#: (scores before a hand, side, the side that deals it) -> the side's chance to win the match
Predictor = Callable[[Sequence[int], int, int], float]


def calibrate(variant: str, players: int, seeds: range, bot: str) -> None:
    """Brier score and log loss (each side's chance) and the winner's log loss (every side's
    chances at once: what :func:`fit_slope` maximizes) of the formula and the table on
    held-out matches."""
    rules = pc.find_variant(variant)
    assert rules.target is not None
    target = rules.target
    table = table_for(rules, players)
    assert table is not None, (variant, players)
    predictors: dict[str, Predictor] = {
        "formula": lambda sc, side, dealer: win_chance(sc, side, target),
        "table": lambda sc, side, dealer: table.chances(sc)[side],
    }
    if rules.partnership_mode:  # a cutthroat table does not use the dealer
        predictors["table+dealer"] = lambda sc, side, dealer: table.chances(sc, dealer)[side]

    def side_of(seat: int) -> int:
        return seat % 2 if rules.partnership_mode else seat
    # per match: the mean Brier / log loss over its hands and sides, and the mean winner's
    # log loss over its hands, per predictor
    per: dict[str, list[tuple[float, float, float]]] = {k: [] for k in predictors}
    # by a side's lead over the best other side (clamped to +-LEAD): each predictor's mean
    # chance and how often the side won
    by_lead: dict[int, list[list[float]]] = {}
    states = 0
    for seed in seeds:
        hands, winner = play_match(rules, players, seed, bot)
        if winner is None:
            continue
        sums = {name: [0.0, 0.0, 0.0] for name in predictors}  # Brier, log loss, winner's
        for before, dealer, _ in hands:
            for side, score in enumerate(before):
                y = 1.0 if side == winner else 0.0
                chances = [f(before, side, side_of(dealer)) for f in predictors.values()]
                for name, chance in zip(predictors, chances, strict=True):
                    p = min(max(chance, 1e-6), 1 - 1e-6)
                    acc = sums[name]
                    acc[0] += (p - y) ** 2
                    acc[1] -= math.log(p if y else 1 - p)
                    acc[2] -= y * math.log(p)
                lead = score - max(x for i, x in enumerate(before) if i != side)
                by_lead.setdefault(max(-LEAD, min(LEAD, lead)), []).append([*chances, y])
        n = len(hands) * len(hands[0][0])
        for name, (brier, logl, won) in sums.items():
            per[name].append((brier / n, logl / n, won / len(hands)))
        states += len(hands)
    print(f"{variant}/{players} ({bot}, {len(per['table'])} matches, {states} hand starts):")
    metrics = ((0, "Brier"), (1, "log loss"), (2, "winner log loss"))
    for name, rows in per.items():
        print(f"  {name:12s} " + "   ".join(
            f"{what} {_interval([r[i] for r in rows])}" for i, what in metrics))
    print("  by lead over the best other side (clamped): hand starts, each predictor's mean "
          "chance, won")
    for lead in sorted(by_lead):
        rows = by_lead[lead]
        means = [statistics.fmean(r[i] for r in rows) for i in range(len(predictors) + 1)]
        print(f"    {lead:+d}: {len(rows):6d}  " + "  ".join(
            f"{name} {m:.3f}" for name, m in zip([*predictors, "won"], means, strict=True)))
    for name in per:
        if name == "formula":
            continue
        for i, what in metrics:
            diff = [t[i] - f[i] for t, f in zip(per[name], per["formula"], strict=True)]
            print(f"  {name} - formula {what}: {_interval(diff)} (negative: {name} predicts "
                  "better)")


def dealer_games(start: int, pairs: int) -> None:
    """An experiment for the report: ``bench_expert.py games`` (auction-partners, match seed k
    twice with the teams swapped) for an expert whose table is told who deals, against
    ``expert-v1``.  expert.py does not pass the dealer to Utility yet, so this bot passes it by
    wrapping the Utility that expert.py builds; one line per pair: seed, wins of 2, hands."""
    import dataclasses
    import functools

    import bench_expert
    from pitchcards.bots import expert as expert_module
    from pitchcards.bots import register
    from pitchcards.bots.utility import Utility
    from pitchcards.views import View

    class DealerAware(expert_module.ExpertBot):
        name = "expert-table-dealer"
        budget = dataclasses.replace(expert_module.EXPERT, win_table=True)

        def analyse(self, view: View) -> expert_module.Analysis:
            names = vars(expert_module)
            names["Utility"] = functools.partial(Utility, dealer=view.dealer)
            try:
                return super().analyse(view)
            finally:
                names["Utility"] = Utility

    register(DealerAware.name, DealerAware)
    for k in range(start, start + pairs):
        t0 = time.perf_counter()
        wins, hands = bench_expert.game_pair((DealerAware.name, "expert-v1", k))
        print(f"pair {k} wins {wins}/2 hands {hands} {time.perf_counter() - t0:.0f} s",
              flush=True)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("mode", choices=("build", "calibrate", "dealer-games"))
    ap.add_argument("--matches", type=int, default=None)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--bot", default="heuristic", help="calibrate: the bot at every seat")
    ap.add_argument("--only", default=None, help="calibrate: one variant/players, e.g. auction/4")
    ap.add_argument("--configs", default=None,
                    help="build: variant/players list (default: all of CONFIGS)")
    ap.add_argument("--out", type=Path, default=OUT, help="build: the module to write")
    a = ap.parse_args(argv)
    t0 = time.perf_counter()
    if a.mode == "dealer-games":
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        dealer_games(a.seed or 0, a.matches or 1)
        return
    if a.mode == "build":
        configs = CONFIGS if not a.configs else tuple(
            (v, int(n)) for v, n in (c.split("/") for c in a.configs.split(",")))
        text = build(a.matches or 3000, 0 if a.seed is None else a.seed, configs)
        tmp = a.out.with_suffix(".tmp")
        tmp.write_text(text)
        tmp.replace(a.out)  # at once: a bot starting meanwhile never reads half a file
        print(f"wrote {a.out} in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
        return
    start = 1_000_000 if a.seed is None else a.seed
    for variant, players in CONFIGS:
        if a.only and a.only != f"{variant}/{players}":
            continue
        calibrate(variant, players, range(start, start + (a.matches or 1000)), a.bot)
    print(f"({time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
