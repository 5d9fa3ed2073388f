"""The analysis of a game (issue 33): every decision weighed from the deciding seat's own view.

Tiny budgets (a few sampled deals a decision) keep the module fast; every deal is chosen by
seed, and the analysis has no clock, so every number here is the same on every run."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import pitchcards as pc
from pitchcards.actions import Action, parse_action
from pitchcards.analysis import (
    ANALYSIS_BUDGET,
    FOR_THE_MATCH,
    LABELS,
    AnalysisBudget,
    Decision,
    analyse_decision,
    analyse_record,
    decision_rng,
    label_of,
    near_the_end,
)
from pitchcards.analysis_text import report
from pitchcards.bots import make_bot
from pitchcards.bots.expert import EXPERT
from pitchcards.cards import cards_of
from pitchcards.cli import main
from pitchcards.notation import Record, read_record
from pitchcards.views import view_of

TINY = AnalysisBudget(worlds=6, bid_worlds=6)
TWO = pc.find_variant("auction").replace(allow_two_players=True)
Script = list[tuple[int, Action]]


def record_of(rules: pc.RuleSet, cards: Sequence[Sequence[int]] | Sequence[str],
              script: Script | Sequence[tuple[int, str]],
              scores: Sequence[int] | None = None) -> Record:
    """A one-hand record: ``cards`` dealt by seat 0, the actions of ``script`` (a hand may
    stop anywhere: a game in progress), from the match ``scores`` if given."""
    m = pc.Match(rules, players=len(cards), dealer=0, scores=scores)
    m.deal(cards=cards)
    for seat, action in script:
        m.push(action, seat)
    return read_record(pc.write_record(m))


def heuristic_hand(rules: pc.RuleSet, players: int, seed: int) -> tuple[list[list[int]], Script]:
    """A seeded deal played out by the heuristic bot: the cards dealt and the actions."""
    h = pc.Hand.deal(rules, players, dealer=0, seed=seed)
    bot = make_bot("medium", seed=0)
    script: Script = []
    while not h.is_over:
        seat = h.seat_to_act
        assert seat is not None
        action = bot.choose(h.view(seat))
        script.append((seat, action))
        h.push(action, seat)
    return [list(cards_of(h.dealt[s])) for s in range(players)], script


def jack_blunder(scores: Sequence[int] | None = None) -> Record:
    """Seat 1 bids 2 and leads the A♥ (hearts trump); seat 0 holds K♥ Q♥ J♥ 9♥, so its Jack is
    safe whatever comes (every higher trump is its own or gone), and throws it under the Ace:
    the Jack's point goes to the pitcher instead of to seat 0."""
    cards = ["KH QH JH 9H 7C 4D", "AH 2H TS 8S 6S 5C"]
    script: list[tuple[int, str]] = [(1, "bid 2"), (0, "pass"), (1, "play AH"), (0, "play JH")]
    m = pc.Match(TWO, players=2, dealer=0, scores=scores)
    h = m.deal(cards=cards)
    for seat, action in script:
        m.push(action, seat)
    bot = make_bot("medium", seed=0)
    while h.result is None:
        seat = h.seat_to_act
        assert seat is not None
        m.push(bot.choose(h.view(seat)), seat)
    return read_record(pc.write_record(m))


def seen_numbers(decisions: Sequence[Decision]) -> list[dict[str, Any]]:
    """Every number of the decisions except the open-hand values (hindsight sees all cards)."""
    out = []
    for d in decisions:
        data = d.to_dict()
        for c in data["candidates"]:
            del c["hindsight"]
        out.append(data)
    return out


# --------------------------------------------------------------------- no hidden information
@pytest.mark.parametrize(("players", "seed", "scores"),
                         [(2, 11, None), (4, 5, None), (2, 11, (5, 6))])
