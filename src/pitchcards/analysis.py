"""Where did the points go: every bid and card of a recorded game, weighed afterwards (issue 33).

For every decision of every seat (a bid, a pass, a pitch, naming trump, a discard, a card) the
analysis takes **that seat's view at that moment** (:func:`~pitchcards.views.view_of`: its own
cards, everything public, never another seat's hidden cards) and weighs each candidate the way
the expert does (:func:`~pitchcards.bots.expert.evaluate`): deals sampled from the view (the
bidding as soft evidence), each candidate played out in every sampled deal, solved exactly late
in the hand.  The unit is the expected net score change of the hints
(:mod:`pitchcards.bots.hints`): the seat's side's points minus the best other side's (in the
money game the change against the table's mean, A-R7.3).

Each decision then has the chosen action, the best, and the **loss** (best - chosen) with the
standard error of that paired difference over the same deals.  A loss is labelled (inaccuracy,
mistake, blunder: :data:`LABELS`, fractions of the points a hand has) only when it is also more
than :data:`NOISE_Z` standard errors: a decision within the sampling noise is never a mistake.

The budget is counted in sampled deals (:class:`AnalysisBudget`), never in seconds, and every
decision draws its deals from a generator seeded by the analysis seed, the hand and the
decision's place in it, so an analysis is the same for the same record, budget and seed
(whichever seats or hands are asked for).  Late in a hand the **open-hand value** of each
candidate (every card seen, as bridge's double-dummy numbers) is solved exactly on the real
deal: hindsight, kept apart from the numbers the labels are drawn from.

Near a match's end (:func:`near_the_end`: a side is within one hand's points of the target) a
point is not worth the same everywhere, so each candidate is weighed a second time, over the
same deals, by the seat's side's **chance to win the match** (the expert's match utility,
:class:`~pitchcards.bots.utility.Utility` with the scores before the hand), and the decision
carries that loss too (``chance_loss``, in chance from 0 to 1, with its paired standard
error), as the hints do.  The labels stay those of the points, with one exception: a choice
that gives up points for the match — its chance to win it beyond :data:`NOISE_Z` standard
errors above the points-best candidate's (a bid to go out that costs points on average) — is
never labelled (``for_the_match``; at least :data:`FOR_THE_MATCH` of chance more): what wins
the match more often is not a mistake.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass
from typing import Any

from .actions import Action
from .bots.expert import EXPERT, Budget, _paired, candidates, evaluate
from .bots.hints import action_label, explain
from .bots.sampler import sample_worlds
from .bots.solver import BudgetExceeded, Solver
from .bots.utility import Utility
from .errors import OptionError
from .hand import Hand
from .notation import HandRecord, Record
from .rules import RuleSet
from .views import View, view_of

__all__ = ["ANALYSIS_BUDGET", "AUCTION_PHASES", "FOR_THE_MATCH", "LABELS", "NOISE_Z", "PLURALS",
           "AnalysisBudget", "Candidate", "Decision", "GameAnalysis", "PlayerSummary",
           "analyse_decision", "analyse_record", "decision_rng", "decision_view", "label_of",
           "near_the_end"]

#: A loss is labelled only when it is more than this many standard errors of the paired
#: difference (best - chosen) over the sampled deals: about 2.5 % of decisions as good as the
#: best would otherwise be called a mistake by chance alone.
NOISE_Z = 2.0
#: (label, least loss as a fraction of the points a hand has: 4 in the four-point games, 10 in
#: the ten-point family), worst first.  In the four-point games an inaccuracy costs 0.4 points
#: of net score, a mistake 0.8, a blunder 1.6 (giving the Jack to the opponents is 2: a point
#: lost and a point given); docs/bots.md, "Analysis of a game".
LABELS: tuple[tuple[str, float], ...] = (("blunder", 0.4), ("mistake", 0.2), ("inaccuracy", 0.1))
#: A choice gives up points "for the match" (and its points loss gets no label) only when its
#: chance to win the match is above the points-best candidate's by at least this much (one
#: percentage point) as well as beyond NOISE_Z standard errors: a sliver of chance, however
#: sure, does not excuse a point given away.
FOR_THE_MATCH = 0.01
#: Each label in the plural, for tables.
PLURALS = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}
#: The phases whose decisions count as the auction in the summary (T5: naming trump is part of
#: the bidding); the rest (T4's discards, the cards) count as the play.
AUCTION_PHASES = ("auction", "declare")


@dataclass(frozen=True, slots=True)
class AnalysisBudget:
    """How much the analysis weighs each decision, counted in sampled deals (never in time).

    Larger than what the expert spends in play (24 deals a card, 48 a bid, more only where
    the choice is close): every candidate of every decision gets all ``worlds``."""

    worlds: int = 128           #: sampled deals per card-play decision (T4: and per discard)
    bid_worlds: int = 128       #: sampled deals per auction decision (T5: and naming trump)
    solve_cards: int = 12       #: each deal solved exactly once at most this many cards are left
    max_nodes: int = 20_000     #: solver nodes per deal before it falls back to a rollout
    hindsight_cards: int = 12   #: open-hand values once at most this many cards are left (0: off)
    hindsight_nodes: int = 400_000  #: solver nodes for the open-hand values (else none shown)
    #: weigh every decision of a match by the side's chance to win it, not only near its end
    #: (:func:`near_the_end`): what the expert and ``hard`` play for at every score, and what
    #: the arena counts; doubles the work of every decision (benchmarks/bench_analysis.py)
    chance_everywhere: bool = False

    def __post_init__(self) -> None:
        for name in ("worlds", "bid_worlds"):
            value = getattr(self, name)
            if type(value) is not int or value < 2:
                raise OptionError(f"AnalysisBudget.{name} must be a whole number of at least 2 "
                                  f"sampled deals (a standard error needs two), not {value!r}")

    def expert(self) -> Budget:
        """The expert's :class:`~pitchcards.bots.expert.Budget` for these counts: no clock (an
        analysis is the same on a fast or a loaded machine), no cap on the work, no race (every
        candidate gets every deal, so that each difference is paired over the same deals)."""
        return dataclasses.replace(EXPERT, worlds=self.worlds, bid_worlds=self.bid_worlds,
                                   solve_cards=self.solve_cards, max_nodes=self.max_nodes,
                                   time_limit=math.inf, worlds_max=0, bid_worlds_max=0,
                                   work=0, ten_point_work=0)


#: The default budget of ``pitch analyze`` (``--budget N`` sets both counts to N).
ANALYSIS_BUDGET = AnalysisBudget()


@dataclass(frozen=True, slots=True)
class Candidate:
    """One action the seat could take: its expected net score change from the seat's view,
    the standard error of that mean, and (late in a hand) its open-hand value (hindsight)."""

    action: Action
    label: str                  #: "bid 2", "pass", "pitch A♠", "J♠", "♠": the hints' words
    value: float
    se: float
    hindsight: float | None = None
    chance: float | None = None     #: the side's chance to win the match (near its end only)

    def to_dict(self) -> dict[str, Any]:
        return {"action": str(self.action), "label": self.label, "value": round(self.value, 4),
                "se": round(self.se, 4),
                "hindsight": None if self.hindsight is None else round(self.hindsight, 4),
                "chance": None if self.chance is None else round(self.chance, 4)}


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of one seat, weighed from that seat's view."""

    hand: int                   #: the hand's number in the record (1-based)
    index: int                  #: the action's place in the hand (0-based)
    seat: int
    player: str
    phase: str
    action: Action              #: what was chosen
    best: Action                #: the candidate of highest value (the chosen one on a tie)
    loss: float                 #: best - chosen, in points of net score (0: the best, or forced)
    loss_se: float              #: standard error of that paired difference
    label: str | None           #: "inaccuracy", "mistake", "blunder" or None
    worlds: int                 #: sampled deals weighed (0: forced)
    method: str                 #: "solve", "rollout", "mixed", "auction" or "forced"
    candidates: tuple[Candidate, ...]   #: best first
    words: str = ""             #: what the best action does (the hints' words), if not chosen
    #: near a match's end: the best candidate's chance to win the match less the chosen one's
    #: (0..1; None where the match cannot end in this hand, or in the money game)
    chance_loss: float | None = None
    chance_loss_se: float | None = None
    #: the candidate ``chance_loss`` is measured against (the best by chance, the chosen one on
    #: a tie); None where no chances were weighed
    chance_best: Action | None = None
    #: the choice gave up points for the match: its chance to win it is above the points-best
    #: candidate's by FOR_THE_MATCH or more and beyond NOISE_Z standard errors of the paired
    #: difference, so its points loss gets no label
    for_the_match: bool = False

    @property
    def forced(self) -> bool:
        return self.method == "forced"

    def candidate(self, action: Action) -> Candidate:
        return next(c for c in self.candidates if c.action == action)

    def to_dict(self) -> dict[str, Any]:
        return {"hand": self.hand, "index": self.index, "seat": self.seat,
                "player": self.player, "phase": self.phase, "action": str(self.action),
                "best": str(self.best), "loss": round(self.loss, 4),
                "loss_se": round(self.loss_se, 4), "label": self.label, "worlds": self.worlds,
                "method": self.method, "words": self.words,
                "chance_loss": _round(self.chance_loss),
                "chance_loss_se": _round(self.chance_loss_se),
                "chance_best": None if self.chance_best is None else str(self.chance_best),
                "for_the_match": self.for_the_match,
                "candidates": [c.to_dict() for c in self.candidates]}


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    """Where one player's points went: the loss in the auction and in the play, the count of
    each label and the costliest decisions."""

    player: str
    decisions: int
    choices: int                #: decisions with more than one legal action
    auction_loss: float
    play_loss: float
    labels: dict[str, int]
    costliest: tuple[Decision, ...]
    #: near a match's end, the most chance to win the match given up in one decision (0..1)
    chance_loss: float = 0.0

    @property
    def loss(self) -> float:
        return self.auction_loss + self.play_loss

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "decisions": self.decisions, "choices": self.choices,
                "auction_loss": round(self.auction_loss, 4),
                "play_loss": round(self.play_loss, 4), "loss": round(self.loss, 4),
                "chance_loss": round(self.chance_loss, 4), "labels": dict(self.labels),
                "costliest": [{"hand": d.hand, "index": d.index, "action": str(d.action),
                               "best": str(d.best), "loss": round(d.loss, 4)}
                              for d in self.costliest]}


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    """Every analysed decision of a record, in order, and a summary per player."""

    budget: AnalysisBudget
    seed: int
    thresholds: dict[str, float]        #: each label's least loss in points, for these rules
    decisions: tuple[Decision, ...]
    summaries: tuple[PlayerSummary, ...]
    hands: tuple[dict[str, Any], ...]   #: per analysed hand: number, dealer, result line

    def to_dict(self) -> dict[str, Any]:
        """The JSON contract (``pitch analyze --json``): every decision an object with at least
        ``hand``, ``seat``, ``action``, ``best`` and ``loss`` (points)."""
        return {"format": "pitchcards-analysis", "version": 1, "seed": self.seed,
                "budget": dataclasses.asdict(self.budget), "noise_z": NOISE_Z,
                "thresholds": dict(self.thresholds),
                "hands": list(self.hands),
                "decisions": [d.to_dict() for d in self.decisions],
                "summary": [s.to_dict() for s in self.summaries]}


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 4)


