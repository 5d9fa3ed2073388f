"""The account pages (issue 32, items 1 and 4; docs/web.md, docs/accounts.md) in a real Chromium
against a real ``pitch serve`` (in this process, on a real SQLite file): register, sign in and
out, sign out everywhere, change the password, API tokens, delete with a confirmation; a
profile's ratings, chart and recent matches, and a leaderboard with your own place, every number
the server's; the security cases: a name with an HTML/JS payload shows literally (no element is
made of it), a session id does not survive sign-out; and every page fits a 360 px phone."""

from __future__ import annotations

import time
import urllib.parse
import uuid
from typing import Any

import httpx
import pytest

from browser_helpers import (
    PHONE,
    axe_violations,
    create_table,
    horizontal_overflow,
    screenshot,
)
from pitchcards.play_stats import Stats
from pitchcards.server import account_store as db
from pitchcards.server import rating_store, stat_store
from pitchcards.server.accounts import SESSION_COOKIE
from server_helpers import QUICK_LIMITS, app_fixture

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

#: sign-ins are rate-limited per address (10 a minute): a test's browser signs in more often
server = app_fixture(extra=(*QUICK_LIMITS, "--sign-ins-per-minute", "1000",
                            "--sign-ins-per-hour-per-account", "1000"))


PASSWORD = "correct horse"
PAYLOAD = "<img src=x onerror=window.__pwned=1>"
SMALL_PHONE = {**PHONE, "viewport": {"width": 360, "height": 640}}
#: elements a payload would make, were it ever read as markup
_MADE = "() => document.querySelectorAll('img, main script, [onerror]').length"


def _name() -> str:
    """A fresh account name (the module's tests share one server)."""
    return "P" + uuid.uuid4().hex[:12]


def _register(url: str, name: str, password: str = PASSWORD) -> httpx.Client:
    """An account registered over HTTP, signed in on the returned client (a terminal: no
    Origin)."""
    client = httpx.Client(base_url=url, timeout=30)
    reply = client.post("/api/accounts", json={"name": name, "password": password})
    assert reply.status_code == 201, reply.text
    return client


def _engine(server: Any) -> Any:
    return server.app.state.hub.store.engine


def _account_id(server: Any, name: str) -> str:
    found = db.find_account(_engine(server), name.casefold())
    assert found is not None
    return found.id


def _settle(server: Any, account_id: str, pool: str, mu: float) -> None:
    """A rating as after many matches (σ small), changed now."""
    with _engine(server).begin() as conn:
        conn.execute(db.ratings.insert().values(account_id=account_id, pool=pool, mu=mu,
                                                sigma=2.0, matches=50, updated=time.time()))


def _open(browser: Any, url: str, **device: Any) -> tuple[Any, Any]:
    context = browser.new_context(**device)
    page = context.new_page()
    page.goto(url)
    return context, page


def _fill_and_submit(page: Any, form: str, **fields: str) -> None:
    for name, value in fields.items():
        page.fill(f"#{form} [name={name}]", value)
    page.click(f"#{form} button[type=submit]")


def _wait_signed_in(page: Any, name: str) -> None:
    page.wait_for_function(
        "(n) => document.querySelector('#account-name')?.dataset.name === n", arg=name,
        timeout=60_000)


def _wait_signed_out(page: Any) -> None:
    page.wait_for_function("() => document.querySelector('#sign-in') !== null", timeout=60_000)


def _registered(browser: Any, url: str) -> tuple[str, Any, Any]:
    """A new account, registered from its /account page: its name, context and page."""
    name = _name()
    context, page = _open(browser, url + "/account")
    _fill_and_submit(page, "register", name=name, password=PASSWORD)
    _wait_signed_in(page, name)
    return name, context, page


def _sign_in_and_open(page: Any, url: str, name: str, then: str) -> None:
    """Sign ``name`` in on its /account page, then open ``then``."""
    page.goto(url + "/account")
    _fill_and_submit(page, "sign-in", name=name, password=PASSWORD)
    _wait_signed_in(page, name)
    page.goto(url + then)


