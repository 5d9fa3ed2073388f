"""The simulated table of match-win chances (issue 14, item 3): it follows the rules, is a
probability, is symmetric and monotone, matches its build script, and Utility uses it only when
asked; in cutthroat, the fitted softmax and the fit that makes it."""

from __future__ import annotations

import dataclasses
import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

import pitchcards as pc
from pitchcards.bots._match_odds_data import OUTCOMES, SLOPES, SOURCE, TABLES
from pitchcards.bots.match_odds import (
    OddsTable,
    SoftmaxOdds,
    _decode,
    compute_table,
    encode,
    table_for,
    win_chances,
)
from pitchcards.bots.utility import Utility, win_chance
from pitchcards.match import match_winner
from pitchcards.rules import RuleSet
from pitchcards.scoring import HandResult

PARTNERS = pc.find_variant("auction-partners")
ROOT = Path(__file__).resolve().parents[1]


def _table(rules: pc.RuleSet, players: int = 4) -> OddsTable:
    table = table_for(rules, players)
    assert isinstance(table, OddsTable)
    return table


def _build_script() -> ModuleType:
    path = ROOT / "benchmarks" / "build_match_odds.py"
    spec = importlib.util.spec_from_file_location("build_match_odds", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def cutthroat() -> OddsTable:
    """A cutthroat table (not built by default: it predicted no better than the formula) from
    a few matches of the build's own self-play."""
    build = _build_script()
    rules = pc.find_variant("auction")
    rows = build._rows(build.outcome_counts(rules, build.self_play("auction", 3, range(15))))
    return compute_table(rules, 3, rows)


def _tables(cutthroat: OddsTable) -> list[OddsTable]:
    return [_table(pc.find_variant(v), n) for v, n in OUTCOMES] + [cutthroat]


def test_the_covered_rule_sets_have_data_with_provenance() -> None:
    assert set(OUTCOMES) == {("auction-partners", 4), ("setback", 4)}
    assert set(SLOPES) == {("auction", n) for n in range(3, 8)}
    assert all(0.05 < slope < 2.0 for slope in SLOPES.values())
    assert "build_match_odds.py build --matches" in SOURCE and "--seed" in SOURCE


def test_the_data_is_internally_consistent() -> None:
    for (variant, players), rows in OUTCOMES.items():
        rules = pc.find_variant(variant)
        sides = 2 if rules.partnership_mode else players
        assert rows and len(set(rows)) == len(rows)
        for row in rows:
            count, pside, made, moon = row[:4]
            points, deltas = row[8:8 + sides], row[8 + sides:]
            assert len(row) == 8 + 2 * sides and count > 0
            assert -1 <= pside < sides and made in (0, 1) and moon in (0, 1)
            assert all(-1 <= s < sides for s in row[4:8])
            assert 0 <= sum(points) <= rules.points_total
            # A-R6 / B-R6: the other sides score what they took; the pitcher's side its points
            # if made (a smudge its bonus), minus its bid if set.
            for s in range(sides):
                if s != pside:
                    assert deltas[s] == points[s]
            assert (deltas[pside] >= points[pside]) if made else deltas[pside] < 0


def test_the_committed_data_contains_what_the_build_script_plays() -> None:
    # The committed counts come from match seeds 0.. of the build: a tiny rebuild of the first
    # seeds must find each of its outcomes there, at most as often.
    build = _build_script()
    for variant, players in OUTCOMES:
        small = build.outcome_counts(pc.find_variant(variant),
                                     build.self_play(variant, players, range(2)))
        committed = {row[1:]: row[0] for row in OUTCOMES[(variant, players)]}
        assert small and all(committed.get(code, 0) >= n for code, n in small.items())


def test_the_build_renders_deterministically() -> None:
    build = _build_script()
    texts = []
    for _ in range(2):
        played = build.self_play("auction-partners", 4, range(1))
        counts = build.outcome_counts(PARTNERS, played)
        texts.append(build.render({("auction-partners", 4): counts}, {("auction", 4): 0.25}, "x"))
    assert texts[0] == texts[1] and "OUTCOMES" in texts[0] and "SLOPES" in texts[0]
    assert "('auction', 4): 0.25," in texts[0]


def test_the_stored_table_is_what_the_value_iteration_computes() -> None:
    key = ("auction-partners", 4)
    lo, hi, races = TABLES[key]
    fresh = compute_table(PARTNERS, 4, OUTCOMES[key])
    assert (fresh.lo, fresh.hi) == (lo, hi)
    assert list(fresh.races[1]) == pytest.approx(list(races[1]), abs=1e-6)
    assert table_for(PARTNERS, 4) is not None
    assert list(_table(PARTNERS).races[1]) == list(races[1])  # the stored one, not recomputed


@pytest.mark.parametrize("win_rule", RuleSet.OPTION_CHOICES["win_rule"])
def test_nobody_wins_short_of_the_target(win_rule: str) -> None:
    # match_odds asks match_winner only when a racer reaches the target or a moon is made: no
    # win rule (B-R8, §7) ends the match otherwise.
    rules = PARTNERS.replace(win_rule=win_rule)
    for row in OUTCOMES[("auction-partners", 4)]:
        for dealer in (0, 1):
            r = _decode(row[1:], dealer, 2)
            before = [6 - max(r.deltas[0], 0) - 1, 6 - max(r.deltas[1], 0) - 1]
            after = [b + d for b, d in zip(before, r.deltas, strict=True)]
            assert max(after) < 7
            assert match_winner(rules, before, after, r) is None


def test_encode_and_decode_round_trip() -> None:
    r = HandResult(pitcher=1, bid=2, made=False, moon=False, high=1, low=0, jack=None, game=0,
                   points=(2, 1), deltas=(2, -2), pitcher_side=1)
    code = encode(r, 1, 2)
    assert code[0] == 0  # the pitcher's side dealt: relative side 0
    back = _decode(code, 1, 2)
    assert (back.pitcher_side, back.made, back.high, back.low, back.jack, back.game,
            back.points, back.deltas) == (1, False, 1, 0, None, 0, (2, 1), (2, -2))


def test_chances_are_probabilities(cutthroat: OddsTable) -> None:
    for table in _tables(cutthroat):
        assert all(0.0 <= p <= 1.0 for race in table.races.values() for p in race)
        for scores in ([0] * table.sides, list(range(table.sides)), [-9] + [6] * (
                table.sides - 1)):
            chances = table.chances(scores)
            assert sum(chances) == pytest.approx(1.0)
            assert all(0.0 <= p <= 1.0 for p in chances)
        even = table.chances([0] * table.sides)
        assert even == pytest.approx([1 / table.sides] * table.sides, abs=1e-9)


def test_two_teams_are_symmetric() -> None:
    for rules in (PARTNERS, pc.find_variant("setback")):
        table = _table(rules)
        for a in range(table.lo, table.hi + 1, 3):
            for b in range(table.lo, table.hi + 1, 2):
                assert table.race(a, b) + table.race(b, a) == pytest.approx(1.0, abs=1e-6)


def test_who_deals_next_matters_for_two_teams() -> None:
    # The dealer bids last and may take the bid at the highest bid so far (B-R4), so near the
    # end dealing next is worth a lot; averaged over the dealer when it is not known.
    table = _table(PARTNERS)
    assert table.race(6, 6, dealer=0) > 0.6 > 0.4 > table.race(6, 6, dealer=1)
    for a, b in ((0, 0), (5, 2), (-3, 6)):
        mean = (table.race(a, b, dealer=0) + table.race(a, b, dealer=1)) / 2
        assert table.race(a, b) == pytest.approx(mean)
        for t in (0, 1):
            assert table.race(a, b, dealer=t) + table.race(b, a, dealer=1 - t) == pytest.approx(
                1.0, abs=1e-6)
    assert table.chances([6, 6], dealer=1) == pytest.approx(
        [table.race(6, 6, dealer=1), table.race(6, 6, dealer=0)])


def test_chances_rise_with_ones_own_score_and_fall_with_the_others(cutthroat: OddsTable
                                                                   ) -> None:
    for table in _tables(cutthroat):
        for opp in table.races:
            for a in range(table.lo, table.hi):
                for b in range(table.lo, table.hi):
                    assert table.race(a + 1, b, opp) >= table.race(a, b, opp) - 1e-9
                    assert table.race(a, b + 1, opp) <= table.race(a, b, opp) + 1e-9


def test_bidder_goes_out_one_point_short_is_a_favourite_not_a_certainty() -> None:
    # B-R8.2: only a made bid goes out, so 6-0 to 7 still has to bid and make, and the other
    # side may yet come back.
    table = _table(PARTNERS)
    assert 0.6 < table.race(6, 0) < 0.97
    # Past the target without having gone out (the side was set, or did not bid): not won yet.
    assert table.race(9, 6) < 0.97
    assert table.race(6, 6) == pytest.approx(0.5, abs=1e-6)


def test_the_table_follows_the_target_and_the_win_rule() -> None:
    base = _table(PARTNERS)
    longer = _table(PARTNERS.replace(target=11))
    assert longer.race(6, 0) < base.race(6, 0)  # 6 of 11 is further from home than 6 of 7
    # The pitcher counted first, then the others in High-Low-Jack-Game order (H3/H16): the
    # other side can go out without bidding, so one point short is a bigger favourite than
    # under bidder-goes-out.
    counted = _table(PARTNERS.replace(win_rule="pitcher_counted_first"))
    assert counted.race(6, 0) > base.race(6, 0)


def test_no_table_where_there_is_no_simulated_play() -> None:
    assert table_for(pc.find_variant("money"), 4) is None
    assert table_for(pc.find_variant("ten-point"), 4) is None
    assert table_for(PARTNERS.replace(target=None), 4) is None
    assert table_for(PARTNERS.replace(min_bid=2), 4) is None  # hands are bid differently
    assert win_chances(pc.find_variant("ten-point"), 4, [0, 0]) is None
    cutthroat = pc.find_variant("auction")
    for players in range(3, 8):  # cutthroat: the fitted softmax, for its own target and rule
        assert table_for(cutthroat, players) == SoftmaxOdds(7, SLOPES[("auction", players)])
        assert table_for(cutthroat.replace(target=11), players) is None
        assert table_for(cutthroat.replace(win_rule="pitcher_counted_first"), players) is None
    assert table_for(pc.find_variant("ten-point-cutthroat"), 4) is None


def _result(deltas: tuple[int, int], made: bool = True) -> HandResult:
    return HandResult(pitcher=0, bid=2, made=made, moon=False, high=0, low=1, jack=None,
                      game=0, points=(max(deltas[0], 0), deltas[1]), deltas=deltas,
                      pitcher_side=0)


def test_utility_uses_the_table_only_when_asked() -> None:
    scores = (3, 5)
    r = _result((2, 1))  # 5-6: nobody out
    table = _table(PARTNERS)
    on = Utility(PARTNERS, 0, 4, scores, win_table=True)
    off = Utility(PARTNERS, 0, 4, scores)
    assert on.table is table and off.table is None
    assert on(r) == table.chances([5, 6])[0] + 0.002 * 1
    assert off(r) == win_chance([5, 6], 0, 7) + 0.002 * 1  # the formula path, unchanged
    assert on(r) != off(r)
    # Told the dealer (seat 3), the table knows seat 0's team deals next (B-R2.2).
    dealt = Utility(PARTNERS, 0, 4, scores, win_table=True, dealer=3)
    assert dealt.next_dealer == 0
    assert dealt(r) == table.chances([5, 6], 0)[0] + 0.002 * 1
    assert dealt(r) > on(r)
    # A hand that ends the match is worth 1 or 0 either way (B-R8.2).
    out = _result((4, 0))
    assert on(out) == off(out) == 1.0
    # No table for the rule set: the formula stands.
    ten = pc.find_variant("ten-point")
    t_on = Utility(ten, 1, 4, (30, 40), win_table=True)
    t_off = Utility(ten, 1, 4, (30, 40))
    assert t_on.table is None
    r10 = _result((5, 2))
    assert t_on(r10) == t_off(r10)


def test_cutthroat_chances_weigh_every_side(cutthroat: OddsTable) -> None:
    # Each side races the leader of the others; the chances are normalised over the sides.
    leader = cutthroat.chances([6, 0, 0])
    assert sum(leader) == pytest.approx(1.0)
    assert leader[0] > 0.5 > 0.25 > leader[1]
    assert cutthroat.chances([6, 0, 0], dealer=1) == leader  # the dealer is drawn afresh
    tied = cutthroat.chances([5, 5, 0])
    assert tied[2] < min(tied[:2])


def test_cutthroat_softmax_chances() -> None:
    odds = SoftmaxOdds(7, 0.3)
    assert odds.chances([0, 0, 0, 0]) == pytest.approx([0.25] * 4)
    for scores in ([6, 0, 0], [3, -4, 5, 1], [9, 6, -20, 0, 2]):
        chances = odds.chances(scores)
        assert sum(chances) == pytest.approx(1.0) and all(0 < p < 1 for p in chances)
        # More points, a better chance; and each point a side still needs costs the same.
        order = sorted(range(len(scores)), key=lambda i: scores[i])
        assert [chances[i] for i in order] == sorted(chances)
    one, two = odds.chances([5, 4, 0]), odds.chances([6, 5, 1])
    assert one == pytest.approx(two)
    # At or past the target without having gone out (B-R8.2) needs nothing more: 7 and 9 are
    # alike, and are not a certainty.
    assert odds.chances([9, 3, 0]) == pytest.approx(odds.chances([7, 3, 0]))
    assert odds.chances([9, 3, 0])[0] < 0.9
    assert odds.chances([3, 1], dealer=0) == odds.chances([3, 1], dealer=1)  # not used
    assert SoftmaxOdds(7, 0.0).chances([6, 0, -5]) == pytest.approx([1 / 3] * 3)


def test_the_fit_recovers_the_slope_that_drew_the_winners() -> None:
    # Synthetic matches: hand starts at random scores, the winner drawn from a known softmax.
    build = _build_script()
    rng = random.Random(7)
    truth = SoftmaxOdds(7, 0.45)
    played = []
    for _ in range(3000):
        before = tuple(rng.randint(-6, 8) for _ in range(4))
        winner = rng.choices(range(4), weights=truth.chances(before))[0]
        played.append(([(before, 0, None)], winner))
    played.append(([((0, 0, 0, 0), 0, None)], None))  # unfinished: left out
    assert build.fit_slope(played, 7) == pytest.approx(0.45, abs=0.05)
    with pytest.raises(ValueError, match="no finished match"):
        build.fit_slope([([((0, 0, 0), 0, None)], None)], 7)


def test_the_cutthroat_utility_uses_the_softmax_when_asked() -> None:
    rules = pc.find_variant("auction")
    on = Utility(rules, 2, 3, (6, 0, 0), win_table=True)
    off = Utility(rules, 2, 3, (6, 0, 0))
    odds = table_for(rules, 3)
    assert isinstance(on.table, SoftmaxOdds) and on.table == odds and off.table is None
    r = HandResult(pitcher=1, bid=2, made=True, moon=False, high=1, low=1, jack=None, game=2,
                   points=(0, 2, 1), deltas=(0, 2, 1), pitcher_side=1)
    assert on(r) == pytest.approx(odds.chances([6, 2, 1])[2] + 0.002 * (1 - 2))
    assert off(r) == pytest.approx(win_chance([6, 2, 1], 2, 7) + 0.002 * (1 - 2))
    # The formula is all but sure of a leader one point short; the fitted chances are not: the
    # leader must still bid and make (B-R8.2).
    leader_on = Utility(rules, 0, 3, (6, 0, 0), win_table=True)
    leader_off = Utility(rules, 0, 3, (6, 0, 0))
    assert leader_off._chance([6, 0, 0]) > 0.85 > leader_on._chance([6, 0, 0]) > 0.5


def test_a_rule_set_differing_only_in_match_options_shares_the_data() -> None:
    renamed = dataclasses.replace(PARTNERS, name="house rules")
    assert _table(renamed).races == _table(PARTNERS).races  # the stored table
    first = dataclasses.replace(PARTNERS, name="house rules", first_dealer="cut")
    assert _table(first).races == _table(PARTNERS).races
