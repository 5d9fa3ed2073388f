"""The ``expert`` bot (and the ``hard`` level): PIMC over sampled deals.

Every decision samples deals consistent with the seat's view (:mod:`.sampler`: hard evidence
exactly, bids and passes as soft evidence) and scores each legal action in every sampled world:

* **late in the hand** (at most ``solve_cards`` cards left in the hands) by exact open-hand
  search (:mod:`.solver`), with a node budget that falls back to rollouts;
* **earlier** by rollouts: the action, then the rollout policy (:mod:`.policy`) for every seat to
  the end of the hand;
* **in the auction** by the same rollouts from the candidate bid: the rest of the auction is
  simulated too, so other seats may overcall, and the hand is played out.

The value of a finished hand is match-aware (:class:`~.utility.Utility`): the chance to win the
match given the scores and target (a made bid that goes out is worth 1), money against the
average in the money game, the point margin otherwise.  Values are averaged over the worlds
(Perfect-Information Monte Carlo) and the best action is taken; ties go to the rollout policy's
own choice.
"""

from __future__ import annotations

import contextlib
import math
import time
from dataclasses import dataclass, field

from ..actions import PASS_ID, PITCH_BASE, Action
from ..hand import Hand
from ..views import View
from .base import Bot
from .bid_model import level_of
from .policy import playout, rollout_action
from .sampler import sample_worlds
from .solver import BudgetExceeded, Solver
from .utility import Utility

__all__ = ["EXPERT", "EXPERT_V1", "HARD", "Analysis", "Budget", "ExpertBot", "ExpertV1Bot",
           "HardBot", "candidates", "evaluate"]


#: issue 35: the expert's default work per decision in the ten-point family (positions its
#: rollouts push; see ``Budget.work``), chosen so that its p99 decision stays within 500 ms on
#: the compiled build; the four-point games' counts of worlds bound them well within it
TEN_POINT_WORK = 40_000
#: issue 35: the expert's wall-clock stop, seconds: a safety net only (an overloaded machine),
#: never reached at the default work
SAFETY_NET = 2.0


@dataclass(frozen=True, slots=True)
class Budget:
    """How much an expert thinks per decision."""

    worlds: int = 24            #: sampled deals per card-play decision
    bid_worlds: int = 48        #: sampled deals per auction decision
    rollouts: int = 1           #: rollouts per (world, action) before the exact-solve horizon
    solve_cards: int = 12       #: solve exactly once at most this many cards are left in hands
    max_nodes: int = 20_000     #: solver nodes per world before falling back to rollouts
    time_limit: float = 0.6     #: seconds: stop sampling more worlds after this
    soft: bool = True           #: weight worlds by the bidding evidence
    #: ten-point family only (T1-T8): keep the rollout policy's choice unless another action
    #: beats it by this many standard errors of the paired per-world difference (its bids, trump
    #: and discards are made on noisy rollouts of long hands; 0 turns the guard off)
    ten_point_guard: float = 1.0
    # Issue 14's improvements, each a switch that EXPERT_V1 leaves at its old behaviour:
    #: value a hand that does not end the match by :mod:`.match_odds`'s match-win chances (a
    #: simulated table for two teams, a fitted softmax for cutthroat) instead of the
    #: :func:`~.utility.win_chance` formula
    win_table: bool = False
    #: what other seats' bids and passes say about their cards: "hand-set" (the v1 weights of
    #: :func:`~.sampler.bid_likelihood`) or "fitted" (weights fitted to self-play)
    bid_model: str = "hand-set"
    #: auction: while candidates are within ``race_z`` standard errors of the best (paired over
    #: the same worlds), sample ``bid_worlds`` more for those alone, up to this many worlds in
    #: all (0: never; the clock still stops it)
    bid_worlds_max: int = 0
    race_z: float = 2.0
    #: card play (four-point games): the same race as the auction's, ``worlds`` at a time, up
    #: to this many worlds (0: never; the ten-point family's long hands keep one batch, guarded
    #: by ``ten_point_guard``)
    worlds_max: int = 0
    #: card play with more than ``solve_cards`` left: roll out until this many cards are left,
    #: then solve the rest exactly (0: roll out to the end)
    deep_cards: int = 0
    #: auction (four-point games): points taken off a bid's rolled-out value per level bid (a
    #: pitch is 4, the moon 5), against overbidding; measured and kept off: over 3464 hands the
    #: expert's bids realize what it expects as well as its passes do (docs/bots.md,
    #: "Calibration of the bids"; benchmarks/calibrate_bids.py)
    bid_bias: float = 0.0
    #: issue 35: the work a decision may do, counted so that a seed gives the same choice on any
    #: machine: positions its rollouts push (the exact solver is bounded by ``max_nodes`` a
    #: world instead); no further world is started once this much is spent (at least two always
    #: are; 0: no cap, only the counts of worlds and the clock)
    work: int = 0
    #: the same cap in the ten-point family (T1-T8), where a rolled-out position costs about
    #: five times a four-point one (longer hands, the declare and discard); 0: ``work``
    ten_point_work: int = 0
    #: auction with three teams (TT1): keep the rollout policy's (the heuristic's) bid unless
    #: another beats it by this many standard errors, as ``ten_point_guard`` does for the
    #: ten-point family (0: off)
    teams3_guard: float = 0.0