def _session_cookie(context: Any) -> str:
    found = [c["value"] for c in context.cookies() if c["name"] == SESSION_COOKIE]
    assert len(found) == 1, context.cookies()
    return str(found[0])


def _me_with(url: str, session_id: str) -> int:
    return httpx.get(url + "/api/me", cookies={SESSION_COOKIE: session_id},
                     timeout=30).status_code


# ---------------------------------------------------------------------------- accounts


def test_register_sign_out_and_sign_in_and_the_home_link(browser, server):
    name = _name()
    context, page = _open(browser, server.url + "/")
    try:
        # a guest: the home page only gains a small "Sign in" link; one tap still plays
        page.wait_for_function("() => document.querySelector('#play-bots') !== null")
        link = page.locator("#account-link")
        assert link.inner_text() == "Sign in" and link.get_attribute("href") == "/account"
        link.click()
        page.wait_for_function("() => document.querySelector('#register') !== null")
        _fill_and_submit(page, "register", name=name, password=PASSWORD)
        _wait_signed_in(page, name)
        assert "signed in" in page.inner_text("#account-message")
        first = _session_cookie(context)
        assert _me_with(server.url, first) == 200

        page.goto(server.url + "/")
        page.wait_for_function(
            "(n) => document.querySelector('#account-link')?.dataset.signedIn === n", arg=name)
        assert page.inner_text("#account-link") == name

        page.goto(server.url + "/account")
        _wait_signed_in(page, name)
        page.click("#sign-out")
        _wait_signed_out(page)
        assert page.inner_text("#account-message") == "Signed out."
        # the session id does not survive sign-out (nor does the browser keep it)
        assert _me_with(server.url, first) == 401
        assert not [c for c in context.cookies() if c["name"] == SESSION_COOKIE]

        _fill_and_submit(page, "sign-in", name=name, password="wrong password")
        page.wait_for_function("() => !document.querySelector('#sign-in-error').hidden")
        assert "do not match" in page.inner_text("#sign-in-error")
        _fill_and_submit(page, "sign-in", name=name, password=PASSWORD)
        _wait_signed_in(page, name)
        second = _session_cookie(context)
        assert second != first and _me_with(server.url, second) == 200
        assert page.evaluate("() => document.cookie") == ""  # HttpOnly: no script reads it
    finally:
        context.close()


def test_sign_out_everywhere_ends_every_browsers_session(browser, server):
    name = _name()
    _register(server.url, name).close()
    sessions = []
    contexts = []
    try:
        for _ in range(2):
            context, page = _open(browser, server.url + "/account")
            contexts.append((context, page))
            page.wait_for_function("() => document.querySelector('#sign-in') !== null")
            _fill_and_submit(page, "sign-in", name=name, password=PASSWORD)
            _wait_signed_in(page, name)
            sessions.append(_session_cookie(context))
        (_, here), (_, there) = contexts
        here.click("#sign-out-everywhere")
        _wait_signed_out(here)
        # both browsers' sessions and the one the registration opened
        assert "3 sessions ended" in here.inner_text("#account-message")
        assert [_me_with(server.url, s) for s in sessions] == [401, 401]
        there.reload()
        _wait_signed_out(there)
    finally:
        for context, _ in contexts:
            context.close()


def test_changing_the_password_keeps_this_browser_and_ends_the_old_one(browser, server):
    name = _name()
    terminal = _register(server.url, name)
    context, page = _open(browser, server.url + "/account")
    try:
        _fill_and_submit(page, "sign-in", name=name, password=PASSWORD)
        _wait_signed_in(page, name)
        _fill_and_submit(page, "change-password", current="not my password", new="new password 1")
        page.wait_for_function("() => !document.querySelector('#change-password-error').hidden")
        assert "not your password" in page.inner_text("#change-password-error")
        _fill_and_submit(page, "change-password", current=PASSWORD, new="new password 1")
        page.wait_for_function("() => document.querySelector('#account-message')"
                               ".textContent.includes('password is changed')")
        page.reload()
        _wait_signed_in(page, name)  # a new session for this browser
        assert terminal.get("/api/me").status_code == 401  # the other one ended
        assert httpx.post(server.url + "/api/session", json={
            "name": name, "password": "new password 1"}).status_code == 200
    finally:
        context.close()
        terminal.close()


