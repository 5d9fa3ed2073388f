"""Hints from the same numbers (issue 14, item 4): the hint is the expert's choice, it lists the
candidates the expert weighed with the expected net score change of each (and, in a match, the
chance to win the match the choice was made on), and its words never contradict its numbers."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import pytest

import pitchcards as pc
from pitchcards.actions import BID, PASS
from pitchcards.bots.expert import Budget, ExpertBot, candidates
from pitchcards.bots.heuristic import decide
from pitchcards.bots.hints import HINT_LIMIT, Hint, Option, _weighed, hint, suggest
from pitchcards.views import View, view_of

B = Budget(worlds=6, bid_worlds=8, time_limit=10)  # small, and the clock off: seed-only results
TERM = re.compile(r"[+-]\d+\.\d(?: \(\d+%\))?")   # "+1.1" or "+1.1 (55%)"


def views_in(variant: str, players: int, scores: tuple[int, ...] | None, phase: str,
             seeds: range, per_hand: int = 2, late: bool = False) -> list[View]:
    """Views of the seat to act in ``phase`` (the heuristic plays the hands there): up to
    ``per_hand`` a deal; ``late``: card play with at most 12 cards left (the exact solver)."""
    rules = pc.find_variant(variant)
    out: list[View] = []
    for seed in seeds:
        h = pc.Hand.deal(rules, players, dealer=seed % players, seed=seed)
        taken = 0
        while not h.is_over and taken < per_hand:
            seat = h.seat_to_act
            assert seat is not None
            view = view_of(h, seat, scores=scores)
            left = sum(h.hand_of(s).bit_count() for s in range(players))
            if h.phase == phase and len(view.legal_actions) > 1 and (not late or left <= 12):
                out.append(view)
                taken += 1
            h.push(decide(view))
    assert out, (variant, phase)
    return out


def shows_better(o: Option, chosen: Option) -> bool:
    """Whether the text shows ``o`` above ``chosen``: more points, or a better match chance."""
    if o.chance is not None and chosen.chance is not None \
            and round(100 * o.chance) > round(100 * chosen.chance):
        return True
    return round(o.points, 1) > round(chosen.points, 1)


def check_agrees(view: View, h: Hint) -> str:
    """Every promise of a hint: the words carry no number, the text lists the hint's own
    numbers with the chosen action first, and a choice the numbers do not show as the best
    says why in the terms it was made on.  Returns the text."""
    text = h.text()
    assert h.action in view.legal_actions
    assert text.startswith(h.words), (h.words, text)
    assert not re.search(r"\d\.\d|about|expected", h.words), h.words  # no estimate of its own
    assert h.options, text
    chosen = h.chosen
    assert chosen is not None and chosen.action == h.action
    assert {o.action for o in h.options} == set(candidates(view))
    if view.phase == "auction" and PASS in view.legal_actions:
        assert PASS in {o.action for o in h.options}
    shown = TERM.findall(text)
    assert shown, text
    if h.why:
        assert h.rival is not None and f"{chosen.points:+.1f}" in h.why
        assert f"{h.rival.points:+.1f}" in h.why
    else:  # the list: the chosen action first, then the others, each with its own numbers
        listed = [o for o in h.options if f"{o.label} {o.numbers()}" in text]
        assert listed[:1] == [chosen] and len(listed) >= 2, text
        assert shown == [o.numbers() for o in listed], text
    better = [o for o in h.options[1:] if shows_better(o, chosen)]
    if better:  # another option shows a bigger number: the text must say why, in its terms
        assert "sampling noise" in h.why or (
            h.basis == "match" and "chance to win the match" in h.why), text
    match = re.search(r"goes from ([\d.]+)% to ([\d.]+)%", h.why)
    if match:
        assert h.rival is not None and h.rival.chance is not None and chosen.chance is not None
        assert float(match[1]) < float(match[2])
        assert abs(float(match[1]) - 100 * h.rival.chance) < 0.51
        assert abs(float(match[2]) - 100 * chosen.chance) < 0.51
    return text


# --------------------------------------------------------------------------- the auction
@pytest.mark.parametrize("variant,players,scores", [
    ("auction-partners", 4, None), ("auction-partners", 4, (0, 0)),
    ("auction-partners", 4, (9, 10)), ("cutthroat", 3, (9, 5, 8)), ("money", 4, None)])
def test_auction_hints_are_the_experts_choice_in_its_own_numbers(
        variant: str, players: int, scores: tuple[int, ...] | None) -> None:
    for i, view in enumerate(views_in(variant, players, scores, "auction", range(2))):
        h = hint(view, B, i)
        analysis = ExpertBot(i, B).analyse(view)
        assert h.action == analysis.best  # the expert's choice, by its utility
        check_agrees(view, h)
        basis = {"money": "money"}.get(variant, "match" if scores else "points")
        assert h.basis == basis
        for o in h.options:
            if basis == "match":  # the chance is the utility, the points its rollouts' margins
                assert o.chance == min(max(analysis.values[o.action], 0.0), 1.0)
                assert o.points == analysis.points[o.action]
            else:
                assert o.chance is None and o.points == analysis.values[o.action]


def test_near_the_end_of_a_match_a_choice_below_the_best_by_points_gives_the_match_chance() -> None:
    """9-10 in a race to 11: the expert bids on hands where passing keeps more points, and
    says so in the match chance it chose by."""
    told = 0
    for i, view in enumerate(views_in("auction-partners", 4, (9, 10), "auction", range(4))):
        h = hint(view, B, i)
        text = check_agrees(view, h)
        chosen = h.options[0]
        if any(round(o.points, 1) > round(chosen.points, 1) for o in h.options):
            assert re.search(r"points \(.+ [+-]\d\.\d\), but your chance to win the match goes "
                             r"from \d+%? to", text) or "same chance" in text, text
            told += 1
    assert told >= 2  # near the end of a match this is common, not a corner case


def test_the_words_follow_the_numbers_the_choice_was_made_on() -> None:
    """The reasons, from numbers chosen for them: a match-aware choice below the best by
    points, the ten-point guard keeping its usual choice, and a plain best."""
    view = views_in("auction-partners", 4, (9, 10), "auction", range(1), 1)[0]
    bid2, bid3 = BID[2], BID[3]
    points = {PASS: 0.3, bid2: 0.1, bid3: -0.2}
    chances = {PASS: 0.41, bid2: 0.44, bid3: 0.48}
    h = _weighed(view, bid3, "bid 3 in ♠", "match", points, chances)
    assert h.text() == ("bid 3 in ♠; -0.2 points (pass +0.3), but your chance to win the match "
                        "goes from 41% to 48%; others: bid 2 +0.1 (44%)")
    # the ten-point guard: the expert keeps its usual choice, the text does not call it best
    h = _weighed(view, PASS, "pass", "points", points, {PASS: 0.3, bid2: 0.1, bid3: 0.9})
    assert h.rival is not None and h.rival.action == bid3
    assert h.text().startswith("pass; pass +0.3, bid 3 -0.2: the gap is within the sampling")
    # points: the best first, the others after it, in the same unit
    h = _weighed(view, PASS, "pass", "points", points, points)
    assert h.text() == "pass; expected net score change: pass +0.3, bid 2 +0.1, bid 3 -0.2"
    assert not h.why


def test_a_long_hint_lists_fewer_candidates_never_fewer_than_two() -> None:
    view = views_in("auction-partners", 4, None, "auction", range(1), 1)[0]
    points = {a: -0.1 * i for i, a in enumerate(candidates(view))}
    h = _weighed(view, next(iter(points)), "x" * 60, "points", points, points)
    assert len(h.text()) <= HINT_LIMIT and len(TERM.findall(h.text())) >= 2
    assert len(TERM.findall(h.text(limit=10))) == 2  # too long for any list: still two


# --------------------------------------------------------------------------- card play
@pytest.mark.parametrize("scores,late", [(None, False), ((9, 10), False), ((9, 10), True),
                                         (None, True)])
def test_card_play_hints_carry_numbers(scores: tuple[int, ...] | None, late: bool) -> None:
    """Early (rollouts) and late (the exact solver: the match-aware values are chances, the
    points come from the same deals valued by their point margin)."""
    for i, view in enumerate(views_in("auction-partners", 4, scores, "play", range(2), 1, late)):
        h = hint(view, B, i)
        assert h.action == ExpertBot(i, B).analyse(view).best
        text = check_agrees(view, h)
        assert h.options[0].action.card is not None and h.words in text
        if scores is not None and late:
            margins = ExpertBot(i, B).analyse(dataclasses.replace(view, scores=None)).values
            assert {o.action: o.points for o in h.options} == margins


# --------------------------------------------------------------------------- ten-point
@pytest.mark.parametrize("phase", ["auction", "declare", "discard"])
def test_ten_point_hints_name_trump_and_discards_in_the_same_numbers(phase: str) -> None:
    for i, view in enumerate(views_in("ten-point", 4, None, phase, range(2), 1)):
        h = hint(view, B, i)
        text = check_agrees(view, h)
        assert "moon" not in text
        if phase == "declare":
            assert h.action.suit is not None
            assert text.startswith(f"name {'♣♦♥♠'[h.action.suit]} trump: ")
            assert "♣ " in text or "♦ " in text or "♥ " in text or "♠ " in text
        if phase == "discard":
            assert text.startswith("discard the ")


def test_suggest_is_the_hints_action_and_text() -> None:
    view = views_in("auction-partners", 4, (3, 4), "play", range(1), 1)[0]
    h = hint(view, B, 7)
    assert suggest(view, B, 7) == (h.action, h.text())


def test_a_forced_move_says_so_without_numbers() -> None:
    rules = pc.find_variant("auction-partners")
    h = pc.Hand.deal(rules, 4, dealer=0, seed=1)
    while not h.is_over:
        seat = h.seat_to_act
        assert seat is not None
        view = view_of(h, seat)
        if len(view.legal_actions) == 1:
            out = hint(view, B, 0)
            assert out.options == () and out.text().endswith("the only legal choice")
            return
        h.push(decide(view))
    pytest.fail("no forced move in the hand")


# --------------------------------------------------------------------------- on the screen
def test_pressing_h_shows_the_hint_with_its_numbers_in_two_lines() -> None:
    pytest.importorskip("textual")
    from rich.console import Console
    from rich.text import Text

    from pitchcards.tui.app import PitchApp
    from pitchcards.tui.config import GameConfig
    from test_tui import FAST, run, settle, text_of
    from test_tui_tenpoint import until_my

    app = PitchApp(GameConfig(variant="auction", seed=6), delays=FAST)

    async def hint_shown(pilot: Any) -> str:
        await pilot.press("h")
        for _ in range(2000):
            if text_of(app, "#message").startswith("Hint: "):
                break
            await pilot.pause(0.01)
        message = app.message
        assert isinstance(message, Text)
        width = app.screen_stack[0].query_one("#message").content_region.width
        assert len(message.wrap(Console(width=width), width)) <= 2, message.plain
        return message.plain

    async def script(pilot: Any) -> None:
        await settle(pilot, app)
        await until_my(pilot, app, "auction")
        said = await hint_shown(pilot)
        assert said.startswith(("Hint: bid", "Hint: pass", "Hint: pitch")), said
        assert "expected net score change (match chance): " in said \
            or "chance to win the match" in said, said
        assert TERM.search(said) and app.choice is not None
        await pilot.press("enter")  # takes the hint
        await until_my(pilot, app, "play")
        said = await hint_shown(pilot)
        assert TERM.search(said) or said.endswith("the only legal choice"), said

    run(app, script)
