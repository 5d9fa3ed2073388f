"""Bidding benchmark (issue 14, item 2): each bot's auction decisions scored by a slow reference.

    .venv/bin/python benchmarks/bench_bidding.py                  # score bots on the cached set
    .venv/bin/python benchmarks/bench_bidding.py --quick          # smoke run: 40 decisions
    .venv/bin/python benchmarks/bench_bidding.py --bots random,heuristic,expert,hard
    .venv/bin/python benchmarks/bench_bidding.py --build          # rebuild the cached reference
    .venv/bin/python benchmarks/bench_bidding.py --build --quick --out /tmp/ref.json
    .venv/bin/python benchmarks/bench_bidding.py --play           # card play, cached set
    .venv/bin/python benchmarks/bench_bidding.py --play --build   # rebuild play_reference.json

**The decisions.**  Hands of every four-point variant are dealt from fixed seeds (``money`` at 3, 4
and 6 players, ``auction`` at 3, 4 and 5, ``auction-partners`` and ``setback`` at 4), the dealer
rotating with the deal number, and the auction is played by ``expert-v1`` (the expert as it was
when the set was built) with its clock off (so the set is deterministic; seat *s* of deal *k* is
seeded ``1000 k + s``).  Every auction decision with more than one legal action is kept, whoever
makes it (the dealer's included), until each configuration has its quota (65; ``--quick``: 5, the
first 5 of the same set).  Views carry no scores (hands from 0-0, no match context), so every bot
and the reference judge a hand by itself.  A decision is stored as (variant, players, dealer, deal
seed, the auction so far, seat) and rebuilt with ``Hand.deal`` + ``push``; the seat's hand is
stored too, as a check.

**The reference.**  For each decision, *every* legal action (each bid, pass, and a pitch of every
card where pitching is a bid) is valued over the same sampled worlds: ``--batches`` (default 30)
independent calls of the expert's sampler, ``sample_worlds(view, 20, rng)`` (hard evidence exact,
bids and passes as soft evidence, importance-resampled), i.e. 600 worlds per candidate.  In each
world the candidate is pushed and the rest of the auction and the whole hand are played out by the
expert's rollout policy (``heuristic.rollout_action``, deterministic) for every seat.  A finished
hand is valued by the expert's own utility without scores, :class:`pitchcards.bots.utility.Utility`:
the point margin of the seat's side (its score change minus the best other side's); in ``money``,
its score change against the table's mean, moon payments converted to points.  The side's plain
score change (``delta``) is stored too (``--measure delta`` scores against it).  Per candidate the
file keeps the mean and its standard error, computed from the batch means (a resampled batch may
repeat a world, so per-world errors would be too small), and ``dse``: the standard error of the
paired difference to the reference's best candidate (same worlds).  The reference is the
expert's own method (PIMC over heuristic rollouts) at 12 times its world count (48 per bid) and
over every legal action, so it shares the expert's model of the other players: it measures how
well a bot bids *if the table plays like the heuristic*; it is not ground truth.

**The scores.**  Each bot (built by ``make_bot(name, seed=index)``) chooses at every decision.
*Agreement*: the share of decisions where it picks the reference's best action (95 % Wilson
interval).  *Points lost*: the reference's best mean minus the reference mean of its choice,
averaged over decisions (95 % normal interval).  Both overall, for the dealer's decisions and for
the others'.  The expert keeps its clock (0.6 s), so its figures move a little with the load.

**Card play (``--play``).**  A smaller set in ``benchmarks/data/play_reference.json``: per
configuration 20 hands (``--quick``: 3) dealt from other seeds (first seed + 500 + k), played
whole by the clockless ``expert-v1``; one card-play decision with a choice is kept per hand, drawn
with ``random.Random(seed)``.  The reference is the expert's own evaluation
(:func:`pitchcards.bots.expert.evaluate`) of every legal card with no clock and a 500 000-node
solver budget: exact open-hand search per world once at most 12 cards are left in the hands, one
heuristic rollout per world before that; 30 x 20 = 600 sampled worlds (25 times the expert's 24),
same standard errors.  Split: decisions the reference solved exactly (late) and rolled out (early).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import pitchcards as pc
from pitchcards.actions import Action, parse_action
from pitchcards.bots import bot_names, make_bot
from pitchcards.bots.arena import wilson
from pitchcards.bots.expert import EXPERT_V1, ExpertBot, evaluate
from pitchcards.bots.policy import policy_name, rollout_action
from pitchcards.bots.sampler import sample_worlds
from pitchcards.bots.utility import Utility
from pitchcards.hand import Hand
from pitchcards.views import View, view_of

DATA = Path(__file__).resolve().parent / "data" / "bidding_reference.json"
PLAY_DATA = DATA.with_name("play_reference.json")
#: (variant, players, first deal seed): every four-point variant, several table sizes
CONFIGS: tuple[tuple[str, int, int], ...] = (
    ("money", 3, 11_000), ("money", 4, 12_000), ("money", 6, 13_000),
    ("auction", 3, 21_000), ("auction", 4, 22_000), ("auction", 5, 23_000),
    ("auction-partners", 4, 31_000), ("setback", 4, 41_000),
)
QUOTA, QUICK_QUOTA = 65, 5
PLAY_QUOTA, PLAY_QUICK_QUOTA, PLAY_BATCHES = 20, 3, 30
BATCH = 20          #: worlds per sampler call
BATCHES = 30        #: sampler calls per decision (600 worlds)
DEFAULT_BOTS = "random,heuristic,expert-v1,expert"
#: a reference row: the action; the utility's mean, its standard error, the paired standard error
#: of its gap to the best action; the side's score change (mean, standard error)
FIELDS = ("a", "v", "se", "dse", "d", "d_se")
_AT = {f: i for i, f in enumerate(FIELDS)}


# ------------------------------------------------------------------------------ the decisions
def collect(quota: int) -> list[dict[str, Any]]:
    """The fixed decision set: ``quota`` auction decisions per configuration, in play order."""
    clockless = dataclasses.replace(EXPERT_V1, time_limit=1e9)  # the set as it was built
    out: list[dict[str, Any]] = []
    for variant, players, seed0 in CONFIGS:
        rules = pc.find_variant(variant)
        got = 0
        k = 0
        while got < quota:
            seed, dealer = seed0 + k, k % players
            bots = [ExpertBot(1000 * k + s, clockless) for s in range(players)]
            h = Hand.deal(rules, players, dealer=dealer, seed=seed)
            prefix: list[str] = []
            while h.phase == "auction" and got < quota:
                s = h.seat_to_act
                assert s is not None
                v = view_of(h, s)
                if len(v.legal_actions) > 1:
                    out.append(_decision(variant, players, dealer, seed, prefix, s, v))
                    got += 1
                a = bots[s].choose(v)
                prefix.append(str(a))
                h.push(a)
            k += 1
    return out


def collect_play(quota: int) -> list[dict[str, Any]]:
    """``quota`` card-play decisions per configuration: deals seeded ``first seed + 500 + k``,
    played whole by the clockless expert; one decision with a choice is kept per hand, at a
    place drawn with ``random.Random(seed)`` (so early and late tricks both appear)."""
    clockless = dataclasses.replace(EXPERT_V1, time_limit=1e9)  # the set as it was built
    out: list[dict[str, Any]] = []
    for variant, players, seed0 in CONFIGS:
        rules = pc.find_variant(variant)
        for k in range(quota):
            seed, dealer = seed0 + 500 + k, k % players
            bots = [ExpertBot(1000 * k + s, clockless) for s in range(players)]
            h = Hand.deal(rules, players, dealer=dealer, seed=seed)
            prefix: list[str] = []
            points: list[tuple[list[str], int, View]] = []
            while not h.is_over:
                s = h.seat_to_act
                assert s is not None
                v = view_of(h, s)
                if h.phase == "play" and len(v.legal_actions) > 1:
                    points.append((list(prefix), s, v))
                a = bots[s].choose(v)
                prefix.append(str(a))
                h.push(a)
            if points:
                pre, s, v = random.Random(seed).choice(points)
                out.append(_decision(variant, players, dealer, seed, pre, s, v))
    return out


def _decision(variant: str, players: int, dealer: int, seed: int, prefix: list[str], seat: int,
              v: View) -> dict[str, Any]:
    return {"variant": variant, "players": players, "dealer": dealer, "seed": seed,
            "auction": list(prefix), "seat": seat, "hand": " ".join(v.hand)}


def rebuild(d: dict[str, Any]) -> View:
    """The stored decision's view (checked against the stored hand); ``auction`` holds every
    action before it (for a play decision, the auction and the cards)."""
    h = Hand.deal(pc.find_variant(d["variant"]), d["players"], dealer=d["dealer"], seed=d["seed"])
    for a in d["auction"]:
        h.push(parse_action(a))
    v = view_of(h, d["seat"])
    if " ".join(v.hand) != d["hand"] or len(v.legal_actions) < 2:
        raise SystemExit(f"decision {d} no longer rebuilds the same view: rebuild with --build")
    return v


# ------------------------------------------------------------------------------ the reference
def _mean_se(xs: list[float]) -> tuple[float, float]:
    m = statistics.fmean(xs)
    return m, (statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else 0.0)


def reference(view: View, seed: int, batches: int) -> list[list[Any]]:
    """Every legal action's mean value over ``batches`` x ``BATCH`` sampled worlds, with errors:
    one row ``[action, v, se, dse, d, d_se]`` per legal action (see :data:`FIELDS`)."""
    assert view.seat is not None
    rng = random.Random(seed)
    side = view.side_of(view.seat)
    util = Utility(view.rules, side, view.players, None)
    acts = list(view.legal_actions)
    vb: dict[Action, list[float]] = {a: [] for a in acts}   # batch means of the utility
    db: dict[Action, list[float]] = {a: [] for a in acts}   # batch means of the side's delta
    for _ in range(batches):
        sv = dict.fromkeys(acts, 0.0)
        sd = dict.fromkeys(acts, 0.0)
        worlds = sample_worlds(view, BATCH, rng)
        for w in worlds:
            for a in acts:
                w.push_unchecked(a)
                depth = 1
                while w.result is None:
                    w.push_unchecked(rollout_action(w))
                    depth += 1
                r = w.result
                sv[a] += util(r)
                sd[a] += r.deltas[side]
                for _ in range(depth):
                    w.pop()
        for a in acts:
            vb[a].append(sv[a] / len(worlds))
            db[a].append(sd[a] / len(worlds))
    best = max(acts, key=lambda a: statistics.fmean(vb[a]))
    rows = []
    for a in acts:
        m, se = _mean_se(vb[a])
        dm, dse_delta = _mean_se(db[a])
        _, dse = _mean_se([x - y for x, y in zip(vb[best], vb[a], strict=True)])
        rows.append([str(a), *(round(x, 3) for x in (m, se, dse, dm, dse_delta))])
    return rows


#: the play reference's budget: the expert's evaluation (exact solve at <= 12 cards left, else one
#: heuristic rollout per world), no clock, a solver node budget 25 times the expert's
PLAY_BUDGET = dataclasses.replace(EXPERT_V1, max_nodes=500_000, time_limit=1e9)


def reference_play(view: View, seed: int, batches: int) -> list[list[Any]]:
    """Every legal card's mean value by the expert's :func:`evaluate` over ``batches`` x
    ``BATCH`` sampled worlds: rows ``[action, v, se, dse]``."""
    assert view.seat is not None
    rng = random.Random(seed)
    side = view.side_of(view.seat)
    util = Utility(view.rules, side, view.players, None)
    acts = list(view.legal_actions)
    vb: dict[Action, list[float]] = {a: [] for a in acts}
    for _ in range(batches):
        worlds = sample_worlds(view, BATCH, rng)
        got = evaluate(worlds, acts, util, side, False, PLAY_BUDGET, time.perf_counter())
        for a in acts:
            vb[a].append(got.values[a])
    best = max(acts, key=lambda a: statistics.fmean(vb[a]))
    rows = []
    for a in acts:
        m, se = _mean_se(vb[a])
        _, dse = _mean_se([x - y for x, y in zip(vb[best], vb[a], strict=True)])
        rows.append([str(a), *(round(x, 3) for x in (m, se, dse))])
    return rows


def build(quota: int, batches: int, out: Path, play: bool = False) -> None:
    t0 = time.perf_counter()
    decisions = collect_play(quota) if play else collect(quota)
    t1 = time.perf_counter()
    print(f"# collected {len(decisions)} decisions in {t1 - t0:.0f} s", file=sys.stderr)
    ref = reference_play if play else reference
    for i, d in enumerate(decisions):
        d["ref"] = ref(rebuild(d), 7919 * i + 1, batches)
        if (i + 1) % 20 == 0:
            el = time.perf_counter() - t1
            print(f"#   {i + 1}/{len(decisions)} referenced, {el:.0f} s", file=sys.stderr)
    data = {"about": "bench_bidding.py reference: see its docstring", "fields": FIELDS,
            "batch": BATCH,
            "batches": batches, "quota": quota, "policy": policy_name,
            "phase": "play" if play else "auction", "decisions": decisions}
    out.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(data, separators=(",", ":")).replace('},{"variant"', '},\n{"variant"')
    out.write_text(text + "\n")
    print(f"# wrote {out} ({out.stat().st_size // 1024} KiB); collect {t1 - t0:.0f} s, "
          f"reference {time.perf_counter() - t1:.0f} s", file=sys.stderr)


# ------------------------------------------------------------------------------ the scores
def _late(d: dict[str, Any], v: View) -> bool:
    """A play decision the reference solved exactly (at most 12 cards left in the hands)."""
    return sum(v.hand_sizes) <= PLAY_BUDGET.solve_cards


def score(decisions: list[dict[str, Any]], bots: list[str], key: str, play: bool) -> None:
    views = [rebuild(d) for d in decisions]
    refs = [{parse_action(r[0]): r[_AT[key]] for r in d["ref"]} for d in decisions]
    # the best by the utility; with --measure delta, the best by the side's score change
    print(f"{'bot':10s} {'decisions':14s} {'n':>4s}  {'agree':>6s} {'95 % CI':>15s}  "
          f"{'pts lost':>8s} {'95 % CI':>17s}  {'ms/dec':>6s}")
    for name in bots:
        rows: list[tuple[bool, bool, float]] = []   # (dealer's, agrees, loss)
        t = 0.0
        for i, (d, v, ref) in enumerate(zip(decisions, views, refs, strict=True)):
            bot = make_bot(name, seed=i)
            t0 = time.perf_counter()
            a = bot.choose(v)
            t += time.perf_counter() - t0
            best = max(ref, key=lambda x: ref[x])
            group = _late(d, v) if play else d["seat"] == d["dealer"]
            rows.append((group, a == best, ref[best] - ref[a]))
        labels = ("late (solved)", "early (rolled)") if play else ("dealer", "not dealer")
        for label, keep in (("all", None), (labels[0], True), (labels[1], False)):
            sel = [r for r in rows if keep is None or r[0] == keep]
            n = len(sel)
            if not n:
                continue
            k = sum(r[1] for r in sel)
            lo, hi = wilson(k, n)
            m, se = _mean_se([r[2] for r in sel])
            ms = f"{1e3 * t / len(rows):6.2f}" if keep is None else ""
            print(f"{name:10s} {label:14s} {n:4d}  {k / n:6.1%} [{lo:5.1%}, {hi:5.1%}]  "
                  f"{m:8.3f} [{m - 1.96 * se:+.3f}, {m + 1.96 * se:+.3f}]  {ms}".rstrip())


def describe(data: dict[str, Any], decisions: list[dict[str, Any]], key: str) -> None:
    by: dict[str, int] = {}
    for d in decisions:
        name = f"{d['variant']}/{d['players']}"
        by[name] = by.get(name, 0) + 1
    dealer = sum(d["seat"] == d["dealer"] for d in decisions)
    play = data.get("phase") == "play"
    ses = sorted(r[_AT["se" if key == "v" else "d_se"]] for d in decisions for r in d["ref"])
    dses = sorted(r[_AT["dse"]] for d in decisions for r in d["ref"] if r[_AT["dse"]] > 0)
    gaps = []
    for d in decisions:
        vals = sorted((r[_AT[key]] for r in d["ref"]), reverse=True)
        gaps.append(vals[0] - vals[1])
    what = "card-play decisions" if play else f"auction decisions ({dealer} the dealer's)"
    print(f"# {len(decisions)} {what}: "
          + ", ".join(f"{k} {v}" for k, v in by.items()))
    how = ("exact solve at <= 12 cards left, else one rollout of the "
           f"{data['policy']} policy" if play
           else f"rest of the hand by the {data['policy']} policy")
    print(f"# reference: every legal action over {data['batches']} x {data['batch']} sampled "
          f"worlds, {how}; measure "
          f"{'utility (point margin / money vs mean)' if key == 'v' else 'side score change'}")
    print(f"# reference noise per candidate: median SE {statistics.median(ses):.3f}, p90 "
          f"{ses[int(0.9 * len(ses))]:.3f}; paired SE of a gap to the best: median "
          f"{statistics.median(dses):.3f} (utility); gap best-second: median "
          f"{statistics.median(gaps):.3f}")
    if key == "v":
        print(f"# noise floor (approx.): a bot always choosing the true best would show "
              f"{noise_floor(decisions):.3f} points lost per decision against a reference this "
              f"noisy")


def noise_floor(decisions: list[dict[str, Any]], draws: int = 200) -> float:
    """The points a bot that always chose the reference's best would seem to lose against a
    second reference of the same noise: taking the stored means as the truth, each gap to the
    best is redrawn with its paired standard error (independently: an approximation), and the
    redrawn best's lead over the true best is averaged."""
    rng = random.Random(0)
    total = 0.0
    for d in decisions:
        rows = d["ref"]
        top = max(r[_AT["v"]] for r in rows)
        gaps = [(top - r[_AT["v"]], r[_AT["dse"]]) for r in rows if r[_AT["dse"]] > 0]
        for _ in range(draws):
            total += max([0.0, *(rng.gauss(-g, se) for g, se in gaps)])
    return total / (draws * len(decisions))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", action="store_true", help="compute the reference and write it")
    ap.add_argument("--play", action="store_true",
                    help=f"card-play decisions instead ({PLAY_QUOTA} a configuration)")
    ap.add_argument("--quick", action="store_true", help=f"{QUICK_QUOTA} decisions a configuration")
    ap.add_argument("--batches", type=int, default=None,
                    help=f"--build: sampler calls of {BATCH} worlds per decision "
                         f"(default {BATCHES}; --play {PLAY_BATCHES})")
    ap.add_argument("--out", type=Path, default=None, help="--build: where to write")
    ap.add_argument("--ref", type=Path, default=None, help="the cached reference to read")
    ap.add_argument("--bots", default=DEFAULT_BOTS)
    ap.add_argument("--measure", choices=("utility", "delta"), default="utility")
    a = ap.parse_args(argv)
    t0 = time.perf_counter()
    path = PLAY_DATA if a.play else DATA
    if a.build:
        quota = ((PLAY_QUICK_QUOTA if a.quick else PLAY_QUOTA) if a.play
                 else (QUICK_QUOTA if a.quick else QUOTA))
        batches = a.batches or (PLAY_BATCHES if a.play else BATCHES)
        build(quota, batches, a.out or path, a.play)
    else:
        data = json.loads((a.ref or path).read_text())
        decisions = data["decisions"]
        if a.quick:
            per = data["quota"]
            few = PLAY_QUICK_QUOTA if a.play else QUICK_QUOTA
            decisions = [d for i, d in enumerate(decisions) if i % per < few]
        key = "v" if a.measure == "utility" else "d"
        if a.play and key == "d":
            raise SystemExit("--measure delta: the play reference stores the utility only")
        describe(data, decisions, key)
        score(decisions, bot_names(a.bots), key, a.play)
    print(f"# {time.perf_counter() - t0:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
