"""The new-table form's Ranked box in a real Chromium (docs/accounts.md, "Ranked tables"):
hidden from a guest; shown to a signed-in player; disabled with the server's reason when the
rules chosen cannot be ranked (said before creating); a ranked table made with it is ranked,
with a turn timer, its host seated under the account's name.  The table page's Claim button:
shown only when the server's ``TableInfo.may_claim`` names the page's side, and it ends the
match."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from account_helpers import account_token
from browser_helpers import Player, api, open_home
from server_helpers import app_fixture

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

server = app_fixture()

#: No pauses, and a grace and turn timer no slow run outlasts: nobody forfeits "away", no
#: stand-in plays a person's turn while the test looks
UNTIMED = {"bot_delay": 0, "hand_pause": 0, "grace": 3600, "turn_timer": 3600}


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


def _forfeits_seen(player: Player, count: int) -> bool:
    """The page has been told of ``count`` forfeits (its last TableInfo)."""
    infos = [m["table"] for m in player.messages() if m.get("type") == "table"]
    return bool(infos) and len(infos[-1].get("forfeits") or []) == count


def test_the_claim_button_shows_when_the_server_says_and_claims_the_win(browser, server):
    url = server.url
    tokens = {name: account_token(url, name) for name in ("Claimann", "Claimbob", "Claimcy")}
    host: dict[str, Any] = api(url, "POST", "/api/tables",
                               {"name": "Claimann", "variant": "auction", "players": 3,
                                "ranked": True, "settings": UNTIMED}, token=tokens["Claimann"])
    seats = {name: api(url, "POST", f"/api/invites/{host['invite']}/seats", {"name": name},
                       token=tokens[name]) for name in ("Claimbob", "Claimcy")}
    api(url, "POST", f"/api/tables/{host['table']}/start", token=host["token"])
    ann = Player(browser, url, host)
    try:
        ann.open_table()
        page = ann.page
        api(url, "POST", f"/api/tables/{host['table']}/leave", token=seats["Claimbob"]["token"])
        ann.wait(lambda: _forfeits_seen(ann, 1))
        # Cy still plays: the server names no side, the page offers nothing
        assert page.locator("#claim").is_hidden()
        # a player who may not claim is refused by the server, with the reason
        for name in ("Claimann", "Claimbob"):
            token = host["token"] if name == "Claimann" else seats[name]["token"]
            refused = httpx.post(f"{url}/api/tables/{host['table']}/claim",
                                 headers={"Authorization": f"Bearer {token}"})
            assert refused.status_code == 409 and refused.json()["reason"] == "cannot_claim"
        api(url, "POST", f"/api/tables/{host['table']}/leave", token=seats["Claimcy"]["token"])
        page.wait_for_selector("#claim:not([hidden])")
        assert api(url, "GET", f"/api/tables/{host['table']}")["may_claim"] == 0
        page.locator("#claim").click()
        page.wait_for_selector("#claim[hidden]", state="attached")
        info = api(url, "GET", f"/api/tables/{host['table']}")
        assert info["status"] == "over"
        assert [f["name"] for f in info["forfeits"]] == ["Claimbob", "Claimcy"]
        assert not ann.errors, json.dumps(ann.errors)
    finally:
        ann.close()