def test_api_tokens_are_shown_once_listed_and_revoked(browser, server):
    name, context, page = _registered(browser, server.url)
    try:
        page.wait_for_function("() => document.querySelector('#token-list li') !== null")
        _fill_and_submit(page, "new-token-form", label="my laptop")
        page.wait_for_function("() => !document.querySelector('#new-token').hidden")
        token = page.get_attribute("#new-token input", "data-token")
        assert token and token.startswith("pat_")
        page.wait_for_function("() => document.querySelectorAll('#token-list li[data-token-id]')"
                               ".length === 1")
        assert "my laptop" in page.inner_text("#token-list")
        bearer = {"Authorization": f"Bearer {token}"}
        me = httpx.get(server.url + "/api/me", headers=bearer)
        assert me.status_code == 200 and me.json()["name"] == name

        page.reload()  # shown once: the list never carries the token itself
        page.wait_for_function("() => document.querySelector('#token-list li[data-token-id]')"
                               " !== null")
        assert token not in page.content()
        page.click("#token-list button.revoke")
        page.wait_for_function("() => document.querySelector('#token-list li[data-token-id]')"
                               " === null")
        assert httpx.get(server.url + "/api/me", headers=bearer).status_code == 401
    finally:
        context.close()


def test_deleting_the_account_asks_for_the_password_first(browser, server):
    name, context, page = _registered(browser, server.url)
    try:
        session = _session_cookie(context)
        page.click("#delete-account")
        page.wait_for_function("() => document.querySelector('#confirm-delete').open")
        page.click("#confirm-delete-cancel")
        page.wait_for_function("() => !document.querySelector('#confirm-delete').open")
        assert _me_with(server.url, session) == 200  # cancelled: nothing changed

        page.click("#delete-account")
        page.fill("#confirm-delete [name=password]", "not my password")
        page.click("#confirm-delete-go")
        page.wait_for_function("() => !document.querySelector('#confirm-delete-error').hidden")
        assert "not your password" in page.inner_text("#confirm-delete-error")
        assert page.evaluate("() => document.querySelector('#confirm-delete').open")
        assert _me_with(server.url, session) == 200

        page.fill("#confirm-delete [name=password]", PASSWORD)
        page.click("#confirm-delete-go")
        _wait_signed_out(page)
        assert page.inner_text("#account-message") == "Your account is deleted."
        assert _me_with(server.url, session) == 401
        assert httpx.post(server.url + "/api/session", json={
            "name": name, "password": PASSWORD}).status_code == 401
        page.goto(f"{server.url}/players/{name}")
        page.wait_for_function("() => document.querySelector('#app .error') !== null")
        assert page.inner_text("#app .error") == "No player has that name."
    finally:
        context.close()


# ---------------------------------------------------------------------------- profile, board


def _rated_history(server: Any, pool: str = "four-point-partners") -> tuple[str, list[str]]:
    """Ann-like player and three others, four rated matches of ``pool`` at tables (the player
    wins three); returns the player's name and the tables."""
    names = [_name() for _ in range(4)]
    for n in names:
        _register(server.url, n).close()
    ids = [_account_id(server, n) for n in names]
    tables = [uuid.uuid4().hex[:12] for _ in range(4)]
    for number, table in enumerate(tables):
        won = number != 2
        us, them = (ids[0], ids[1]), (ids[2], ids[3])
        rating_store.rate_match_once(_engine(server), f"table:{table}", pool,
                                     [(us, 0 if won else 1), (them, 1 if won else 0)])
    return names[0], tables