def near_the_end(rules: RuleSet, scores: tuple[int, ...] | None) -> bool:
    """Whether a match at ``scores`` (per side, before the hand) can be decided in this hand by
    its points: some side is within :attr:`~pitchcards.rules.RuleSet.points_total` of the
    target.  (A moon, where it wins outright, can end a match from anywhere; a point there is
    still worth about as much as anywhere else.)"""
    if not _in_a_match(rules, scores):
        return False
    assert scores is not None and rules.target is not None
    return any(rules.target - s <= rules.points_total for s in scores)


def _in_a_match(rules: RuleSet, scores: tuple[int, ...] | None) -> bool:
    """Whether there is a match to win at ``scores``: a target, and not the money game."""
    return scores is not None and rules.target is not None and rules.money == "none"


def label_of(loss: float, loss_se: float, rules: RuleSet) -> str | None:
    """The label a loss earns: the worst whose threshold it reaches (a share of
    ``rules.points_total``), and only if it is beyond :data:`NOISE_Z` standard errors."""
    if loss <= NOISE_Z * loss_se:
        return None  # within the sampling noise: never a mistake
    for name, share in LABELS:
        if loss >= share * rules.points_total - 1e-9:
            return name
    return None


def _mean_se(xs: list[float]) -> float:
    n = len(xs)
    if n < 2:
        return 0.0
    mean = sum(xs) / n
    return math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1) / n)


