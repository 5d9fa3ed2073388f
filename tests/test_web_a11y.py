"""Accessibility of the browser table (docs/web.md): axe-core finds no serious or critical
violation on the home, table and history pages, and a hand can be played with the keyboard
alone — Tab and Enter, and the terminal game's keys (js/keys.js: 1-6 choose a card, Enter plays
it)."""

from __future__ import annotations

import pytest

from browser_helpers import (
    AXE,
    LEGAL_BIDS,
    LEGAL_CARDS,
    Player,
    a_finished_hand,
    axe_violations,
    create_table,
    in_ci,
    open_home,
    start,
)
from server_helpers import server_fixture

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

server = server_fixture()


@pytest.fixture(autouse=True)
def _axe_present(request):
    if "keyboard" not in request.node.name and not AXE.exists():
        if in_ci():
            pytest.fail(f"{AXE} is missing (npm ci)")
        pytest.skip(f"no axe-core at {AXE} (run `npm ci`)")


def _no_violations(player: Player, where: str) -> None:
    bad = axe_violations(player.page)
    assert bad == [], f"{where}:\n" + "\n".join(bad)


def test_axe_on_the_home_page(browser, server):
    create_table(server.url, "Lia", listed=True)    # the lobby has a row
    viewer = Player(browser, server.url, bypass_csp=True)
    try:
        open_home(viewer.page, server.url)
        viewer.page.wait_for_selector("#lobby a")
        _no_violations(viewer, "home")
    finally:
        viewer.close()


def test_axe_on_the_join_page(browser, server):
    host = create_table(server.url, "Ann")
    viewer = Player(browser, server.url, bypass_csp=True)
    try:
        viewer.page.goto(f"{server.url}/join/{host['invite']}")
        viewer.page.wait_for_selector("form#take-seat")
        _no_violations(viewer, "join")
    finally:
        viewer.close()


def test_axe_on_the_table_page_mid_hand(browser, server):
    host = create_table(server.url, "Ann", bots={1: "easy", 2: "easy", 3: "easy"})
    ann = Player(browser, server.url, host, bypass_csp=True)
    try:
        ann.open_table()
        _no_violations(ann, "table before the start")
        start(server.url, host)
        ann.wait(ann.my_turn, 20, "Ann's turn")
        _no_violations(ann, "table, Ann's turn")
    finally:
        ann.close()


def test_axe_on_the_history_page(browser, server):
    seat = a_finished_hand(server.url)
    viewer = Player(browser, server.url, seat, bypass_csp=True)
    try:
        viewer.page.goto(f"{server.url}/t/{seat['table']}/history")
        viewer.page.wait_for_selector("#position")
        _no_violations(viewer, "history")
    finally:
        viewer.close()


FOCUSABLE_MOVE = (f"{LEGAL_CARDS}, {LEGAL_BIDS}")


def _tab_to_a_move(page, presses: int = 80) -> str:
    """Press Tab until a legal card or bid has the focus; what it is."""
    for _ in range(presses):
        page.keyboard.press("Tab")
        found = page.evaluate(f"""() => {{
            const e = document.activeElement;
            return e && e.matches({FOCUSABLE_MOVE!r})
                ? (e.dataset.card || e.dataset.action) : null; }}""")
        if found:
            return str(found)
    raise AssertionError("Tab never reached a legal card or bid")


def test_a_hand_played_with_the_keyboard_alone(browser, server):
    """Bids by Tab and Enter; cards by Tab and Enter (pick, then Enter plays the picked card)
    and by the game's keys (a digit picks the n-th card, Enter plays it) every other card when
    the focus is on no control (Enter on a button presses the button)."""
    host = create_table(server.url, "Ann", bots={1: "easy", 2: "easy", 3: "easy"})
    ann = Player(browser, server.url, host)
    page = ann.page
    try:
        ann.open_table()
        start(server.url, host)
        moves = by_digit = 0
        while ann.scored() < 1:
            ann.wait(lambda: ann.my_turn() or ann.scored() >= 1, 30, "Ann's turn")
            if ann.scored() >= 1:
                break
            before = ann.seq()
            bids = page.locator(LEGAL_BIDS).count()
            on_control = page.evaluate("() => !!document.activeElement && "
                                       "document.activeElement.matches('button, a, input, "
                                       "select, textarea, summary')")
            if not bids and moves % 2 == 1 and not on_control:
                hand = ann.hand()
                legal = page.eval_on_selector_all(LEGAL_CARDS,
                                                  "es => es.map(e => e.dataset.card)")
                page.keyboard.press(str(hand.index(legal[0]) + 1))
                assert page.locator(f'#hand button.card[data-card="{legal[0]}"]') \
                    .get_attribute("aria-pressed") == "true", "the digit picked no card"
                page.keyboard.press("Enter")
                what = legal[0]
                by_digit += 1
            else:
                what = _tab_to_a_move(page)
                page.keyboard.press("Enter")
                if not bids:
                    page.keyboard.press("Enter")
            ann.wait(lambda before=before: ann.seq() > before, 10, f"{what} to be taken")
            moves += 1
            refused = [m for m in ann.messages() if m.get("type") == "error"]
            assert refused == [], refused
        assert moves >= 6
        print(f"{moves} moves by keyboard, {by_digit} of them by the game's digit keys")
        assert ann.errors == []
    finally:
        ann.close()