def test_swapping_cards_the_seat_cannot_see_changes_none_of_its_numbers(
        players: int, seed: int, scores: tuple[int, int] | None) -> None:
    """Near a match's end (5-6 to 7) the chances to win the match are the seat's too."""
    rules = TWO if players == 2 else pc.find_variant("auction")
    cards, script = heuristic_hand(rules, players, seed)
    cut = len(script) - 2 * players  # the hand stops two tricks before its end
    h = pc.Hand.deal(rules, players, dealer=0, cards=cards)
    for seat, action in script[:cut]:
        h.push(action, seat)
    assert h.phase == "play"
    dealt = 0
    for s in range(players):
        dealt |= h.dealt[s]
    # cards seat 0 cannot see: the others' unplayed cards and (two players) the undealt ones
    unseen = [c for s in range(1, players) for c in cards_of(h.hand_of(s))]
    undealt = [c for c in range(52) if not dealt >> c & 1] if players == 2 else unseen
    owner = {c: s for s in range(players) for c in cards[s]}
    swaps = [(c, d) for c in unseen for d in undealt
             if c != d and c // 13 == d // 13 and owner.get(d) != owner[c]]
    assert swaps  # (same suit, so that every recorded action stays legal)
    base = analyse_record(record_of(rules, cards, script[:cut], scores), TINY, seats=[0])
    assert len(base.decisions) >= 3
    assert all((d.chance_loss is not None) == (scores is not None and not d.forced)
               for d in base.decisions)
    hindsight_moved = False
    for c, d in swaps[:4]:
        swapped = [[d if x == c else c if x == d else x for x in hand] for hand in cards]
        other = analyse_record(record_of(rules, swapped, script[:cut], scores), TINY,
                               seats=[0])
        assert seen_numbers(other.decisions) == seen_numbers(base.decisions)
        hindsight_moved |= [x.to_dict() for x in other.decisions] != [
            x.to_dict() for x in base.decisions]
    if players == 2:  # the open-hand numbers do see the cards (all twelve: always solved)
        assert hindsight_moved


# --------------------------------------------------------------------- known positions
def test_throwing_the_jack_to_the_pitcher_is_a_blunder_and_an_only_move_loses_nothing() -> None:
    analysis = analyse_record(jack_blunder(), AnalysisBudget(worlds=12, bid_worlds=6))
    throw = next(d for d in analysis.decisions if d.action == parse_action("play JH"))
    assert throw.seat == 0 and throw.label == "blunder" and throw.best != throw.action
    assert throw.loss >= analysis.thresholds["blunder"] and throw.loss > 2 * throw.loss_se
    assert throw.method == "solve"  # twelve cards: every sampled deal solved exactly
    # hindsight: with every card seen, keeping the Jack is worth more too
    assert throw.candidate(throw.best).hindsight > throw.candidate(throw.action).hindsight
    forced = [d for d in analysis.decisions if d.forced]
    assert forced
    for d in forced:
        assert d.loss == 0 and d.label is None and d.best == d.action and d.worlds == 0
    summary = next(s for s in analysis.summaries if s.player == "Seat 0")
    assert summary.labels["blunder"] >= 1 and throw in summary.costliest
    assert summary.play_loss >= throw.loss


def test_a_pitcher_leading_away_from_the_trump_that_decides_high_is_a_blunder() -> None:
    """Seat 1 bids 2 holding A♠ K♠ J♠ 2♠ and leads the 3♥, so hearts are trump (C5, B-R5.1: the
    pitcher's first lead sets trump) where seat 0 holds A♥ K♥ Q♥ J♥: High, Jack and Low go
    with the suit it led away from, and the pitcher is set, where a spade makes its bid."""
    record = record_of(TWO, ["AH KH QH JH 9C 8C", "AS KS JS 2S 3H 4D"],
                       [(1, "bid 2"), (0, "pass"), (1, "play 3H")])
    analysis = analyse_record(record, AnalysisBudget(worlds=8, bid_worlds=8))
    lead = next(d for d in analysis.decisions if d.action == parse_action("play 3H"))
    assert lead.seat == 1 and lead.label == "blunder", lead.to_dict()
    assert str(lead.best).endswith("S"), lead.best  # a spade: its own suit trump
    assert lead.loss >= analysis.thresholds["blunder"] and lead.loss > 2 * lead.loss_se


def test_a_loss_within_the_noise_is_never_labelled() -> None:
    rules = pc.find_variant("auction")
    worst = dict(LABELS)["blunder"] * rules.points_total
    assert label_of(worst * 1.9, worst, rules) is None  # 3 points ± 1.6: within 2 errors
    assert label_of(worst, 0.1, rules) == "blunder"
    assert label_of(worst / 2, 0.1, rules) == "mistake"
    assert label_of(worst / 4, 0.1, rules) == "inaccuracy"
    assert label_of(worst / 8, 0.0, rules) is None
    # the thresholds scale with the points a hand has: 1.6 is an inaccuracy out of ten
    assert label_of(worst, 0.1, pc.find_variant("ten-point")) == "inaccuracy"


# --------------------------------------------------------------------- determinism
def test_the_analysis_is_deterministic_for_record_budget_and_seed() -> None:
    record = jack_blunder()
    first = analyse_record(record, TINY, seed=3).to_dict()
    assert analyse_record(record, TINY, seed=3).to_dict() == first
    assert analyse_record(record, TINY, seed=4).to_dict() != first  # the seed draws the deals
    # each decision's deals depend on its place only: a part is analysed as in the whole
    part = analyse_record(record, TINY, seed=3, seats=[1], hands=[1])
    whole = [d for d in first["decisions"] if d["seat"] == 1]
    assert [d.to_dict() for d in part.decisions] == whole


def test_progress_counts_every_decision_asked_for() -> None:
    record = jack_blunder()
    seen: list[tuple[int, int]] = []
    analysis = analyse_record(record, TINY, seats=[0], progress=lambda d, t: seen.append((d, t)))
    total = len(analysis.decisions)
    assert seen == [(k, total) for k in range(1, total + 1)]


# --------------------------------------------------------------------- refusals
def test_refused_input_names_what_is_wrong() -> None:
    h = pc.Hand.deal(TWO, 2, dealer=0, cards=["KH QH JH 9H 7C 4D", "AH 2H TS 8S 6S 5C"])
    view = view_of(h, 1)
    with pytest.raises(ValueError, match=r"play JH is not legal for seat 1 in the auction; "
                                         r"legal: pass"):
        analyse_decision(view, parse_action("play JH"), decision_rng(0, 1, 0), TINY)
    with pytest.raises(ValueError, match=r"seat to act \(1\), not of 0"):
        analyse_decision(view_of(h, 0), parse_action("pass"), decision_rng(0, 1, 0), TINY)
    with pytest.raises(pc.OptionError, match=r"worlds must be .* at least 2 .* not 1"):
        AnalysisBudget(worlds=1)
    record = jack_blunder()
    with pytest.raises(pc.OptionError, match=r"seat 2 is not a seat of this record \(0\.\.1\)"):
        analyse_record(record, TINY, seats=[2])
    with pytest.raises(pc.OptionError, match=r"hand 2 is not in this record \(hands: 1\.\.1\)"):
        analyse_record(record, TINY, hands=[2])
    assert ANALYSIS_BUDGET.worlds > EXPERT.worlds and ANALYSIS_BUDGET.bid_worlds > EXPERT.bid_worlds


# --------------------------------------------------------------------- the JSON contract, CLI
def test_the_json_contract() -> None:
    record = jack_blunder()
    data = json.loads(json.dumps(analyse_record(record, TINY).to_dict()))
    assert data["format"] == "pitchcards-analysis" and data["version"] == 1
    recorded = [(h.number, i, s, a) for h in record.hands for i, (s, a) in enumerate(h.actions)]
    assert [(d["hand"], d["index"], d["seat"], parse_action(d["action"]))
            for d in data["decisions"]] == recorded
    for d in data["decisions"]:
        assert isinstance(d["loss"], float | int) and d["loss"] >= 0
        assert d["label"] in (None, *dict(LABELS))
        names = [c["action"] for c in d["candidates"]]
        assert d["action"] in names and d["best"] == names[0]
        best = d["candidates"][0]["value"]
        chosen = next(c["value"] for c in d["candidates"] if c["action"] == d["action"])
        assert d["loss"] == pytest.approx(best - chosen, abs=1e-3)
    assert {s["player"] for s in data["summary"]} == {"Seat 0", "Seat 1"}
    assert set(data["thresholds"]) == set(dict(LABELS))


def test_pitch_analyze(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.pitch"
    path.write_text(pc.write_record(pc.replay(jack_blunder())), encoding="utf-8")
    assert main(["analyze", str(path), "--json", "--budget", "6", "--seed", "3"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out) == json.loads(json.dumps(
        analyse_record(read_record(path.read_text()), TINY, seed=3).to_dict()))
    assert err == ""  # progress is shown on a terminal only
    assert main(["analyze", str(path), "--budget", "12", "--seat", "0", "--hand", "1"]) == 0
    out, _ = capsys.readouterr()
    assert "hand 1, dealer Seat 0" in out and "Seat 0: J♥" in out and "BLUNDER" in out
    assert "Seat 1:" not in out and "summary" in out
    assert main(["analyze", str(path), "--seat", "5", "--budget", "2"]) == 2
    assert "seat 5 is not a seat of this record (0..1)" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:
        main(["analyze", str(path), "--budget", "1"])
    assert exit_.value.code == 2
    assert "--budget: must be a whole number from 2 to 100000, not '1'" in \
        capsys.readouterr().err


# --------------------------------------------------------------------- near a match's end
def test_near_the_end_of_a_match_a_decision_also_costs_match_win_chance() -> None:
    rules = TWO
    assert not near_the_end(rules, (0, 0)) and not near_the_end(rules, (2, 0))
    assert near_the_end(rules, (3, 0)) and near_the_end(rules, (0, 6))  # 7 - 4 points a hand
    assert not near_the_end(rules, None)
    assert not near_the_end(pc.find_variant("money"), (6, 6, 6))  # money: no match to win
    budget = AnalysisBudget(worlds=12, bid_worlds=6)
    early = analyse_record(jack_blunder(), budget)
    assert all(d.chance_loss is None for d in early.decisions)
    assert all(c.chance is None for d in early.decisions for c in d.candidates)
    late = analyse_record(jack_blunder(scores=(5, 5)), budget)
    throw = next(d for d in late.decisions if d.action == parse_action("play JH"))
    # the points are weighed as at 0-0 (the same deals: the seed and the place draw them)
    before = next(d for d in early.decisions if d.action == parse_action("play JH"))
    assert (throw.loss, throw.label, throw.best) == (before.loss, before.label, before.best)
    # at 5-5 the Jack's point given to the pitcher costs seat 0 a share of the match
    assert throw.chance_loss is not None and throw.chance_loss_se is not None
    keep = throw.candidate(throw.best)
    chosen = throw.candidate(throw.action)
    assert keep.chance is not None and chosen.chance is not None
    assert 0 <= chosen.chance < keep.chance <= 1
    assert throw.chance_loss > 2 * throw.chance_loss_se > 0
    assert throw.chance_loss == pytest.approx(max(c.chance or 0 for c in throw.candidates)
                                              - chosen.chance, abs=1e-9)
    # the best by chance is named (the page marks it, never picks its own)
    assert throw.chance_best is not None and all(d.chance_best is None for d in early.decisions)
    assert throw.candidate(throw.chance_best).chance == max(c.chance or 0
                                                            for c in throw.candidates)
    for d in late.decisions:  # never negative; forced decisions weigh nothing
        assert d.forced or (d.chance_loss is not None and d.chance_loss >= 0)
    data = late.to_dict()
    said = next(d for d in data["decisions"] if d["action"] == "play JH")
    assert said["chance_loss"] > 0 and said["chance_best"] == str(throw.chance_best)
    seat0 = next(s for s in late.summaries if s.player == "Seat 0")
    assert seat0.chance_loss >= throw.chance_loss
    text = report(late)
    assert "[match " in text and "most chance to win the match given up in one decision" in text
    assert "[match " not in report(early)


def test_points_given_up_for_the_match_are_never_a_mistake() -> None:
    """At 3 to the opponent's 6 (match to 7, only a made bid goes out), seat 1 pitches its lone
    J♦, a bid of 4 on a poor hand: far more points lost on average than bidding 2, but the one
    way to the match before the opponent gets there. Outside a match that loss is a blunder;
    at 3-6 the choice wins the match more often, so it gets no label (``for_the_match``)."""
    cards = ["KH QH 8H 4H 2H 4D", "KS QS 8S TH JD 8C"]
    budget = AnalysisBudget(worlds=128, bid_worlds=128)
    pitch = parse_action("pitch JD")

    def decision(scores: tuple[int, int] | None) -> Decision:
        h = pc.Hand.deal(TWO, 2, dealer=0, cards=cards)
        assert h.seat_to_act == 1
        return analyse_decision(view_of(h, 1, scores=scores), pitch, decision_rng(0, 1, 0),
                                budget)

    alone, late = decision(None), decision((6, 3))
    assert alone.label == "blunder" and not alone.for_the_match
    assert late.best == alone.best != pitch  # the points are the same deals' points
    assert (late.loss, late.loss_se) == (alone.loss, alone.loss_se)
    assert late.loss > 2 * late.loss_se and late.loss >= 1.6
    chosen, points_best = late.candidate(pitch), late.candidate(late.best)
    assert chosen.chance is not None and points_best.chance is not None
    assert chosen.chance >= points_best.chance + FOR_THE_MATCH
    assert late.for_the_match and late.label is None and late.to_dict()["for_the_match"]
    # pitch analyze: the same decision (the same deals: the seed and its place draw them)
    whole = analyse_record(record_of(TWO, cards, [(1, "pitch JD")], scores=(6, 3)), budget,
                           seats=[1])
    assert [dataclasses.replace(d, hand=0, player="") for d in whole.decisions] == [
        dataclasses.replace(late, player="")]
    assert "for the match (it wins the match more often)" in report(whole)


def test_weighing_the_chance_everywhere_weighs_every_decision_of_a_match_and_only_adds() -> None:
    """``chance_everywhere``: at 0-0 (far from the end) every decision with a choice is weighed
    by the chance to win the match too, the points unchanged; the Jack thrown to the pitcher
    costs seat 0 a share of the match there as well; no match to win, no chance."""
    budget = AnalysisBudget(worlds=12, bid_worlds=6)
    every = dataclasses.replace(budget, chance_everywhere=True)
    assert not ANALYSIS_BUDGET.chance_everywhere  # pitch analyze and the server: near the end
    plain = analyse_record(jack_blunder(), budget, seats=[0])
    weighed = analyse_record(jack_blunder(), every, seats=[0])
    assert all(d.chance_loss is None for d in plain.decisions)
    assert all(d.forced or (d.chance_loss is not None and d.chance_loss >= 0
                            and d.chance_best is not None) for d in weighed.decisions)
    assert any(not d.forced for d in weighed.decisions)
    for a, b in zip(plain.decisions, weighed.decisions, strict=True):  # the same deals
        assert (a.loss, a.loss_se, a.best, a.label) == (b.loss, b.loss_se, b.best, b.label)
        assert [c.value for c in a.candidates] == [c.value for c in b.candidates]
    throw = next(d for d in weighed.decisions if d.action == parse_action("play JH"))
    assert throw.chance_loss is not None and throw.chance_loss_se is not None
    assert throw.chance_loss > 2 * throw.chance_loss_se > 0
    # near the end it changes nothing: the chances were weighed there already
    late = jack_blunder(scores=(5, 5))
    assert ([d.to_dict() for d in analyse_record(late, TINY, seats=[0], hands=[1]).decisions]
            == [d.to_dict() for d in analyse_record(late, dataclasses.replace(
                TINY, chance_everywhere=True), seats=[0], hands=[1]).decisions])
    # a hand outside a match (no scores) has no match to win
    cards, script = heuristic_hand(TWO, 2, 11)
    h = pc.Hand.deal(TWO, 2, dealer=0, cards=cards)
    for seat, action in script[:4]:
        h.push(action, seat)
    seat = h.seat_to_act
    assert seat is not None
    alone = analyse_decision(view_of(h, seat), script[4][1], decision_rng(0, 1, 4), every)
    assert alone.chance_loss is None and all(c.chance is None for c in alone.candidates)
