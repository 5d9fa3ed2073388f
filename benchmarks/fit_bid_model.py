"""Fit the bid model (:mod:`pitchcards.bots.bid_model`) to self-play auctions, and score it.

    flock /tmp/pitch-bench.lock .venv/bin/python benchmarks/fit_bid_model.py          # fit, report
    flock /tmp/pitch-bench.lock .venv/bin/python benchmarks/fit_bid_model.py --write  # and write
                                                      # the coefficients into bid_model.py
    .venv/bin/python benchmarks/fit_bid_model.py --data /tmp/bid_rows.json   # refit cached rows
    .venv/bin/python benchmarks/fit_bid_model.py --quick                     # smoke run

**The data.**  Hands of every four-point variant (the bidding benchmark's configurations: ``money``
at 3, 4 and 6 players, ``auction`` at 3, 4 and 5, ``auction-partners`` and ``setback`` at 4) are
dealt from fixed seeds far from the benchmarks' (:data:`SEED0`), the dealer rotating with the deal
number, and the auction is played by the bots that sit at our tables:

* *heuristic tables*: ``--heuristic-deals`` deals per configuration, every seat the heuristic;
* *mixed tables*: ``--expert-deals`` deals per configuration, each seat the ``expert`` (clockless,
  so the data is deterministic; seeded ``1000 k + s``) or the heuristic by a coin seeded with the
  deal.

After the auction the pitcher names trump (declares or leads), so its decisions are described in
the suit it bid on, as the sampler sees them in play.  Every decision with a choice of level
(:func:`~pitchcards.bots.bid_model.auction_decisions`) is a row: the bidder's hand features, the
auction state, the legal levels and the level chosen.

**The fit.**  A multinomial logistic regression over the legal levels (pass = 0), one weight
vector per level, by Newton's method with a small L2 penalty (``--l2``).  Each bot's rows weigh
half of the total (the heuristic's are many and cheap, the expert's few and slow).  Deals with
``k % 5 == 4`` are held out.

**The report.**  Held-out log-loss per decision (nats; lower is better) and the total held-out
log-likelihood, overall and per bot, of: *uniform* over the legal levels; *none* (the same
regression on the auction state only: what is known without the cards); *hand-set* (the weights
of :func:`~pitchcards.bots.sampler.bid_likelihood` for each legal level, normalised over them);
*fitted*.  The difference to *none* is what the model learns about the cards from the bids.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import numpy as np

import pitchcards as pc
from pitchcards.bots import make_bot
from pitchcards.bots.base import Bot
from pitchcards.bots.bid_model import (
    HAND_FEATURES,
    LEVELS,
    STATE_FEATURES,
    Decision,
    auction_decisions,
    features,
)
from pitchcards.bots.expert import Budget, ExpertBot
from pitchcards.bots.sampler import best_strength, bid_weight, pass_weight, suit_strength
from pitchcards.cards import SUITS
from pitchcards.hand import Hand
from pitchcards.rules import RuleSet
from pitchcards.views import view_of

MODEL = Path(__file__).resolve().parents[1] / "src" / "pitchcards" / "bots" / "bid_model.py"
#: (variant, players): the bidding benchmark's configurations
CONFIGS: tuple[tuple[str, int], ...] = (
    ("money", 3), ("money", 4), ("money", 6), ("auction", 3), ("auction", 4), ("auction", 5),
    ("auction-partners", 4), ("setback", 4))
#: deal seeds: configuration i, table kind t (0 heuristic, 1 mixed), deal k -> SEED0 + 100_000 i
#: + 50_000 t + k (the benchmarks use seeds below 50 000)
SEED0 = 600_000
HOLDOUT = 5
NCOL = 1 + len(HAND_FEATURES) + len(STATE_FEATURES)


# ------------------------------------------------------------------------------ the data
def table(rules: RuleSet, players: int, k: int, seed: int, mixed: bool) -> list[tuple[str, Bot]]:
    """The bots of one deal: all heuristic, or each seat the expert or the heuristic by a coin."""
    coin = random.Random(seed)
    clockless = Budget(time_limit=1e9)
    out: list[tuple[str, Bot]] = []
    for s in range(players):
        if mixed and coin.random() < 0.5:
            out.append(("expert", ExpertBot(1000 * k + s, clockless)))
        else:
            out.append(("heuristic", make_bot("heuristic", seed=1000 * k + s)))
    return out


def play_auction(rules: RuleSet, players: int, k: int, seed: int,
                 mixed: bool) -> list[dict[str, Any]]:
    """One deal's auction (and the naming of trump) by its table; one row per decision."""
    dealer = k % players
    bots = table(rules, players, k, seed, mixed)
    h = Hand.deal(rules, players, dealer=dealer, seed=seed)
    while h.phase == "auction" or (h.trump is None and not h.is_over):
        s = h.seat_to_act
        assert s is not None
        h.push(bots[s][1].choose(view_of(h, s)))
    auction = [(s, a) for s, a in view_of(h, 0).auction]
    trump = SUITS.index(h.trump) if h.trump is not None else None
    dealt = list(h.dealt)
    rows = []
    for d in auction_decisions(rules, dealt, dealer, auction, trump, h.pitcher):
        rows.append({"bot": bots[d.seat][0], "k": k, "level": d.level, "legal": list(d.legal),
                     "z": [1.0, *features(dealt[d.seat], d.suit, rules, players), *d.state],
                     "hand_set": hand_set_probs(d, dealt[d.seat], rules, players, dealer)})
    return rows