def decision_rng(seed: int, hand: int, index: int) -> random.Random:
    """The generator of one decision's deals: from the seed and the decision's public place
    only (never anything hidden), so that each decision is the same however much is analysed."""
    return random.Random(f"pitchcards-analysis {seed} {hand} {index}")


def analyse_decision(view: View, chosen: Action, rng: random.Random,
                     budget: AnalysisBudget = ANALYSIS_BUDGET, truth: Hand | None = None,
                     hand: int = 0, index: int = 0, player: str = "") -> Decision:
    """Weigh ``chosen`` against the other candidates of ``view``, the seat to act's own view
    (``hand``, ``index`` and ``player`` only name the decision).

    ``truth`` (the real deal at this point, optional) gives the open-hand values late in the
    hand; it is read only for them.  Near a match's end (:func:`near_the_end` of the view's
    scores) the candidates are also weighed by the side's chance to win the match."""
    seat = view.seat
    if seat is None or seat != view.seat_to_act:
        raise ValueError(f"a decision is analysed from the view of the seat to act "
                         f"({view.seat_to_act}), not of {seat!r} (phase {view.phase})")
    legal = list(view.legal_actions)
    if chosen not in legal:
        raise ValueError(f"{chosen} is not legal for seat {seat} in the {view.phase}; "
                         f"legal: {', '.join(map(str, legal))}")
    name = player or f"Seat {seat}"
    if len(legal) == 1:
        only = Candidate(chosen, action_label(view, chosen), 0.0, 0.0)
        return Decision(hand, index, seat, name, view.phase, chosen, chosen, 0.0, 0.0, None, 0,
                        "forced", (only,))
    side = view.side_of(seat)
    util = Utility(view.rules, side, view.players)  # no scores: net points (money: vs the mean)
    b = budget.expert()
    auction = view.phase == "auction"
    cands = candidates(view)
    if chosen not in cands:  # a pitch of a card below its suit's top
        cands.append(chosen)
    count = b.bid_worlds if auction or view.phase == "declare" else b.worlds
    worlds = sample_worlds(view, count, rng, soft=b.soft, bid_model=b.bid_model)
    result = evaluate(worlds, cands, util, side, auction, b, 0.0)
    values, per = result.values, result.per
    best = max(cands, key=lambda a: (values[a], a == chosen))
    loss, loss_se = _loss(per, best, chosen)
    chances, chance_loss, chance_best, for_the_match = _chances(
        view, worlds, cands, chosen, best, side, auction, b, budget.chance_everywhere)
    sights = _hindsight(truth, side, util, budget) if truth is not None else {}
    out = [Candidate(a, action_label(view, a), values[a], _mean_se(per[a]), sights.get(a),
                     chances.get(a)) for a in cands]
    out.sort(key=lambda c: (-c.value, c.action != best, int(c.action)))
    label = None if for_the_match else label_of(loss, loss_se, view.rules)
    return Decision(hand, index, seat, name, view.phase, chosen, best, loss, loss_se, label,
                    result.worlds, result.method, tuple(out),
                    explain(view, best) if best != chosen else "",
                    *chance_loss, chance_best, for_the_match)


