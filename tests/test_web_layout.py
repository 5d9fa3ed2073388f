"""The browser table on a phone (390x844, touch: tapped) and on a desktop (1280x800): no
horizontal scroll, every card of the hand inside the viewport, a hand played to its end; the
screenshots are kept in test-artifacts/."""

from __future__ import annotations

import random

import pytest

from browser_helpers import (
    DESKTOP,
    HAND_CARDS,
    PHONE,
    Player,
    create_table,
    horizontal_overflow,
    open_home,
    outside_viewport,
    play_until,
    screenshot,
    start,
)
from server_helpers import server_fixture

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

server = server_fixture()

SIZES = {"phone": (PHONE, "tap"), "desktop": (DESKTOP, "click"),
         "small-phone": ({**PHONE, "viewport": {"width": 360, "height": 640}}, "tap")}


@pytest.mark.parametrize("size", SIZES)
def test_the_home_page_fits(browser, server, size):
    device, _ = SIZES[size]
    viewer = Player(browser, server.url, **device)
    try:
        open_home(viewer.page, server.url)
        screenshot(viewer.page, f"home-{size}")
        assert horizontal_overflow(viewer.page) == 0
        assert viewer.errors == []
    finally:
        viewer.close()


def _cards_on_tags(page) -> list[str]:
    """The trick's cards that cover a seat's name tag (motion over: where they stand)."""
    return list(page.evaluate("""() => {
        const out = [];
        const tags = [...document.querySelectorAll('#seats .seat')];
        for (const card of document.querySelectorAll('#trick .played')) {
            if (card.getAnimations().length) continue;
            const a = card.getBoundingClientRect();
            for (const tag of tags) {
                const b = tag.getBoundingClientRect();
                if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom)
                    out.push(`${card.dataset.card} on ${tag.innerText.split('\\n')[0]}`);
            }
        }
        return out; }"""))


@pytest.mark.parametrize("size", SIZES)
def test_the_table_fits_and_plays(browser, server, size):
    device, how = SIZES[size]
    # the next hand is not dealt while the test looks (issue 27): the summary stays open
    # until Ann must act in the next hand, so with a pause of 3 s it was open from the last
    # trick's 1.5 s to the deal at 3 s when Ann bids first in hand 2 (one deal in four),
    # and a test process late by a second and a half missed it
    host = create_table(server.url, "Ann", bots={1: "easy", 2: "easy", 3: "easy"},
                        settings={"bot_delay": 0.05, "hand_pause": 120})
    ann = Player(browser, server.url, host, **device)
    try:
        ann.open_table()
        start(server.url, host)
        ann.wait(lambda: len(ann.hand()) == 6, 10, "the deal")
        ann.wait(ann.my_turn, 20, "Ann's turn")
        ann.page.wait_for_timeout(300)  # let any motion settle
        screenshot(ann.page, f"table-{size}")
        assert horizontal_overflow(ann.page) == 0, "the table scrolls sideways"
        assert outside_viewport(ann.page, HAND_CARDS) == []
        assert outside_viewport(ann.page, "#actions button[data-action]") == []
        assert _cards_on_tags(ann.page) == [], "a trick card covers a seat's name tag"
        covered: list[str] = []

        def done() -> bool:    # and on the way: no trick card on a tag, trick after trick
            covered.extend(_cards_on_tags(ann.page))
            return ann.scored() >= 1

        play_until([ann], done, random.Random(9), how=how, timeout=90)
        assert covered == [], covered
        ann.page.wait_for_selector("#summary[open]", timeout=30000)
        screenshot(ann.page, f"summary-{size}")
        assert horizontal_overflow(ann.page) == 0, "the summary scrolls sideways"
        # the score sheet's hand-by-hand table fits its column at four players
        assert ann.page.evaluate("""() => { const s = document.querySelector('.sheet-scroll');
            return s.scrollWidth - s.clientWidth; }""") <= 1, "the score sheet scrolls sideways"
        assert ann.errors == []
    finally:
        ann.close()
