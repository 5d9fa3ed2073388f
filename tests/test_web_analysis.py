"""The analysis in the browser (issue 33; docs/web.md, "Analysis"): a short match (Ann and three
random bots, dealt from a chosen seed) finished, its player opens "Analyse" from the table's
link, sees the progress end in the summary of where each player's points went, the loss and
best alternative beside a decision, each side's chart, the open-hand values on the cards, each
choice's chance to win the match drawn as bars, and steps through a puzzle of her own costliest
decision; then a stranger opens the same hands and analysis in the viewer."""

from __future__ import annotations

import random
from typing import Any

import pytest

from browser_helpers import Player, _in_thread, create_table, start
from leak_check import SHORT
from pitchcards.client import Client, Seat
from server_helpers import QUICK_LIMITS, play_randomly, server_fixture

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

server = server_fixture(extra=(*QUICK_LIMITS, "--analysis-budget", "4"), hooked=True)


def _finished_match(url: str, seed: int) -> dict[str, Any]:
    """Ann's seat at a match to one point (Ann from Python, three random bots), played out."""
    ann = create_table(url, "Ann", seed=seed, variant="auction", fill="random", options=SHORT)
    start(url, ann)

    async def play() -> None:
        async with Client(url) as api:
            seat = Seat(url, ann["table"], ann["token"], ann["name"], ann["seat"])
            async with await api.connect(seat) as conn:
                await play_randomly(conn, random.Random(seed), timeout=60)
                await conn.wait_for(lambda: conn.over, 60)

    _in_thread(play())
    return ann


def test_analyse_a_finished_match_see_the_losses_and_a_puzzle(browser, server):
    ann = _finished_match(server.url, 3)
    viewer = Player(browser, server.url, ann)
    try:
        page = viewer.page
        page.goto(f"{server.url}/t/{ann['table']}")
        page.locator("#analyse-link").click()  # shown at the match's end
        page.wait_for_function("() => document.querySelector('#analysis-summary') !== null",
                               timeout=180_000)
        status = page.locator("#analysis-status").inner_text()
        assert status.startswith("Analysed:"), status
        rows = page.locator("#analysis-summary tbody tr")
        assert rows.count() == 4
        assert page.locator("#analysis-summary tr[data-player='Ann']").count() == 1
        # each hand's chart: a line per side that decided something
        page.wait_for_function(
            "() => document.querySelectorAll('#analysis-chart polyline').length >= 2")
        # step to the end: a decision's note on every step after the deal
        forward = page.locator("#by-card")
        forward.click()
        notes = []
        hindsight = 0
        chances = []  # (bars drawn, the server's chances of the step's choices, caption)
        for _ in range(60):
            if page.locator("#step-forward").is_disabled():
                break
            page.locator("#step-forward").click()
            page.wait_for_function("() => document.querySelector('#step-analysis') !== null")
            notes.append(page.locator("#step-analysis").inner_text())
            hindsight += page.locator(".hcard[data-hindsight]").count()
            if page.locator("#step-chance").count():
                chances.append((page.locator("#step-chance .chance-bar").count(),
                                page.locator("#step-chance figcaption").inner_text()))
        assert notes and all(n.split(":")[0] for n in notes), notes
        assert any("expected" in n or "only legal" in n for n in notes), notes
        assert hindsight > 0, "the last tricks carry open-hand values on the cards"
        # a match to one point is at its end from the first hand: every choice was weighed by
        # the chance to win the match too, and the page draws a bar per choice it was sent
        assert chances and all(bars >= 2 and "to win the match" in words
                               for bars, words in chances), chances
        assert "Most match chance given up" in page.locator("#analysis-summary").inner_text()
        # learn from your mistakes: a puzzle of Ann's own, or the word that there is none
        page.locator("#puzzles-start").click()
        page.wait_for_function("() => document.querySelector('.puzzle, #puzzle-none') !== null")
        if page.locator(".puzzle").count():
            page.locator(".puzzle-choice").first.click()
            page.wait_for_function(
                "() => document.querySelector('#puzzle-answer p') !== null")
            assert "loss" in page.locator("#puzzle-answer").inner_text()
        assert viewer.errors == []
    finally:
        viewer.close()
    # once the match is over a stranger (no seat in this browser) opens the same viewer: the
    # hands and the analysis already made, without the puzzles (a player's own)
    stranger = Player(browser, server.url, table=ann["table"])
    try:
        page = stranger.page
        page.goto(f"{server.url}/t/{ann['table']}/history")
        page.wait_for_function("() => document.querySelector('#analysis-summary') !== null",
                               timeout=60_000)
        assert page.locator("#hands li").count() >= 1
        assert page.locator("#puzzles-start").count() == 0
        page.locator("#step-forward").click()
        page.wait_for_function("() => document.querySelector('#step-analysis') !== null")
        assert stranger.errors == []
    finally:
        stranger.close()


def test_a_stranger_is_told_to_wait_for_the_end(browser, server):
    """A page with no seat at a match that goes on: no Analyse button, the reason said."""
    host = create_table(server.url, "Bea", seed=9, variant="auction", fill="random",
                        options={"target": 11})
    start(server.url, host)

    async def one_hand() -> None:
        async with Client(server.url) as api:
            seat = Seat(server.url, host["table"], host["token"], host["name"], host["seat"])
            async with await api.connect(seat) as conn:
                await play_randomly(conn, random.Random(9), stop=lambda: any(
                    e.type == "hand_scored" for e in conn.events))

    _in_thread(one_hand())
    stranger = Player(browser, server.url, table=host["table"])
    try:
        page = stranger.page
        page.goto(f"{server.url}/t/{host['table']}/history")
        page.wait_for_function("() => (document.querySelector('#analysis-status, .error')"
                               " || {}).textContent")
        assert page.locator("#analyse").count() == 0 or not page.locator("#analyse").is_visible()
    finally:
        stranger.close()
