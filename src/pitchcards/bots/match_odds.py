"""Match-win chances from the scores before a hand: a table computed from simulated hands, or
fitted to simulated matches.

Issue 14, item 3: the expert values a hand that does not end the match by the side's chance to
win the match from the scores after it.  :func:`~.utility.win_chance` is a hand-set formula;
this module computes the chance instead, per rule set:

1. **One hand's outcome** (who pitched, made or set, who took High, Low, Jack and Game, each
   side's points and score change) has a distribution taken from heuristic self-play matches
   (``benchmarks/build_match_odds.py`` writes it, with its provenance, to
   :mod:`._match_odds_data`).  Sides are stored relative to the dealer's side, because the deal
   passes left after every hand (B-R2.2) and the dealer bids last.
2. **The match** is then a Markov chain over score states: the chance ``V(a, b, t)`` that a side
   at ``a`` beats a side at ``b`` when side ``t`` (relative) deals next is found by value
   iteration (scores go down on a set, A-R6 / B-R6, so the chain has cycles: iterate to
   convergence).  Whether a hand ends the match is asked of
   :func:`pitchcards.match.match_winner` itself, so the table follows the rule set's target,
   ``win_rule`` (bidder goes out, B-R8.2) and ``win_requires_made_bid``.

Two teams (partnerships) are an exact two-side race, and the table knows which team deals next
(the dealer bids last, B-R4: near the end that is worth a lot, e.g. about 0.69 against 0.31 at 6-6
to 7); :class:`~.utility.Utility` uses it when told the dealer, else the average over who deals.

**Cutthroat** (each seat a side) is not a Markov chain here: a side's chance is
:class:`SoftmaxOdds`, proportional to ``exp(-slope * points it still needs)``, with the slope per
table size fitted to who won heuristic self-play matches (the build stores it).  On held-out
matches it predicts better than the formula, which is sure of a leader far too early, and than a
race of each side against the leader of the others computed like the two-team table, which
underrated a lead (docs/bots.md, "Cutthroat match-win chances").  :func:`compute_table` still
makes such races (``sides`` > 2).

Where nothing was simulated for the rule set (the money game, the ten-point family, another
cutthroat target, a rule set whose play differs from a built variant) :func:`table_for` returns
None and the formula stands.  The hand distribution is taken from whole matches, so it mixes the
heuristic's bidding at every score; that it does not depend on the scores (nor on who plays) is
this model's main approximation, as it is the softmax's that one slope serves every score.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterable, Mapping, Sequence
from types import ModuleType
from typing import Protocol

from ..match import match_winner
from ..rules import RuleSet, find_variant
from ..scoring import HandResult
from .softmax import softmax

__all__ = ["Odds", "OddsTable", "SoftmaxOdds", "compute_table", "encode", "outcomes",
           "race_values", "table_for", "win_chances"]

#: a score far below any target: the sides a two-side race ignores (they never reach the target)
FAR = -(10**6)
_TOL = 1e-9
_MAX_SWEEPS = 2000

#: the options that change only how a match ends or who deals first, not how a hand is played
#: or scored: a rule set that differs from a built variant only in these uses its outcomes
_MATCH_ONLY = ("name", "target", "win_rule", "win_requires_made_bid", "first_dealer",
               "min_players", "max_players")
#: of those, the ones that change the table (B-R8): with the built variant's, its stored table
_END_RULES = ("target", "win_rule", "win_requires_made_bid")


def _code(v: int | None) -> int:
    return -1 if v is None else v


def encode(result: HandResult, dealer_side: int, sides: int) -> tuple[int, ...]:
    """One hand's outcome as ints, sides relative to the dealer's side (None is -1).

    ``(pitcher side, made, moon, High, Low, Jack, Game, points per side..., deltas per side...)``:
    what :func:`~pitchcards.match.match_winner` reads (the ten-point family's extra points are not
    stored: that family has no table).
    """
    def rel(v: int | None) -> int:
        return -1 if v is None else (v - dealer_side) % sides

    def rot(xs: Sequence[int]) -> tuple[int, ...]:
        return tuple(xs[(dealer_side + i) % sides] for i in range(sides))

    if result.extra:
        raise ValueError("the ten-point family's extra points are not encoded")
    return (rel(result.pitcher_side), int(result.made), int(result.moon), rel(result.high),
            rel(result.low), rel(result.jack), rel(result.game), *rot(result.points),
            *rot(result.deltas))


def _decode(code: Sequence[int], dealer_side: int, sides: int) -> HandResult:
    """The :class:`HandResult` of an encoded outcome when side ``dealer_side`` deals."""
    def side(v: int) -> int | None:
        return None if v < 0 else (v + dealer_side) % sides

    def unrot(xs: Sequence[int]) -> tuple[int, ...]:
        return tuple(xs[(i - dealer_side) % sides] for i in range(sides))

    pside, made, moon, high, low, jack, game = code[:7]
    points = unrot(code[7:7 + sides])
    deltas = unrot(code[7 + sides:7 + 2 * sides])
    return HandResult(pitcher=None, bid=0, made=bool(made), moon=bool(moon), high=side(high),
                      low=side(low), jack=side(jack), game=side(game), points=points,
                      deltas=deltas, pitcher_side=side(pside), thrown_in=pside < 0)


@functools.cache
def _data() -> ModuleType:
    """The generated data, imported on first use (it is large: only a table's user pays)."""
    from . import _match_odds_data

    return _match_odds_data


def outcomes() -> Mapping[tuple[str, int], tuple[tuple[int, ...], ...]]:
    """The counted hand outcomes per (variant, players) (:mod:`._match_odds_data`)."""
    data: Mapping[tuple[str, int], tuple[tuple[int, ...], ...]] = _data().OUTCOMES
    return data


def _key_for(rules: RuleSet, players: int) -> tuple[str, int] | None:
    """The built (variant, players) whose hands are played and scored as under ``rules``."""
    return _same_play(rules, outcomes(), players)


@dataclasses.dataclass(frozen=True, slots=True)
class _Race:
    """A two-side race: side 0 against side ``opp`` (relative seats/teams), ``sides`` in all.

    ``phases``: 2 for two teams (the dealer's team alternates, B-R2.2: the state says which
    deals next); 1 for cutthroat tables (the dealer is drawn afresh each hand, an approximation
    of the rotation that keeps the state small: the chance is averaged over the dealer anyway).
    """

    rules: RuleSet
    target: int
    sides: int
    opp: int
    lo: int
    hi: int
    phases: int

    @property
    def width(self) -> int:
        return self.hi - self.lo + 1

    def index(self, a: int, b: int, t: int) -> int:
        w = self.width
        return (t * w + (b - self.lo)) * w + (a - self.lo)

    def clamp(self, v: int) -> int:
        return self.lo if v < self.lo else self.hi if v > self.hi else v


def _project(race: _Race, r: HandResult) -> HandResult:
    """``r`` with everything about sides other than the two racers folded into one of them
    (its points and changes zeroed): they never reach the target, so match_winner cannot tell
    them apart, and merging equal projections keeps the chain small."""
    keep = (0, race.opp)
    other = next((s for s in range(race.sides) if s not in keep), None)

    def side(v: int | None) -> int | None:
        return v if v is None or v in keep else other

    def only(xs: Sequence[int]) -> tuple[int, ...]:
        return tuple(x if i in keep else 0 for i, x in enumerate(xs))

    return HandResult(pitcher=None, bid=0, made=r.made, moon=r.moon, high=side(r.high),
                      low=side(r.low), jack=side(r.jack), game=side(r.game),
                      points=only(r.points), deltas=only(r.deltas),
                      pitcher_side=side(r.pitcher_side), thrown_in=r.thrown_in)


#: the outcomes that change the racers' scores by ``(da, db)``: ``(da, db, probability, any moon,
#: [(probability, result), ...])``
Group = tuple[int, int, float, bool, list[tuple[float, HandResult]]]


def _groups(race: _Race, outcomes: Sequence[tuple[int, ...]], dealers: Sequence[int]
            ) -> list[Group]:
    """The outcomes when one of the relative sides ``dealers`` (equally likely) deals, grouped
    by the two racers' score changes: ``(da, db, probability, [(probability, result), ...])``."""
    total = sum(o[0] for o in outcomes) * len(dealers)
    merged: dict[tuple[object, ...], tuple[float, HandResult]] = {}
    for t in dealers:
        for o in outcomes:
            r = _project(race, _decode(o[1:], t, race.sides))
            key = (r.pitcher_side, r.made, r.moon, r.high, r.low, r.jack, r.game, r.points,
                   r.deltas, r.thrown_in)
            q, _ = merged.get(key, (0.0, r))
            merged[key] = (q + o[0] / total, r)
    groups: dict[tuple[int, int], list[tuple[float, HandResult]]] = {}
    for q, r in merged.values():
        groups.setdefault((r.deltas[0], r.deltas[race.opp]), []).append((q, r))
    return [(da, db, sum(p for p, _ in rs), any(r.moon for _, r in rs), rs)
            for (da, db), rs in groups.items()]


def _step(race: _Race, a: int, b: int,
          groups: list[Group]) -> tuple[float, dict[tuple[int, int], float]]:
    """From scores ``(a, b)``: the chance the hand wins the match for side 0, and the chance of
    each pair of score changes that plays on."""
    win = 0.0
    on: dict[tuple[int, int], float] = {}
    before = [FAR] * race.sides
    before[0], before[race.opp] = a, b
    for da, db, p, moon, rs in groups:
        if a + da < race.target and b + db < race.target and not moon:
            # Nobody reaches the target: no win_rule ends the match (B-R8; a made smudge that
            # wins outright, §5.4(b), is a moon and is asked of match_winner below).
            on[(da, db)] = on.get((da, db), 0.0) + p
            continue
        for q, r in rs:
            after = [s + d for s, d in zip(before, r.deltas, strict=True)]
            won = match_winner(race.rules, before, after, r)
            if won is None:
                on[(da, db)] = on.get((da, db), 0.0) + q
            elif won == 0:
                win += q
    return win, on


def race_values(rules: RuleSet, outcomes: Sequence[tuple[int, ...]], sides: int, opp: int,
                lo: int, hi: int) -> tuple[_Race, list[float]]:
    """Value iteration: ``V[index(a, b, t)]``, side 0's chance to beat side ``opp`` from scores
    ``a``/``b`` in phase ``t`` (see :class:`_Race`: two teams, ``t`` is the relative side that
    deals next, and the deal passes left, ``t + 1`` next; cutthroat, one phase)."""
    assert rules.target is not None
    phases = 2 if sides == 2 else 1
    race = _Race(rules, rules.target, sides, opp, lo, hi, phases)
    w = race.width
    rows: list[tuple[int, float, list[tuple[int, float]]]] = []
    for t in range(phases):
        groups = _groups(race, outcomes, [t] if phases == sides else range(sides))
        nt = (t + 1) % phases
        for b in range(lo, hi + 1):
            for a in range(lo, hi + 1):
                win, on = _step(race, a, b, groups)
                nxt: dict[int, float] = {}
                for (da, db), p in on.items():
                    j = race.index(race.clamp(a + da), race.clamp(b + db), nt)
                    nxt[j] = nxt.get(j, 0.0) + p
                rows.append((race.index(a, b, t), win, list(nxt.items())))
    # Gauss-Seidel from the highest scores down: most hands raise the scores, so most successors
    # are already up to date.
    rows.sort(key=lambda row: -(row[0] % w + row[0] // w % w))
    v = [0.0] * (w * w * phases)
    for _ in range(_MAX_SWEEPS):
        delta = 0.0
        for i, won, succ in rows:
            x = won + sum(q * v[k] for k, q in succ)
            if abs(x - v[i]) > delta:
                delta = abs(x - v[i])
            v[i] = x
        if delta < _TOL:
            break
    return race, v


@dataclasses.dataclass(frozen=True, slots=True)
class OddsTable:
    """Side-vs-side race chances for one rule set and table size."""

    rules: RuleSet
    players: int
    sides: int
    lo: int
    hi: int
    #: per relative opponent offset (1..sides-1): the chance at ``(a - lo) + (b - lo) * width
    #: + t * width * width`` (``t``: the phase of :class:`_Race`, who deals next)
    races: dict[int, Sequence[float]]

    @property
    def phases(self) -> int:
        """2 for two teams (who deals next is part of the state), else 1."""
        return 2 if self.sides == 2 else 1

    def race(self, a: int, b: int, opp: int = 1, dealer: int | None = None) -> float:
        """The chance that a side at ``a`` beats the side ``opp`` seats (teams) to its left at
        ``b`` (only these two can win), before a hand dealt by relative side ``dealer`` (0: the
        side itself; two teams only), or averaged over the dealer if None."""
        w = self.hi - self.lo + 1

        def c(v: int) -> int:
            return min(max(v, self.lo), self.hi) - self.lo

        values = self.races[opp]
        i = c(a) + c(b) * w
        if self.phases == 1:
            return values[i]
        if dealer is not None:
            return values[i + dealer % 2 * w * w]
        return (values[i] + values[i + w * w]) / 2

    def chances(self, scores: Sequence[int], dealer: int | None = None) -> list[float]:
        """Each side's chance to win the match from ``scores`` before a hand dealt by side
        ``dealer`` (None: unknown; cutthroat tables ignore it).  Two sides: the exact race;
        more: each side's race against the leader among the others, normalised."""
        n = self.sides
        raw = []
        for i in range(n):
            best = max(scores[j] for j in range(n) if j != i)
            leaders = [j for j in range(n) if j != i and scores[j] == best]
            rel = None if dealer is None else (dealer - i) % n
            raw.append(sum(self.race(scores[i], best, (j - i) % n, rel) for j in leaders)
                       / len(leaders))
        total = sum(raw)
        return [x / total for x in raw] if total > 0 else [1.0 / n] * n


def _bounds(rules: RuleSet, outcomes: Sequence[tuple[int, ...]], sides: int) -> tuple[int, int]:
    """Scores tracked: from well below zero (two sets' worth below minus the target) to one
    best hand past the target; beyond these the chance barely changes and is clamped."""
    assert rules.target is not None
    deltas = [d for o in outcomes for d in o[8 + sides:8 + 2 * sides]]
    gain, loss = max(max(deltas), 1), max(-min(deltas), 1)
    return -rules.target - 2 * loss, rules.target + gain


def compute_table(rules: RuleSet, players: int, outcomes: Sequence[tuple[int, ...]]
                  ) -> OddsTable:
    """The odds table of ``rules`` at ``players`` seats from counted hand ``outcomes`` (rows of
    :data:`._match_odds_data.OUTCOMES`), by value iteration: seconds for a cutthroat table."""
    sides = rules.side_count(players)
    lo, hi = _bounds(rules, outcomes, sides)
    races: dict[int, Sequence[float]] = {
        opp: race_values(rules, outcomes, sides, opp, lo, hi)[1] for opp in range(1, sides)}
    return OddsTable(rules, players, sides, lo, hi, races)


@dataclasses.dataclass(frozen=True, slots=True)
class SoftmaxOdds:
    """Cutthroat match-win chances: each side's chance is proportional to
    ``exp(-slope * points it still needs)`` (a need of zero once at or past the target without
    having gone out).

    ``slope`` is fitted by maximum likelihood to who won heuristic self-play matches of the rule
    set and table size (``benchmarks/build_match_odds.py``).  On held-out matches it predicts
    the winner better than both the hand-set :func:`~.utility.win_chance` (whose scale shrinks
    as the race nears its end, so it is sure of a leader far too early) and a Markov race of
    each side against the leader of the others (which underrates a lead): docs/bots.md,
    "Cutthroat match-win chances"."""

    target: int
    slope: float

    def chances(self, scores: Sequence[int], dealer: int | None = None) -> list[float]:
        """Each side's chance to win from ``scores`` (``dealer`` is not used)."""
        return softmax([-self.slope * max(self.target - s, 0) for s in scores])


class Odds(Protocol):
    """What :class:`~.utility.Utility` asks of a table: each side's chance to win the match."""

    def chances(self, scores: Sequence[int], dealer: int | None = None) -> list[float]: ...


def _same_play(rules: RuleSet, keys: Iterable[tuple[str, int]], players: int
               ) -> tuple[str, int] | None:
    """The key among ``keys`` (variant, players) whose hands are played and scored as under
    ``rules`` at ``players`` seats, if any."""
    play = [f.name for f in dataclasses.fields(rules) if f.name not in _MATCH_ONLY]
    for name, n in keys:
        base = find_variant(name)
        if n == players and all(getattr(rules, f) == getattr(base, f) for f in play):
            return name, n
    return None


def _same_end(rules: RuleSet, variant: str) -> bool:
    """Whether ``rules`` ends a match as the built ``variant`` does (:data:`_END_RULES`)."""
    base = find_variant(variant)
    return all(getattr(rules, f) == getattr(base, f) for f in _END_RULES)


@functools.lru_cache(maxsize=16)
def table_for(rules: RuleSet, players: int) -> Odds | None:
    """The match-win odds for ``rules`` at ``players`` seats; None where nothing was simulated
    for them (then the formula stands).

    Two teams: a built variant's own table is stored with its data (computed by the build);
    another target or win rule over the same play is computed here on first use (cached).
    Cutthroat: the fitted :class:`SoftmaxOdds` of the built variant, for its own target and win
    rule only (the slope is fitted to how those matches end)."""
    if rules.target is None or rules.money != "none":
        return None
    if not rules.partnership_mode:
        slopes: Mapping[tuple[str, int], float] = _data().SLOPES
        key = _same_play(rules, slopes, players)
        if key is None or not _same_end(rules, key[0]):
            return None
        return SoftmaxOdds(rules.target, slopes[key])
    key = _key_for(rules, players)
    if key is None:
        return None
    tables: Mapping[tuple[str, int], tuple[int, int, dict[int, tuple[float, ...]]]]
    tables = _data().TABLES
    stored = tables.get(key)
    if stored is not None and _same_end(rules, key[0]):
        lo, hi, races = stored
        return OddsTable(rules, players, 2, lo, hi, dict(races))
    return compute_table(rules, players, outcomes()[key])


def win_chances(rules: RuleSet, players: int, scores: Sequence[int],
                dealer: int | None = None) -> list[float] | None:
    """Each side's chance to win the match from ``scores`` before a hand dealt by side
    ``dealer`` (None: unknown), or None where there is no table."""
    table = table_for(rules, players)
    return None if table is None else table.chances(scores, dealer)
