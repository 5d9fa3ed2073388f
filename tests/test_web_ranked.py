"""The new-table form's Ranked box in a real Chromium (docs/accounts.md, "Ranked tables"):
hidden from a guest; shown to a signed-in player; disabled with the server's reason when the
rules chosen cannot be ranked (said before creating); a ranked table made with it is ranked,
with a turn timer, its host seated under the account's name."""

from __future__ import annotations

import pytest

from browser_helpers import Player, api, open_home
from server_helpers import server_fixture

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

server = server_fixture()


def _sign_up(page, name: str) -> None:
    """Register from the page itself (its own origin, its cookie jar)."""
    status = page.evaluate("""async (name) => (await fetch('/api/accounts', {method: 'POST',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({name, password: 'correct horse'})})).status""", name)
    assert status == 201


def test_a_guest_is_not_offered_a_ranked_table(browser, server):
    guest = Player(browser, server.url)
    try:
        open_home(guest.page, server.url)
        guest.page.wait_for_function(
            "() => document.querySelector('#create-ranked') !== null")
        assert guest.page.locator("#create-ranked").is_hidden()
    finally:
        guest.close()


def test_the_ranked_box_says_why_rules_cannot_be_ranked_and_makes_a_ranked_table(browser,
                                                                                 server):
    ann = Player(browser, server.url)
    try:
        page = ann.page
        page.goto(server.url + "/")
        _sign_up(page, "Rankedann")
        open_home(page, server.url)
        page.wait_for_function("() => !document.querySelector('#create-ranked')"
                               ".closest('.ranked').hidden")
        # an option that changes the game: the server's reason, before creating
        page.locator("form#create [name='opt.target']").fill("21")
        page.wait_for_function("() => document.querySelector('#create-ranked').disabled")
        hint = page.locator("#create-ranked-hint").text_content() or ""
        assert "target=21" in hint and hint.startswith("Not ranked")
        page.locator("form#create [name='opt.target']").fill("7")
        page.wait_for_function("() => !document.querySelector('#create-ranked').disabled")
        page.locator("#create-ranked").check()
        page.fill("form#create [name=name]", "Typed")
        page.get_by_role("button", name="Create table").click()
        page.wait_for_selector("#invite", timeout=30000)
        tables = page.evaluate("""() => Object.keys(localStorage)
            .filter(k => k.startsWith('pitch.seat.')).map(k => k.slice(11))""")
        assert len(tables) == 1
        info = api(server.url, "GET", f"/api/tables/{tables[0]}")
        assert info["ranked"] is True and info["settings"]["turn_timer"] == 60
        assert [s["name"] for s in info["seats"] if s["name"]] == ["Rankedann"]
    finally:
        ann.close()