#: issue 14: the races in the auction and the card play and the match-win chances; measured
#: +0.145 points/hand over 8000 duplicate hands from 0-0 against expert-v1 (docs/bots.md,
#: "A stronger expert").  Issue 35: its thinking is counted in work (``work``), the same on
#: any machine; ``time_limit`` is only a safety net that benchmarks/bench_expert.py's ``speed``
#: shows is never reached at this budget on the compiled build (docs/bots.md, "Budgets counted
#: in work")
EXPERT = Budget(bid_worlds_max=144, worlds_max=96, race_z=1.5, win_table=True,
                ten_point_work=TEN_POINT_WORK, time_limit=SAFETY_NET)
#: The expert as it was when issue 14 began, kept unchanged as the yardstick (``expert-v1``):
#: every later improvement is a Budget field that this budget leaves at its old behaviour.
EXPERT_V1 = Budget()
#: The ``hard`` level: a third of the expert's worlds, a smaller solver; issue 35: counted like
#: the expert's (the ten-point family's work a third of its), the clock only the safety net
HARD = Budget(worlds=8, bid_worlds=16, solve_cards=8, max_nodes=5_000,
              ten_point_work=TEN_POINT_WORK // 3, time_limit=SAFETY_NET)


@dataclass(slots=True)
class Analysis:
    """The result of one decision: each candidate's mean value and how it was computed."""

    best: Action
    values: dict[Action, float]
    worlds: int
    method: str                      #: "solve", "rollout", "mixed", "auction" or "forced"
    policy_choice: Action | None = None
    points: dict[Action, float] = field(default_factory=dict)  #: mean point margin per action
    #: each candidate's value in every world it was evaluated in (the same worlds, in order)
    per: dict[Action, list[float]] = field(default_factory=dict)
    work: int = 0                    #: positions pushed (``Budget.work``'s count)
    clock: bool = False              #: the wall clock (``time_limit``) stopped it, not the work


def _rollout(world: Hand, util: Utility, b: Budget, side: int) -> tuple[float, float]:
    """Play ``world`` to its end with the rollout policy; (utility, point margin); undone."""
    value, margin, _ = _rollout_counted(world, util, b, side)
    return value, margin


def _rollout_counted(world: Hand, util: Utility, b: Budget,
                     side: int) -> tuple[float, float, int]:
    """Play ``world`` to its end with the rollout policy; (utility, point margin, positions
    pushed: the work done, ``Budget.work``); undone.

    With ``b.deep_cards`` (card play only) the policy plays until that many cards are left and
    the solver gives ``side``'s utility of the rest; the point margin is still the policy's."""
    depth = playout(world, b.deep_cards if world.phase == "play" else 0)
    value: float | None = None
    if world.result is None:  # stopped early: solve the rest, then finish for the margin
        with contextlib.suppress(BudgetExceeded):  # too big: the rollout's own result
            value = Solver(world, side, util, b.max_nodes).value()
        depth += playout(world)
    r = world.result
    assert r is not None
    out = (util(r) if value is None else value, util.points(r), depth)
    for _ in range(depth):
        world.pop()
    return out


def candidates(view: View) -> list[Action]:
    """Legal actions worth evaluating: in the auction, pitches only of each suit's top card."""
    acts = list(view.legal_actions)
    if view.phase != "auction":
        return acts
    top: dict[int, Action] = {}
    for a in acts:
        if PITCH_BASE <= a < 2 * PITCH_BASE:
            suit = (a - PITCH_BASE) // 13
            if suit not in top or a > top[suit]:
                top[suit] = a
    return [a for a in acts if not PITCH_BASE <= a < 2 * PITCH_BASE] + sorted(top.values())


class ExpertBot(Bot):
    """PIMC: sample deals from the view, solve late / roll out early, average, pick the best."""

    name = "expert"
    budget: Budget = EXPERT

    def __init__(self, seed: int | None = None, budget: Budget | None = None) -> None:
        super().__init__(seed)
        if budget is not None:
            self.budget = budget

    def choose(self, view: View) -> Action:
        return self.analyse(view).best

    def analyse(self, view: View) -> Analysis:
        """Evaluate the seat's candidate actions (the expert's choice is ``.best``)."""
        acts = list(view.legal_actions)
        if not acts:
            raise ValueError("it is not this seat's turn: no legal actions")
        if len(acts) == 1:
            return Analysis(acts[0], {acts[0]: 0.0}, 0, "forced", acts[0])
        assert view.seat is not None
        b = self.budget
        start = time.perf_counter()
        side = view.side_of(view.seat)
        util = Utility(view.rules, side, view.players, view.scores, win_table=b.win_table)
        auction = view.phase == "auction"
        cands = candidates(view)
        count = b.bid_worlds if auction else b.worlds
        worlds = sample_worlds(view, count, self.rng, soft=b.soft, bid_model=b.bid_model)
        four_point = view.rules.points_total == 4
        guard = 0.0 if four_point else b.ten_point_guard
        if auction and view.rules.teams == 3 and b.teams3_guard:
            guard = b.teams3_guard
        analysis = evaluate(worlds, cands, util, side, auction, b, start, guard)
        most = b.bid_worlds_max if auction else b.worlds_max if four_point else 0
        if most > count and not analysis.clock and not _spent(b, view.rules.points_total,
                                                                  analysis.work):
            self._race(view, analysis, util, side, b, start, guard, count, most)
        return analysis

    def _race(self, view: View, analysis: Analysis, util: Utility, side: int, b: Budget,
              start: float, guard: float, batch: int, most: int) -> None:
        """Spend more worlds where the choice is close (``bid_worlds_max`` in the auction,
        ``worlds_max`` in the card play): the candidates still within ``race_z`` paired
        standard errors of the best are evaluated over ``batch`` fresh worlds at a time, until
        one stands clear, ``most`` worlds are spent or the clock runs out; ``analysis`` is
        updated in place."""
        per, points = analysis.per, analysis.points
        auction = view.phase == "auction"
        while analysis.worlds + batch <= most:
            if time.perf_counter() - start > b.time_limit:
                analysis.clock = True
                break
            if _spent(b, view.rules.points_total, analysis.work):
                break
            contenders = _contenders(analysis.best, per, b.race_z)
            if len(contenders) < 2:
                break
            worlds = sample_worlds(view, batch, self.rng, soft=b.soft, bid_model=b.bid_model)
            more = evaluate(worlds, contenders, util, side, auction, b, start, done=analysis.work)
            analysis.work = more.work
            analysis.clock = more.clock
            before = len(per[contenders[0]])
            for a in contenders:
                per[a].extend(more.per[a])
                analysis.values[a] = sum(per[a]) / len(per[a])
                if a in points and a in more.points:
                    points[a] = (points[a] * before + more.points[a] * more.worlds) / len(per[a])
            analysis.worlds = len(per[contenders[0]])
            policy = analysis.policy_choice
            best = _best(contenders, analysis.values, policy)
            if guard > 0 and policy is not None and policy in contenders and best != policy:
                best = _guarded(best, policy, per, guard)
            analysis.best = best


def evaluate(worlds: list[Hand], cands: list[Action], util: Utility, side: int, auction: bool,
             b: Budget, start: float, guard: float = 0.0, done: int = 0) -> Analysis:
    """PIMC over ``worlds``: each candidate's mean value (solved late, rolled out early).

    With ``guard`` > 0 the rollout policy's choice stands unless the best candidate beats it by
    ``guard`` standard errors of their paired difference over the worlds.  ``done``: the work
    (``Budget.work``) the decision has already spent; the worlds after the second are skipped
    once it is all spent, or (the safety net) once ``time_limit`` has passed since ``start``."""
    policy_choice = rollout_action(worlds[0])
    bias = _bid_bias(cands, util, b) if auction else {}
    unit = util.per_point() if bias else 1.0  # a point in the utility's units
    per: dict[Action, list[float]] = {a: [] for a in cands}
    totals = dict.fromkeys(cands, 0.0)
    margins = dict.fromkeys(cands, 0.0)
    left = sum(worlds[0].hand_of(s).bit_count() for s in range(worlds[0].players))
    methods: set[str] = set()
    used = 0
    work = done
    clock = False
    for world in worlds:
        if used >= 2:
            if _spent(b, util.rules.points_total, work):
                break
            if time.perf_counter() - start > b.time_limit:
                clock = True
                break
        used += 1
        vals: dict[Action, float] | None = None
        if not auction and left <= b.solve_cards:
            try:
                vals = Solver(world, side, util, b.max_nodes).action_values()
                methods.add("solve")
            except BudgetExceeded:
                vals = None
        if vals is not None:
            for a in cands:
                totals[a] += vals[a]
                per[a].append(vals[a])
            continue
        methods.add("auction" if auction else "rollout")
        for a in cands:
            world.push_unchecked(a)
            work += 1
            value = 0.0
            for _ in range(b.rollouts):
                u, p, w = _rollout_counted(world, util, b, side)
                work += w
                value += u / b.rollouts
                margins[a] += p / b.rollouts
            if a in bias:
                value -= bias[a] * unit
                margins[a] -= bias[a]
            totals[a] += value
            per[a].append(value)
            world.pop()
    values = {a: v / used for a, v in totals.items()}
    points = {a: v / used for a, v in margins.items()} if "solve" not in methods else {}
    best = _best(cands, values, policy_choice)
    if guard > 0 and best != policy_choice and policy_choice in per:
        best = _guarded(best, policy_choice, per, guard)
    method = methods.pop() if len(methods) == 1 else "mixed"
    return Analysis(best, values, used, method, policy_choice, points, per, work, clock)


def _spent(b: Budget, rules_points: int, work: int) -> bool:
    """Whether a decision whose rollouts have pushed ``work`` positions has spent its cap
    (``b.ten_point_work`` in the ten-point family, whose ``rules.points_total`` is 10, when
    set, else ``b.work``)."""
    cap = b.ten_point_work if rules_points == 10 and b.ten_point_work else b.work
    return 0 < cap <= work


def _bid_bias(cands: list[Action], util: Utility, b: Budget) -> dict[Action, float]:
    """The points ``b.bid_bias`` takes off each bid among ``cands`` (none off a pass), in the
    four-point games only."""
    if not b.bid_bias or util.rules.points_total != 4:
        return {}
    return {a: b.bid_bias * level_of(a) for a in cands if a != PASS_ID}


def _best(cands: list[Action], values: dict[Action, float], policy: Action | None) -> Action:
    """The candidate of highest value, the rollout policy's choice winning a tie."""
    return max(cands, key=lambda a: values[a] + (1e-9 if a == policy else 0.0))


def _paired(xs: list[float], ys: list[float]) -> tuple[float, float] | None:
    """The mean of the paired differences ``xs - ys`` over the same worlds and its standard
    error; None with fewer than two pairs."""
    n = len(xs)
    if n < 2:
        return None
    diffs = [x - y for x, y in zip(xs, ys, strict=True)]
    mean = sum(diffs) / n
    return mean, math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n)