def _loss(per: dict[Action, list[float]], best: Action, chosen: Action) -> tuple[float, float]:
    """``best - chosen`` paired over the same deals, and its standard error (0, 0 for the best
    itself); never below 0 (``best`` has the highest mean)."""
    paired = _paired(per[best], per[chosen])
    loss, loss_se = (0.0, 0.0) if best == chosen or paired is None else paired
    return max(loss, 0.0), loss_se


def _chances(view: View, worlds: list[Hand], cands: list[Action], chosen: Action,
             points_best: Action, side: int, auction: bool, b: Budget, everywhere: bool = False
             ) -> tuple[dict[Action, float], tuple[float | None, float | None], Action | None,
                        bool]:
    """Near a match's end (``everywhere``: at any score of a match), each candidate's chance for
    the seat's side to win the match over the same ``worlds`` (the expert's match utility, its
    simulated odds where the rules have them), the chosen one's loss in chance against the best
    by chance, that best (the chosen one on a tie), and whether the choice gave up points for
    the match (its chance beyond NOISE_Z standard errors above ``points_best``'s); else
    nothing."""
    if not (near_the_end(view.rules, view.scores)
            or (everywhere and _in_a_match(view.rules, view.scores))):
        return {}, (None, None), None, False
    util = Utility(view.rules, side, view.players, view.scores, win_table=b.win_table,
                   dealer=view.dealer)
    per = evaluate(worlds, cands, util, side, auction, b, 0.0).per
    # the match utility adds a tiny term per point (a tie-break): a chance is kept in 0..1
    chances = {a: min(max(sum(xs) / len(xs), 0.0), 1.0) for a, xs in per.items()}
    best = max(cands, key=lambda a: (chances[a], a == chosen))
    gain = _paired(per[chosen], per[points_best]) if chosen != points_best else None
    for_the_match = (gain is not None and gain[0] >= FOR_THE_MATCH
                     and gain[0] > NOISE_Z * gain[1])
    return chances, _loss(per, best, chosen), best, for_the_match


