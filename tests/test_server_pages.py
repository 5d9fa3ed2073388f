"""What a browser sees at the server's addresses: the home page, an invite link and a table
link are shells for the browser table's one module each, and say without a script how to join
from a terminal (nothing from elsewhere); an unknown address is a clear refusal.  And a client
acting on a closed socket is told so instead of seeming to succeed."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from pitchcards.client import Client, ServerError
from server_helpers import FAST, app_fixture

pytestmark = pytest.mark.timeout(120)

server = app_fixture()  # one app in this process for the module's tests


def test_pages_and_unknown_addresses(server):
    async def setup():
        async with Client(server.url) as api:
            return await api.create_table("Ann", variant="setback", bots={2: "expert"})
    me = asyncio.run(setup())
    home = httpx.get(server.url + "/")
    invite = httpx.get(me.invite_url or "")
    table = httpx.get(f"{server.url}/t/{me.table}")
    bad_invite = httpx.get(f"{server.url}/join/nosuchinvite")
    nowhere = httpx.get(f"{server.url}/no/such/address")
    wrong_method = httpx.delete(f"{server.url}/api/lobby")
    history = httpx.get(f"{server.url}/t/{me.table}/history")
    for page, script in ((home, "home"), (invite, "join"), (table, "table"),
                         (history, "history")):
        assert page.status_code == 200
        assert page.headers["content-security-policy"].startswith("default-src 'self';")
        assert page.headers["referrer-policy"] == "no-referrer"
        scripts = page.text.count("<script")
        assert scripts == 1 and f'<script type="module" src="/static/js/{script}.js">' in page.text
        assert "http://" not in page.text.replace(server.url, "")  # nothing from elsewhere
    assert f"pitch play --new-table {server.url}" in home.text
    assert f"pitch play --join {me.invite_url}" in invite.text
    assert "seat 2: bot (expert)" in invite.text  # a bot seat is said before the start
    assert "seat 1: open" in invite.text
    assert me.invite not in table.text  # a table link does not give the invite away
    assert bad_invite.status_code == 404 and "No table has this invite" in bad_invite.text
    assert "<script" not in bad_invite.text
    assert nowhere.status_code == 404
    assert nowhere.json() == {"reason": "not_found", "message": "no such address"}
    assert wrong_method.status_code == 405 and wrong_method.json()["reason"] == "bad_message"


def test_acting_on_a_closed_socket_says_so(server):
    async def run(url: str) -> None:
        async with Client(url) as api:
            me = await api.create_table("Ann", bots={1: "random", 2: "random", 3: "random"},
                                        settings=FAST)
            await api.start(me)
            table = await api.connect(me)
            view = await table.my_turn(timeout=30)
            assert view is not None
            await table.drop()
            with pytest.raises(ServerError) as refused:
                await table.act(str(view.legal_actions[0]))
            assert refused.value.reason == "closed"
            await table.resume()  # and the game goes on
            view = await table.my_turn(timeout=30)
            assert view is not None
            await table.act(str(view.legal_actions[0]))
            await table.close()

    asyncio.run(run(server.url))


def test_the_account_pages_are_shells_and_echo_a_name_only_escaped(server):
    """/account, /players/{name} and /leaderboards/{pool} (docs/web.md): each one module, the
    CSP; a name in the address is echoed escaped (the page asks the API for the rest); an
    unknown pool is a 404 page naming the pools; /leaderboards opens the quick game's pool."""
    payload = "<img src=x onerror=alert(1)>"
    pages = {"account": httpx.get(server.url + "/account"),
             "player": httpx.get(f"{server.url}/players/{payload}"),
             "leaderboard": httpx.get(server.url + "/leaderboards/money")}
    for script, page in pages.items():
        assert page.status_code == 200
        assert page.headers["content-security-policy"].startswith("default-src 'self';")
        assert page.text.count("<script") == 1
        assert f'<script type="module" src="/static/js/{script}.js">' in page.text
        assert "/static/css/account.css" in page.text
    assert "<img" not in pages["player"].text
    assert 'data-name="&lt;img src=x onerror=alert(1)&gt;"' in pages["player"].text
    assert 'data-pool="money"' in pages["leaderboard"].text
    unknown = httpx.get(server.url + "/leaderboards/chess")
    assert unknown.status_code == 404 and "The money game" in unknown.text
    assert "<script" not in unknown.text
    default = httpx.get(server.url + "/leaderboards", follow_redirects=False)
    assert default.status_code == 307
    assert default.headers["location"] == "/leaderboards/four-point-cutthroat"
