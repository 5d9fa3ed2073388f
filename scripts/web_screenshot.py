"""Screenshots of the browser table for the README: a real ``pitch serve`` on a scratch SQLite
file, a table of Auction Pitch with three bots, and Debian's Chromium (Playwright) playing the
human seat until a trick is on the felt and it is the human's turn to play.

    .venv/bin/python scripts/web_screenshot.py        # writes docs/img/browser-table*.png
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


def main() -> None:
    out = ROOT / "docs" / "img"
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, _server(Path(tmp)) as url, \
            sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        for name, size, mobile in (("browser-table.png", (1280, 800), False),
                                   ("browser-table-phone.png", (390, 844), True)):
            me = httpx.post(url + "/api/tables", json={
                "name": "Ann", "variant": "auction",
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
            page = context.new_page()
            page.goto(f"{url}/t/{me['table']}")
            _play_until_a_trick_is_on_the_felt(page)
            time.sleep(0.5)
            page.screenshot(path=str(out / name))
            print("wrote", out / name)
            context.close()
        browser.close()


if __name__ == "__main__":
    main()