def _hindsight(hand: Hand, side: int, util: Utility, budget: AnalysisBudget
               ) -> dict[Action, float]:
    """Each legal card's exact open-hand value on the real deal, once few cards are left
    (nothing earlier, in the auction, or when the solver's node budget runs out)."""
    left = sum(hand.hand_of(s).bit_count() for s in range(hand.players))
    if hand.phase != "play" or left > budget.hindsight_cards:
        return {}
    try:
        return Solver(hand, side, util, budget.hindsight_nodes).action_values()
    except BudgetExceeded:
        return {}


def _names(record: Record, seats: list[str] | None, players: int) -> list[str]:
    if seats is not None:
        return list(seats)
    if record.seat_names is not None:
        return list(record.seat_names)
    return [f"Seat {s}" for s in range(players)]


def _decision_points(record: Record, hands: Collection[int] | None
                     ) -> Iterator[tuple[int, list[str], Hand, tuple[int, ...] | None, int, int,
                                         Action]]:
    """Every recorded action of the hands asked for, with the hand just before it:
    (hand number, names, hand, a match's scores before the hand, index, seat, action); the
    hand moves on after each."""
    scores = _scores_before(record)  # every check line verified before anything is weighed
    for rec in record.hands:
        if rec.outcome is not None or (hands is not None and rec.number not in hands):
            continue  # a hand entered by its outcome has no decisions
        hand = Hand.deal(record.rules, len(rec.cards), rec.dealer, cards=rec.cards)
        names = _names(record, rec.seats, len(rec.cards))
        for index, (seat, action) in enumerate(rec.actions):
            yield rec.number, names, hand, scores.get(rec.number), index, seat, action
            hand.push(action, seat)


def _scores_before(record: Record) -> dict[int, tuple[int, ...]]:
    """A match's scores (per side) before each of its hands, by replaying the record (which
    checks every check line); none for a money session, whose hands are weighed by points."""
    from .notation.replay import replay_each

    before: dict[int, tuple[int, ...]] = {}
    start = tuple(record.scores) if record.scores is not None else None

    def keep(game: Any, item: object) -> None:
        nonlocal start
        if record.game == "money" or not isinstance(item, HandRecord):
            return
        after = tuple(game.scores)
        before[item.number] = start if start is not None else (0,) * len(after)
        start = after

    replay_each(record, on_item=keep)
    return before