def _contenders(best: Action, per: dict[Action, list[float]], z: float) -> list[Action]:
    """``best`` and every candidate evaluated over the same worlds as it whose paired
    difference to it is within ``z`` standard errors (the ones a few more worlds might
    promote). A candidate worth exactly as much as ``best`` in every world (in the card play,
    the 2 and the 3 of a suit no one can win with) is not one: more worlds would not part them."""
    out = [best]
    for a, xs in per.items():
        if a == best or len(xs) != len(per[best]):
            continue
        paired = _paired(per[best], xs)
        if paired is not None and paired != (0.0, 0.0) and paired[0] <= z * paired[1]:
            out.append(a)
    return out


def _guarded(best: Action, policy: Action, per: dict[Action, list[float]], z: float) -> Action:
    """``best`` if it beats ``policy`` by ``z`` standard errors over the worlds, else ``policy``."""
    paired = _paired(per[best], per[policy])
    return best if paired is not None and paired[0] > z * paired[1] else policy


class ExpertV1Bot(ExpertBot):
    """``expert-v1``: the expert as it was before issue 14's changes, the yardstick they are
    measured against (tests/test_expert_v1.py holds its decisions fixed)."""

    name = "expert-v1"
    budget = EXPERT_V1


class HardBot(ExpertBot):
    """The ``hard`` level: the expert with a smaller budget."""

    name = "hard"
    budget = HARD