def test_a_profile_shows_the_servers_ratings_chart_statistics_and_matches(browser, server):
    name, tables = _rated_history(server)
    with _engine(server).begin() as conn:  # the hands of those matches, as their rating adds
        stat_store.add_stats(conn, "four-point-partners", {_account_id(server, name): Stats(
            hands=12, points=9, bids=4, made=3, moons=1)})
    data = httpx.get(f"{server.url}/api/players/{name}").json()
    # (axe is injected: this page's context bypasses the CSP)
    context, page = _open(browser, f"{server.url}/players/{name}", bypass_csp=True)
    try:
        page.wait_for_function("() => document.querySelector('#ratings') !== null",
                               timeout=60_000)
        row = page.locator("#ratings tr[data-pool=four-point-partners]")
        mine = data["ratings"]["four-point-partners"]
        assert mine["provisional"] and mine["rating"].endswith("?")
        assert row.locator(".rating").inner_text() == mine["rating"]  # the server's, with its mark
        assert row.get_attribute("data-provisional") == "true"
        assert row.locator(".place").inner_text() == "—"  # provisional: not on the board
        assert row.locator(".place").get_attribute("title") == mine["unlisted"]
        assert page.inner_text("#player-stats [data-stat=matches]") == "4"
        assert page.inner_text("#player-stats [data-stat=wins]") == "3"
        shown = {k: page.inner_text(f"#player-stats [data-stat={k}]") for k in
                 ("hands", "points_per_hand", "bids", "made", "moons")}
        assert shown == {"hands": "12", "points_per_hand": "0.75", "bids": "4", "made": "3",
                         "moons": "1"}
        assert page.locator("#pool-stats tr[data-pool=four-point-partners] td").all_inner_texts(
        ) == ["4", "3", "12", "0.75", "4", "3", "1"]
        assert data["stats"]["points_per_hand"] == 0.75

        chart = page.locator("svg.rating-chart[data-pool=four-point-partners]")
        assert chart.get_attribute("data-points") == "4"
        drawn = [int(r) for r in chart.locator("circle.point").evaluate_all(
            "els => els.map(e => e.dataset.rating)")]
        assert drawn == [p["rating"] for p in data["history"]["four-point-partners"]]
        assert chart.locator("circle.point.provisional").count() == 4
        assert chart.locator("polyline.trend").count() == 1
        ys = [float(y) for y in chart.locator("circle.point").evaluate_all(
            "els => els.map(e => e.getAttribute('cy'))")]
        # higher numbers are drawn higher (smaller y): the third match (lost) goes down
        assert ys[2] > ys[1] and ys[1] < ys[0]

        items = page.locator("#recent li[data-match]")
        assert items.count() == 4
        assert items.first.get_attribute("data-match") == f"table:{tables[-1]}"  # newest first
        assert items.first.locator("a", has_text="hands").get_attribute("href") == \
            f"/t/{tables[-1]}/history"
        # no link to the record: a link carries no seat token, so it would answer 401 to all
        assert items.first.locator("a").count() == 1
        assert data["recent"][0]["after"] in items.first.inner_text()
        assert axe_violations(page) == []
    finally:
        context.close()


def test_a_leaderboard_lists_the_top_says_who_is_left_out_and_your_place(browser, server):
    pool = "ten-point-cutthroat"
    top, you = _name(), _name()
    for n, mu in ((top, 40.0), (you, 39.0)):
        _register(server.url, n).close()
        _settle(server, _account_id(server, n), pool, mu)
    newcomer, _ = _rated_history(server, pool)  # provisional: left out
    context, page = _open(browser, f"{server.url}/leaderboards/{pool}", bypass_csp=True)
    try:
        page.wait_for_function("() => document.querySelector('#board') !== null")
        listed = page.locator("#board tbody tr").evaluate_all(
            "rows => rows.map(r => r.dataset.name)")
        assert listed[:2] == [top, you] and newcomer not in listed
        assert page.inner_text("#board tbody tr:first-child .rating") == "2400"
        assert "provisional" in page.inner_text("#left-out")
        assert "90 days" in page.inner_text("#left-out")
        assert "Sign in" in page.inner_text("#your-place")
        assert page.locator(".pool-nav a[aria-current=page]").get_attribute("href") == \
            f"/leaderboards/{pool}"

        _sign_in_and_open(page, server.url, you, f"/leaderboards/{pool}")
        page.wait_for_function("() => document.querySelector('#your-place[data-place]')"
                               " !== null")
        assert page.get_attribute("#your-place", "data-place") == "2"
        assert page.inner_text("#your-place") == "Your place: 2nd, rating 2340."
        assert page.locator("#board tr[data-me=true]").get_attribute("data-name") == you
        assert axe_violations(page) == []

        page.goto(server.url + "/account")
        page.click("#sign-out")
        _wait_signed_out(page)
        _sign_in_and_open(page, server.url, newcomer, f"/leaderboards/{pool}")
        page.wait_for_function("() => document.querySelector('#your-place')?.textContent"
                               ".includes('not listed')")
        assert "provisional" in page.inner_text("#your-place")
    finally:
        context.close()


