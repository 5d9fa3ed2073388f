"""Screenshots of the browser table for the README: a real ``pitch serve`` on a scratch SQLite
file, a table of Auction Pitch with three bots, and Debian's Chromium (Playwright) playing the
human seat until a trick is on the felt and it is the human's turn to play.

    .venv/bin/python scripts/web_screenshot.py        # writes docs/img/browser-table*.png

The last shot is a ten-point table in the human's discard step: two cards chosen with the keys
(← → and Enter) and the focus ring on the next.
"""

from __future__ import annotations

import contextlib
import json
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def _server(folder: Path):
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen([sys.executable, "-m", "pitchcards.cli", "serve", "--port", str(port),
                             "--db", f"sqlite:///{folder / 'server.db'}", "--log-level",
                             "warning"], stdin=subprocess.DEVNULL)
    try:
        for _ in range(300):
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                    break
            time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        proc.wait(10)


def _my_turn_to_play(page: Page) -> bool:
    return page.locator("#hand button.card[data-legal=true]").count() > 0 and \
        page.locator(".seat[data-me][data-turn]").count() > 0


def _play_until_a_trick_is_on_the_felt(page: Page) -> None:
    for _ in range(200):
        bids = page.locator("#actions button[data-action]:not([disabled])")
        if page.locator(".seat[data-me][data-turn]").count():
            if bids.count():
                bids.nth(bids.count() // 2).click()  # a middling bid or pass
            elif _my_turn_to_play(page):
                if page.locator("#trick .played").count() >= 2 and \
                        page.locator("#hand button.card").count() >= 4:
                    return
                card = page.locator("#hand button.card[data-legal=true]").first
                card.click()
                card.click()
        time.sleep(0.3)
    raise RuntimeError("no trick with the human to play came up")


def _discard_step_by_keys(page: Page) -> None:
    """Bid and name trump by clicks until it is the human's discard (T4), then choose two
    cards by keyboard and move the focus to a third."""
    for _ in range(200):
        if page.locator('#actions[data-step="discard"]').count():
            break
        if page.locator(".seat[data-me][data-turn]").count():
            bids = page.locator("#actions button[data-action]:not([disabled])")
            if bids.count():
                bids.nth(bids.count() // 2).click()
        time.sleep(0.3)
    else:
        raise RuntimeError("the human's discard step did not come up")
    page.locator("body").focus()
    for key in ("ArrowRight", "Enter", "ArrowRight", "ArrowRight", "Enter", "ArrowRight"):
        page.keyboard.press(key)


def _new_context(browser, url: str, variant: str, size: tuple[int, int], mobile: bool):
    """A table of ``variant`` with three bots, started, and a context holding Ann's seat."""
    me = httpx.post(url + "/api/tables", json={
        "name": "Ann", "variant": variant,
        "bots": {"1": "hard", "2": "hard", "3": "hard"},
        "settings": {"bot_delay": 0.4, "hand_pause": 2}}).json()
    httpx.post(f"{url}/api/tables/{me['table']}/start",
               headers={"Authorization": f"Bearer {me['token']}"})
    context = browser.new_context(viewport={"width": size[0], "height": size[1]},
                                  is_mobile=mobile, has_touch=mobile,
                                  color_scheme="light", reduced_motion="reduce")
    seat = json.dumps({"token": me["token"], "seat": me["seat"], "name": "Ann"})
    context.add_init_script(
        f"localStorage.setItem({json.dumps('pitch.seat.' + me['table'])}, "
        f"{json.dumps(seat)})")
    return context, me["table"]


def main() -> None:
    out = ROOT / "docs" / "img"
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, _server(Path(tmp)) as url, \
            sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        for name, size, mobile in (("browser-table.png", (1280, 800), False),
                                   ("browser-table-phone.png", (390, 844), True),
                                   ("browser-table-discard.png", (1280, 800), False)):
            discard = name == "browser-table-discard.png"
            context, table = _new_context(browser, url, "ten-point" if discard else "auction",
                                          size, mobile)
            page = context.new_page()
            page.goto(f"{url}/t/{table}")
            if discard:
                _discard_step_by_keys(page)
            else:
                _play_until_a_trick_is_on_the_felt(page)
            time.sleep(0.5)
            page.screenshot(path=str(out / name))
            print("wrote", out / name)
            context.close()
        browser.close()


if __name__ == "__main__":
    main()
