"""The chat's quick reactions and the setting that hides the chat (issue 30): a reaction is an
ordinary line of chat — the other player sees it as text, and the server's chat limit refuses
a flood of them with its words on the page; "Show the chat" off hides it, remembered."""

from __future__ import annotations

import json

import pytest

from browser_helpers import PHONE, WIDE, Player, create_table, screenshot, take_seat
from server_helpers import server_fixture

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

server = server_fixture()


def test_a_quick_reaction_is_a_chat_line_and_is_limited_like_chat(browser, server):
    host = create_table(server.url, "Ann", bots={2: "random", 3: "random"})
    bob = take_seat(server.url, host["invite"], "Bob", 1)
    ann, bob_page = Player(browser, server.url, host, **PHONE), Player(browser, server.url, bob)
    try:
        ann.open_table()
        bob_page.open_table()
        presets = ann.page.locator("#chat .chat-presets button[data-preset]")
        assert presets.count() >= 4
        ann.page.locator('#chat button[data-preset="Good game"]').tap()
        bob_page.page.wait_for_selector("#chat .chat-log li")
        line = bob_page.page.locator("#chat .chat-log li").last
        assert line.locator(".chat-name").inner_text() == "Ann"
        assert line.locator(".chat-text").inner_text() == "Good game"
        sent = [json.loads(f) for f in ann.sent]
        assert {"type": "chat", "text": "Good game"} in sent
        screenshot(ann.page, "chat-presets-phone")
        # a flood of reactions, sent at once: the server's chat limit refuses some, in words
        ann.page.evaluate("""() => {
            const b = document.querySelector('#chat button[data-preset="Thanks"]');
            for (let i = 0; i < 30; i += 1) b.click();
        }""")
        ann.page.wait_for_selector("#refusal:not([hidden])")
        refused = [json.loads(f) for f in ann.frames if json.loads(f).get("type") == "error"]
        assert refused and all(m["reason"] != "bad_message" for m in refused)
        assert ann.page.locator("#refusal").inner_text().strip()
        assert ann.errors == [] and bob_page.errors == []
    finally:
        ann.close()
        bob_page.close()


def test_show_the_chat_off_hides_it_and_is_remembered(browser, server):
    host = create_table(server.url, "Ann", bots={1: "random", 2: "random", 3: "random"})
    ann = Player(browser, server.url, host, **WIDE)
    try:
        ann.open_table()
        assert ann.page.locator("#chat").is_visible()
        screenshot(ann.page, "chat-presets-desktop")
        ann.page.locator("#settings input[name=chat]").uncheck()
        assert ann.page.locator("#chat").is_hidden()
        ann.page.reload()
        ann.page.wait_for_selector("#connection[data-state=open]")
        assert ann.page.locator("#chat").is_hidden()
        assert not ann.page.locator("#settings input[name=chat]").is_checked()
        ann.page.locator("#settings input[name=chat]").check()
        assert ann.page.locator("#chat").is_visible()
    finally:
        ann.close()