# ---------------------------------------------------------------------------- security


def test_a_name_with_an_html_payload_shows_as_text_everywhere(browser, server):
    # The name rules refuse markup, so the registration form says so, literally.
    context, page = _open(browser, server.url + "/account")
    try:
        page.wait_for_function("() => document.querySelector('#register') !== null")
        _fill_and_submit(page, "register", name=PAYLOAD, password=PASSWORD)
        page.wait_for_function("() => !document.querySelector('#register-error').hidden")
        assert "<img src=x" in page.inner_text("#register-error")
        assert page.evaluate(_MADE) == 0

        # A profile address carrying it: the heading shows it as typed, and nothing is made.
        page.goto(f"{server.url}/players/{urllib.parse.quote(PAYLOAD)}")
        page.wait_for_function("() => document.querySelector('#app .error') !== null")
        assert page.inner_text("#player-name") == PAYLOAD
        assert page.evaluate(_MADE) == 0

        # An account whose name holds it (planted in the database, as a name rule changed
        # tomorrow might let through) on the leaderboard and in its own profile's heading:
        # text, every time.
        with _engine(server).begin() as conn:
            conn.execute(db.accounts.insert().values(
                id=uuid.uuid4().hex, name=PAYLOAD, name_key=PAYLOAD, password_hash=None,
                bot_level=None, created=time.time()))
        planted = db.find_account(_engine(server), PAYLOAD)
        assert planted is not None
        _settle(server, planted.id, "money", 60.0)
        page.goto(f"{server.url}/leaderboards/money")
        page.wait_for_function("() => document.querySelector('#board') !== null")
        row = page.locator("#board tbody tr").first
        assert row.get_attribute("data-name") == PAYLOAD
        assert row.locator("a").inner_text() == PAYLOAD
        assert page.evaluate(_MADE) == 0
        assert page.evaluate("() => window.__pwned") is None

        # At a table: the seat form refuses it in words, as text.
        host = create_table(server.url, "Ann")
        page.goto(host["invite_url"])
        page.wait_for_function("() => document.querySelector('#take-seat') !== null")
        page.fill("#take-seat [name=name]", PAYLOAD)
        page.click("#take-seat button[type=submit]")
        page.wait_for_function("() => [...document.querySelectorAll('[role=alert]')]"
                               ".some(e => !e.hidden && e.textContent.includes('<img'))")
        assert page.evaluate(_MADE) == 0
        assert page.evaluate("() => window.__pwned") is None
    finally:
        context.close()


# ---------------------------------------------------------------------------- phone


@pytest.mark.parametrize("where", ["account", "signed-in", "profile", "leaderboard"])
def test_the_account_pages_fit_a_360_px_phone_and_pass_axe(browser, server, where):
    name, _ = _rated_history(server)
    # (axe is injected: the context bypasses the CSP)
    context, page = _open(browser, server.url + "/account", bypass_csp=True, **SMALL_PHONE)
    try:
        page.wait_for_function("() => document.querySelector('#sign-in') !== null")
        if where != "account":
            _fill_and_submit(page, "sign-in", name=name, password=PASSWORD)
            _wait_signed_in(page, name)
        if where == "profile":
            page.goto(f"{server.url}/players/{name}")
            page.wait_for_function("() => document.querySelector('svg.rating-chart') !== null")
        elif where == "leaderboard":
            page.goto(f"{server.url}/leaderboards/four-point-partners")
            page.wait_for_function("() => document.querySelector('#your-place') !== null")
        elif where == "signed-in":
            page.wait_for_function("() => document.querySelector('#token-list li') !== null")
        assert horizontal_overflow(page) == 0
        screenshot(page, f"account-{where}-phone")
        assert axe_violations(page) == []
    finally:
        context.close()
