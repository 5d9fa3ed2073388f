"""A tournament's pages in Chromium (docs/tournaments.md, "On the server"): a director creates
one at /tournaments, a pair registers on its page, the director starts it, and the page says
where each of the pair sits — the table /me names, with the seat token kept for that table's
page.  A hostile title and names are text; nothing breaks the strict CSP."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from browser_helpers import PHONE
from server_helpers import QUICK_LIMITS, server_fixture

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

server = server_fixture(extra=QUICK_LIMITS)

HOSTILE = "<img src=x onerror=alert(1)> night"


def test_a_director_and_a_pair_on_the_tournament_page(server: Any, browser: Any) -> None:
    context = browser.new_context(**PHONE)
    context.set_default_timeout(20000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.goto(server.url + "/tournaments")
    page.fill("#t-name", "Dora")
    page.fill("#t-title", HOSTILE)
    # an hour between rounds: Ann's and Bob's seats wait out their grace and bots play their
    # boards, but round 2 cannot open while the test compares the page with /me (however slow
    # the machine)
    page.fill("#t-pause", "3600")
    page.click("#create-tournament button[type=submit]")
    page.wait_for_function("() => document.querySelector('#t-title-shown') !== null")
    assert page.locator("#t-title-shown").text_content() == HOSTILE
    assert page.locator("main img").count() == 0  # text, not markup
    tid = page.evaluate("() => document.body.dataset.tournament")

    page.fill("#r-first", "Ann")
    page.fill("#r-second", "Bob")
    page.click("#register button[type=submit]")
    page.wait_for_function("() => document.querySelectorAll('#my-seats li').length === 2")
    page.click("#start")
    page.wait_for_function(
        "() => document.querySelectorAll('#my-seats .seat-link').length === 2")
    held = page.evaluate(f"() => JSON.parse(localStorage.getItem('pitch.tournament.{tid}'))")
    assert set(held["players"]) == {"Ann", "Bob"} and held["director"]
    info = httpx.get(f"{server.url}/api/tournaments/{tid}", timeout=30).json()
    assert info["pause"] == 3600 and info["round"] == 0
    me = httpx.get(f"{server.url}/api/tournaments/{tid}/me", timeout=30,
                   headers={"Authorization": f"Bearer {held['players']['Ann']}"}).json()
    ann = page.locator("#my-seats li", has_text="Ann").locator(".seat-link")
    assert me["round"] == 0 and ann.get_attribute("data-table") == me["table_id"]
    # following the link keeps Ann's seat token for that table's page, which seats her
    ann.click()
    page.wait_for_url(f"**/t/{me['table_id']}")
    kept = page.evaluate(f"() => JSON.parse(localStorage.getItem('pitch.seat.{me['table_id']}'))")
    assert kept["token"] == held["players"]["Ann"] and kept["seat"] == me["seat"]
    assert not errors, errors
    context.close()


def test_an_unknown_tournament_is_a_not_found_page(server: Any) -> None:
    reply = httpx.get(f"{server.url}/tournaments/nope", timeout=30)
    assert reply.status_code == 404 and "No such tournament" in reply.text


def test_a_progressive_night_on_the_page_takes_one_name_and_counts_points(
        server: Any, browser: Any) -> None:
    """The form makes a progressive night; its page asks one name an entry (the server says
    how many) and heads the standings with what the server says they count."""
    context, page, errors = _form(server, browser)
    page.fill("#t-pause", "3600")
    page.click("#create-tournament button[type=submit]")
    page.wait_for_function("() => document.querySelector('#register') !== null")
    assert page.locator("#r-second").count() == 0
    page.fill("#r-first", "Ann")
    page.click("#register button[type=submit]")
    page.wait_for_function("() => document.querySelectorAll('#my-seats li').length === 1")
    page.click("#start")
    page.wait_for_function("() => document.querySelector('#standings') !== null")
    heads = page.locator("#standings th").all_text_contents()
    assert heads == ["Rank", "Entrant", "%", "Points", "Rounds"], heads
    tid = page.evaluate("() => document.body.dataset.tournament")
    info = httpx.get(f"{server.url}/api/tournaments/{tid}", timeout=30).json()
    assert info["format"] == "progressive" and len(info["entrants"]) == 8  # bots fill two
    assert not errors, errors
    context.close()


def test_the_form_sets_a_start_time_entry_by_invite_and_a_ranked_event(
        server: Any, browser: Any) -> None:
    """The director's form sends the start time, entry by invite and ranked; the page shows
    the director the invite code, everyone the start and that it is ranked, and a guest's
    entry gets the server's refusal (a ranked event takes accounts only)."""
    context, page, errors = _form(server, browser)
    page.fill("#t-start", HOSTILE)
    page.select_option("#t-entry", "invite")
    page.check("#t-ranked")
    page.click("#create-tournament button[type=submit]")
    page.wait_for_function("() => document.querySelector('#register') !== null")
    tid = page.evaluate("() => document.body.dataset.tournament")
    info = httpx.get(f"{server.url}/api/tournaments/{tid}", timeout=30).json()
    assert (info["entry"], info["ranked"], info["start_time"]) == ("invite", True, HOSTILE)
    held = page.evaluate(f"() => JSON.parse(localStorage.getItem('pitch.tournament.{tid}'))")
    assert held["invite"] and held["invite"] in page.locator("#d-invite").text_content()
    status = page.locator("#t-status").text_content()
    assert HOSTILE in status and "Ranked" in status and page.locator("main img").count() == 0
    page.fill("#r-first", "Ann")
    page.fill("#r-invite", held["invite"])
    page.click("#register button[type=submit]")
    page.wait_for_function("() => /signed-in account/.test("
                           "document.querySelector('#register .error').textContent)")
    assert not errors, errors
    context.close()


def _form(server: Any, browser: Any) -> tuple[Any, Any, list[str]]:
    """A phone's page on the director's form, Dora's progressive night chosen; the page's
    errors gathered."""
    context = browser.new_context(**PHONE)
    context.set_default_timeout(20000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server.url + "/tournaments")
    page.fill("#t-name", "Dora")
    page.select_option("#t-format", "progressive")
    return context, page, errors