def analyse_record(record: Record, budget: AnalysisBudget = ANALYSIS_BUDGET, seed: int = 0,
                   seats: Collection[int] | None = None, hands: Collection[int] | None = None,
                   progress: Callable[[int, int], None] | None = None) -> GameAnalysis:
    """Analyse the decisions of ``record`` (of ``seats`` in ``hands``, 1-based, if given).

    ``progress(done, total)`` is called after each decision.  Deterministic for the record,
    budget and seed."""
    _check_selection(record, seats, hands)
    total = sum(1 for rec in record.hands if rec.outcome is None
                and (hands is None or rec.number in hands)
                for seat, _ in rec.actions if seats is None or seat in seats)
    out: list[Decision] = []
    played: dict[int, tuple[Hand, list[str]]] = {}
    for number, names, hand, scores, index, seat, action in _decision_points(record, hands):
        played[number] = hand, names
        if seats is not None and seat not in seats:
            continue
        out.append(analyse_decision(view_of(hand, seat, scores=scores), action,
                                    decision_rng(seed, number, index), budget, hand,
                                    number, index, names[seat]))
        if progress is not None:
            progress(len(out), total)
    decisions = tuple(out)
    thresholds = {name: share * record.rules.points_total for name, share in LABELS}
    return GameAnalysis(budget, seed, thresholds, decisions, _summaries(decisions),
                        tuple(_hand_line(n, *played[n]) for n in sorted(played)))


def decision_view(record: Record, hand: int, index: int) -> View:
    """The view of the seat that took action ``index`` (0-based) of hand ``hand`` (1-based),
    just before it: what that seat saw when it decided, its own cards only (a puzzle's
    position, "learn from your mistakes")."""
    _check_selection(record, None, (hand,))
    for _number, _names, position, scores, at, seat, _action in _decision_points(record, {hand}):
        if at == index:
            return view_of(position, seat, scores=scores)
    raise OptionError(f"hand {hand} has no action {index!r} (a hand played out or thrown in "
                      f"has actions 0..n-1; one entered by its outcome has none)")


def _hand_line(number: int, hand: Hand, names: list[str]) -> dict[str, Any]:
    """A hand as the report heads it: its number, dealer and result (the record's words)."""
    result = hand.result.summary(seat_name=names.__getitem__) if hand.result is not None else ""
    return {"hand": number, "dealer": hand.dealer, "dealer_name": names[hand.dealer],
            "result": result}


def _check_selection(record: Record, seats: Collection[int] | None,
                     hands: Collection[int] | None) -> None:
    """A seat or hand asked for that the record does not have: an error naming it."""
    numbers = [h.number for h in record.hands]
    most = max([record.players, *(len(h.cards) for h in record.hands)])
    for seat in seats or ():
        if type(seat) is not int or not 0 <= seat < most:
            raise OptionError(f"seat {seat!r} is not a seat of this record (0..{most - 1})")
    for number in hands or ():
        if number not in numbers:
            have = f"1..{len(numbers)}" if numbers else "none"
            raise OptionError(f"hand {number!r} is not in this record (hands: {have})")


def _summaries(decisions: tuple[Decision, ...], costliest: int = 3) -> tuple[PlayerSummary, ...]:
    """One summary per player, in the order they first decide."""
    players: dict[str, list[Decision]] = {}
    for d in decisions:
        players.setdefault(d.player, []).append(d)
    out = []
    for player, mine in players.items():
        labels = {name: sum(d.label == name for d in mine) for name, _ in LABELS}
        worst = sorted((d for d in mine if d.loss > 0), key=lambda d: (-d.loss, d.hand, d.index))
        out.append(PlayerSummary(
            player, len(mine), sum(not d.forced for d in mine),
            sum(d.loss for d in mine if d.phase in AUCTION_PHASES),
            sum(d.loss for d in mine if d.phase not in AUCTION_PHASES),
            labels, tuple(worst[:costliest]),
            max((d.chance_loss for d in mine if d.chance_loss is not None), default=0.0)))
    return tuple(out)