def hand_set_probs(d: Decision, mask: int, rules: RuleSet, players: int,
                   dealer: int) -> dict[str, float]:
    """The hand-set model's weight (:func:`~pitchcards.bots.sampler.bid_likelihood`) of each legal
    level of ``d``, normalised over them: a pass from the strength needed to bid, a bid from its
    value (the moon as a 4), the dealer's opening bid forced (no information: weight 1)."""
    high = round(d.state[STATE_FEATURES.index("high")] * 4)
    partner_high = bool(d.state[STATE_FEATURES.index("partner_high")])
    est = (best_strength(mask, players, rules) if d.suit is None
           else suit_strength(mask, d.suit, players))
    need = max(high + 1, rules.min_bid)
    weights: dict[str, float] = {}
    for lv in d.legal:
        if lv == 0:
            weights["0"] = pass_weight(est, need, partner_high) if need <= rules.max_bid else 1.0
        elif high == 0 and d.seat == dealer:
            weights[str(lv)] = 1.0
        else:
            weights[str(lv)] = bid_weight(est, 4 if lv == rules.moon_bid else lv)
    total = sum(weights.values())
    return {lv: w / total for lv, w in weights.items()}


def collect(heuristic_deals: int, expert_deals: int) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for i, (variant, players) in enumerate(CONFIGS):
        rules = pc.find_variant(variant)
        for mixed, deals in ((False, heuristic_deals), (True, expert_deals)):
            t0 = time.perf_counter()
            for k in range(deals):
                seed = SEED0 + 100_000 * i + 50_000 * mixed + k
                rows += play_auction(rules, players, k, seed, mixed)
            print(f"  {variant} {players}p {'mixed' if mixed else 'heuristic'}: {deals} deals "
                  f"in {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    return rows


# ------------------------------------------------------------------------------ the fit
def arrays(rows: list[dict[str, Any]], cols: list[int]) -> tuple[np.ndarray, np.ndarray,
                                                                   np.ndarray, np.ndarray]:
    """Features (the chosen columns), legal mask over levels 0..5, chosen level, row weight."""
    z = np.array([[r["z"][c] for c in cols] for r in rows])
    legal = np.zeros((len(rows), 1 + len(LEVELS)), dtype=bool)
    for i, r in enumerate(rows):
        legal[i, r["legal"]] = True
    y = np.array([r["level"] for r in rows])
    counts = {b: sum(r["bot"] == b for r in rows) for b in ("expert", "heuristic")}
    w = np.array([len(rows) / (2 * counts[r["bot"]]) if all(counts.values()) else 1.0
                  for r in rows])
    return z, legal, y, w


def probs(theta: np.ndarray, z: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """P(level) per row: softmax of (0, theta z) over the legal levels."""
    u = np.concatenate([np.zeros((len(z), 1)), z @ theta.T], axis=1)
    u = np.where(legal, u, -np.inf)
    u -= u.max(axis=1, keepdims=True)
    e = np.exp(u)
    return np.asarray(e / e.sum(axis=1, keepdims=True))


def fit(rows: list[dict[str, Any]], cols: list[int], l2: float) -> np.ndarray:
    """Newton's method on the weighted multinomial log-loss + ``l2`` |theta|^2 / 2 (no penalty
    on the intercepts); theta is (levels x features)."""
    z, legal, y, w = arrays(rows, cols)
    nl, d = len(LEVELS), len(cols)
    onehot = np.zeros_like(legal, dtype=float)
    onehot[np.arange(len(y)), y] = 1.0
    pen = np.full(d, l2)
    pen[0] = 1e-6
    pen_all = np.tile(pen, nl)
    theta = np.zeros((nl, d))
    for _ in range(50):
        p = probs(theta, z, legal)
        grad = ((onehot - p)[:, 1:] * w[:, None]).T @ z - theta * pen  # ascent direction
        hess = np.zeros((nl * d, nl * d))
        for a in range(nl):
            for b in range(nl):
                c = p[:, 1 + a] * ((a == b) - p[:, 1 + b]) * w
                hess[a * d:(a + 1) * d, b * d:(b + 1) * d] = z.T @ (z * c[:, None])
        hess += np.diag(pen_all)
        step = np.linalg.solve(hess, grad.reshape(-1)).reshape(nl, d)
        theta += step
        if np.abs(step).max() < 1e-8:
            break
    return theta


def log_loss(p_chosen: np.ndarray) -> tuple[float, float]:
    """Mean log-loss per decision (nats) and its standard error."""
    ll = -np.log(np.maximum(p_chosen, 1e-300))
    return float(ll.mean()), float(ll.std(ddof=1) / math.sqrt(len(ll)))


def report(test: list[dict[str, Any]], fitted: np.ndarray, none: np.ndarray, cols: list[int],
           none_cols: list[int]) -> None:
    print(f"{'held-out':<16}{'n':>6}  {'uniform':>14}{'none':>14}{'hand-set':>14}{'fitted':>14}"
          "   (log-loss per decision, nats, +- 1.96 se; fitted - hand-set paired)")
    for who in ("all", "expert", "heuristic"):
        sub = [r for r in test if who in ("all", r["bot"])]
        if not sub:
            continue
        z, legal, y, _ = arrays(sub, cols)
        zn = arrays(sub, none_cols)[0]
        at = np.arange(len(y))
        models = {"uniform": 1.0 / legal.sum(axis=1),
                  "none": probs(none, zn, legal)[at, y],
                  "hand-set": np.array([r["hand_set"][str(r["level"])] for r in sub]),
                  "fitted": probs(fitted, z, legal)[at, y]}
        cells = []
        for p in models.values():
            m, se = log_loss(p)
            cells.append(f"{m:.3f}+-{1.96 * se:.3f}")
        diff = np.log(models["fitted"]) - np.log(models["hand-set"])
        dse = diff.std(ddof=1) / math.sqrt(len(diff))
        print(f"{who:<16}{len(sub):>6}  " + "".join(f"{c:>14}" for c in cells)
              + f"   gain {diff.mean():+.4f}+-{1.96 * dse:.4f}"
              + f"  total log-lik fitted {-log_loss(models['fitted'])[0] * len(sub):.0f}"
              + f" hand-set {-log_loss(models['hand-set'])[0] * len(sub):.0f}"
              + f" none {-log_loss(models['none'])[0] * len(sub):.0f}")


def write_model(theta: np.ndarray, note: str) -> None:
    """Replace the fitted-constants block of bid_model.py with ``theta``."""
    names = ("bias", *HAND_FEATURES, *STATE_FEATURES)
    lines = ["# --- fitted constants: written by benchmarks/fit_bid_model.py --write"
             " (do not edit by hand) ---",
             *(f"# {line}" for line in textwrap.wrap(note + " columns: " + ", ".join(names),
                                                      96)),
             "COEF: dict[int, tuple[float, ...]] = {"]
    for lv, row in zip(LEVELS, theta, strict=True):
        vals = [f"{v:.4f}" for v in row]
        lines.append(f"    {lv}: ({', '.join(vals[:9])},")
        lines.append(f"        {', '.join(vals[9:])}),")
    lines.append("}")
    text = MODEL.read_text()
    block = re.compile(r"# --- fitted constants:.*?# --- end of fitted constants ---", re.S)
    new = "\n".join(lines) + "\n# --- end of fitted constants ---"
    MODEL.write_text(block.sub(lambda _: new, text, count=1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--heuristic-deals", type=int, default=1500, help="per configuration")
    ap.add_argument("--expert-deals", type=int, default=60, help="per configuration")
    ap.add_argument("--quick", action="store_true", help="smoke run: 40 and 2 deals")
    ap.add_argument("--l2", type=float, default=1.0)
    ap.add_argument("--data", type=Path, help="load the rows from this file if it exists, "
                    "else collect them and save them there")
    ap.add_argument("--write", action="store_true", help="write the coefficients into "
                    "src/pitchcards/bots/bid_model.py")
    args = ap.parse_args()
    hd, ed = (40, 2) if args.quick else (args.heuristic_deals, args.expert_deals)
    t0 = time.perf_counter()
    if args.data is not None and args.data.exists():
        rows = json.loads(args.data.read_text())
    else:
        rows = collect(hd, ed)
        if args.data is not None:
            args.data.write_text(json.dumps(rows))
    t_data = time.perf_counter() - t0
    train = [r for r in rows if r["k"] % HOLDOUT != HOLDOUT - 1]
    test = [r for r in rows if r["k"] % HOLDOUT == HOLDOUT - 1]
    cols = list(range(NCOL))
    none_cols = [0, *range(1 + len(HAND_FEATURES), NCOL)]
    fitted = fit(train, cols, args.l2)
    none = fit(train, none_cols, args.l2)
    by = {b: sum(r["bot"] == b for r in rows) for b in ("expert", "heuristic")}
    print(f"{len(rows)} decisions ({by['expert']} expert, {by['heuristic']} heuristic): "
          f"{len(train)} to fit, {len(test)} held out; data {t_data:.0f} s, "
          f"total {time.perf_counter() - t0:.0f} s")
    report(test, fitted, none, cols, none_cols)
    if args.write:
        # The runtime model is fitted on all the rows once the held-out report is made.
        final = fit(rows, cols, args.l2)
        write_model(final, f"command: flock /tmp/pitch-bench.lock .venv/bin/python "
                    f"benchmarks/fit_bid_model.py --heuristic-deals {hd} --expert-deals {ed} "
                    f"--l2 {args.l2} --write; seeds: SEED0 = {SEED0} (see the script); "
                    f"{len(rows)} decisions ({by['expert']} expert, {by['heuristic']} "
                    f"heuristic), fitted on all of them after the held-out report")
        print(f"wrote {MODEL}")


if __name__ == "__main__":
    main()
