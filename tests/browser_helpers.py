"""The browser table's tests (docs/web.md) in a real Chromium through a real ``pitch serve``:
Playwright's sync API, Debian's Chromium, one browser for the session (tests/conftest.py) and a
new context per page.

A :class:`Player` is one page of a browser context: a seat's page (its token put in
localStorage as ``tokens.js`` keeps it) or a spectator's.  It records every WebSocket frame the
page receives, in order, and — for the hidden-information check — snapshots of its DOM taken
between them; :func:`leaks_seen` runs tests/leak_check.py's checker over both.

Tables are made over HTTP (``httpx``: the sync API cannot share a thread with asyncio)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx

from leak_check import CARD, Game, full_record, leaks, seeds
from pitchcards.client import Client
from server_helpers import FAST, hooked_table, play_held, play_randomly

REPO = Path(__file__).resolve().parents[1]
WEB = REPO / "src" / "pitchcards" / "server" / "web"
ARTIFACTS = REPO / "test-artifacts"
AXE = REPO / "node_modules" / "axe-core" / "axe.min.js"
CHROMIUM = Path("/usr/bin/chromium")
LAUNCH_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--no-first-run",
               "--disable-dev-shm-usage"]

#: Table settings for browser tests: quick bots and a short pause between hands, slow enough
#: that a page shows each move.
WEB_FAST = {"bot_delay": 0.05, "hand_pause": 0.3}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
#: The desktop of issue 30's screenshots (a 1366 px laptop: the side column is 342 px inside).
WIDE = {"viewport": {"width": 1366, "height": 900}}

#: How long a Playwright wait may take before it is a hang (milliseconds, docs/testing.md)
HANG_MS = 30_000

#: What a legal move is on the table page (docs/web.md, the DOM contract).
LEGAL_BIDS = "#actions button[data-action]:not([disabled])"
LEGAL_CARDS = "#hand button.card[data-legal=true]"
ILLEGAL_CARDS = "#hand button.card[data-legal=false]"
HAND_CARDS = "#hand button.card"
MY_TURN = "#seats .seat[data-me][data-turn]:not([data-turn=false])"


def in_ci() -> bool:
    return bool(os.environ.get("CI"))


def need_chromium() -> None:
    """Skip (locally) or fail (under CI) when Chromium or Playwright is missing."""
    import pytest

    problem = None
    if not CHROMIUM.exists():
        problem = f"no Chromium at {CHROMIUM}"
    else:
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError:
            problem = "Playwright for Python is not installed (pip install playwright)"
    if problem:
        if in_ci():
            pytest.fail(problem + " — the browser tests must run in CI")
        pytest.skip(problem)


@contextlib.contextmanager
def launched_browser() -> Iterator[Any]:
    """Debian's Chromium under Playwright (never ``playwright install``: it downloads)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        try:
            yield browser
        finally:
            browser.close()


# ---------------------------------------------------------------------------- HTTP


def api(url: str, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    reply = httpx.request(method, url + path, json=body, headers=headers, timeout=30)
    assert reply.status_code < 300, f"{method} {path}: {reply.status_code} {reply.text}"
    return reply.json() if "json" in reply.headers.get("content-type", "") else reply.text


def create_table(url: str, name: str = "Ann", *, seed: int | None = None,
                 **fields: Any) -> dict[str, Any]:
    """``POST /api/tables`` with the browser tests' quick settings unless given; ``seed``: on
    a hooked server (``server_fixture(hooked=True)``), the table dealt from it and its bots
    seeded from it, acting at the table's pace (the same game on every run)."""
    body = {"name": name, "settings": WEB_FAST, **fields}
    if seed is not None:
        return dict(api(url, "POST", "/_test/tables",
                        {"table": body, "seed": seed, "hold_bots": False}))
    return dict(api(url, "POST", "/api/tables", body))


def take_seat(url: str, invite: str, name: str, seat: int | None = None) -> dict[str, Any]:
    return dict(api(url, "POST", f"/api/invites/{invite}/seats", {"name": name, "seat": seat}))


def start(url: str, host: dict[str, Any]) -> None:
    api(url, "POST", f"/api/tables/{host['table']}/start", token=host["token"])


def record(url: str, seat: dict[str, Any]) -> str:
    return str(api(url, "GET", f"/api/tables/{seat['table']}/record", token=seat["token"]))


def sqlite_path(db_url: str) -> str:
    assert db_url.startswith("sqlite:///"), db_url
    return db_url[len("sqlite:///"):]


def _in_thread(coroutine: Any) -> Any:
    """Run a coroutine on a thread of its own (Playwright's sync API holds this thread's
    event loop)."""
    out: dict[str, Any] = {}

    def run() -> None:
        try:
            out["value"] = asyncio.run(coroutine)
        except BaseException as exc:  # pragma: no cover - re-raised below
            out["error"] = exc

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(120)
    if "error" in out:
        raise out["error"]
    return out["value"]


async def _a_finished_hand(url: str) -> dict[str, Any]:
    """A table where Ann (from Python) and three random bots finished a hand."""
    async with Client(url) as api:
        ann = await api.create_table("Ann", variant="auction", fill="random", settings=FAST)
        await api.start(ann)
        async with await api.connect(ann) as conn:
            await play_randomly(conn, random.Random(4), stop=lambda: any(
                e.type == "hand_scored" for e in conn.events))
        return {"table": ann.table, "token": ann.token, "seat": ann.seat, "name": ann.name}


def a_finished_hand(url: str) -> dict[str, Any]:
    """Ann's seat at a table where she (from Python) and three random bots finished a hand."""
    return dict(_in_thread(_a_finished_hand(url)))


async def _held_hands(url: str, name: str, seed: int, hands: int, rng: random.Random,
                      table: dict[str, Any]) -> dict[str, Any]:
    async with Client(url) as api:
        seat = await hooked_table(api, name, seed=seed, **table)
        await api.start(seat)
        async with await api.connect(seat) as conn:
            await play_held(api, conn, rng, until=lambda: sum(
                e.type == "hand_scored" for e in conn.events) >= hands)
        return {"table": seat.table, "token": seat.token, "seat": seat.seat, "name": seat.name}


def held_hands(url: str, name: str, *, seed: int, hands: int, rng: random.Random,
               **table: Any) -> dict[str, Any]:
    """A table on a hooked server dealt from ``seed``, its bots held, where ``name``'s seat
    (random moves from Python, no page) and the bots have finished ``hands`` hands: the
    match goes on, the bots still held, so a page opened now sees that moment and no later
    one.  Much cheaper than playing the hands through a page when they are not under test.
    ``table`` as :meth:`Client.create_table` takes it (``bots``, ``variant``, …)."""
    return dict(_in_thread(_held_hands(url, name, seed, hands, rng, table)))


# ---------------------------------------------------------------------------- cards in a page

_RANK_WORDS = {"two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7",
               "eight": "8", "nine": "9", "ten": "T", "10": "T", "jack": "J", "queen": "Q",
               "king": "K", "ace": "A", **{str(n): str(n) for n in range(2, 10)}}
_SUIT_WORDS = {"club": "C", "diamond": "D", "heart": "H", "spade": "S",
               "♣": "C", "♦": "D", "♥": "H", "♠": "S"}
#: A card named in words ("Queen of hearts", "10 of clubs") or with its symbol ("Q♥", "10♠").
_WORDS = re.compile(r"(?<![A-Za-z0-9])(two|three|four|five|six|seven|eight|nine|ten|jack|"
                    r"queen|king|ace|10|[2-9]) of (club|diamond|heart|spade)s?(?![a-z])",
                    re.IGNORECASE)
_SYMBOLS = re.compile(r"(?<![A-Za-z0-9])(10|[2-9JQKA])([♣♦♥♠])")  # "4 ♦" is a bid, no card
#: SVG geometry (path data, points) is drawing, not words: "M2 3H4" is no card.
_GEOMETRY = re.compile(r"""\s(?:d|points|viewBox|transform)=("[^"]*"|'[^']*')""")


def cards_named(html: str) -> set[str]:
    """The cards an HTML text names in words or symbols, in the engine's notation."""
    found = {_RANK_WORDS[r.lower()] + _SUIT_WORDS[s.lower()] for r, s in _WORDS.findall(html)}
    found |= {_RANK_WORDS.get(r, r) + _SUIT_WORDS[s] for r, s in _SYMBOLS.findall(html)}
    return found


# ---------------------------------------------------------------------------- pages


_SUMMARY_WATCH = """
window.__summaries = [];
new MutationObserver((changes) => {
  for (const change of changes) {
    const node = change.target;
    if (node.id === "summary" && node.hasAttribute("open") && change.oldValue === null) {
      window.__summaries.push(node.innerText);
    }
  }
}).observe(document, {subtree: true, attributes: true, attributeFilter: ["open"],
                      attributeOldValue: true});
"""


#: The call chooser's rows of cards (bidding.js renderCall): only buttons inside each row.
_CALL_CHOOSER = re.compile(r'<div class="call-suit"[^>]*>.*?</div>', re.S)


class Player:
    """One page in its own browser context, with every frame it received and its DOM
    snapshots in one ordered log (for :func:`leaks_seen`)."""

    def __init__(self, browser: Any, url: str, seat: dict[str, Any] | None = None,
                 *, table: str | None = None, bypass_csp: bool = False, motion: bool = False,
                 **context_args: Any) -> None:
        """``motion``: the cards move as by default; without it the page is a player's whose
        system asks for reduced motion (nothing moves, prefs.js motionMs): Playwright clicks
        only an element that stands still, and a card that rises when picked made every click
        of a card wait for its 250 ms motion (test_web_money.py: 24.7 s → 14.6 s).  The modules
        that play whole matches with motion are test_web_play.py and test_web_pace.py."""
        if not motion:
            context_args.setdefault("reduced_motion", "reduce")
        self.url = url
        self.seat = seat
        self.table = seat["table"] if seat else table
        self.name = seat["name"] if seat else None
        self.context = browser.new_context(bypass_csp=bypass_csp, **context_args)
        # Playwright's waits (a click's, a selector's, an expect's) only catch a hang
        # (docs/testing.md): 30 s, where 10 s (and expect's own 5 s) could run out for a
        # page of a starved Chromium on CI's machine, 2.5x slower with 3 workers on 2 cores
        # (issue 27).  A passing test waits no longer.
        self.context.set_default_timeout(HANG_MS)
        from playwright.sync_api import expect

        expect.set_options(timeout=HANG_MS)
        if seat is not None:
            self.hold_token(seat)
        # every time #summary opens, its text (it may close again before a test looks)
        self.context.add_init_script(script=_SUMMARY_WATCH)
        self.page = self.context.new_page()
        self.frames: list[str] = []        #: every frame received, in order
        self.sent: list[str] = []          #: every frame sent
        self.log: list[str] = []           #: frames and DOM snapshots, in order
        self.errors: list[str] = []        #: uncaught script errors
        self.sockets: list[Any] = []
        self._snapped, self._settle = 0, False
        self.page.on("websocket", self._socket)
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))

    def hold_token(self, seat: dict[str, Any]) -> None:
        """Put the seat's token where tokens.js keeps it, before any page script runs."""
        key = f"pitch.seat.{seat['table']}"
        held = {"token": seat["token"], "seat": seat["seat"], "name": seat["name"]}
        if seat.get("invite"):     # the host's, as home.js keeps it
            held["invite"] = f"{self.url}/join/{seat['invite']}"
        value = json.dumps(held)
        self.context.add_init_script(
            script=f"try {{ localStorage.setItem({json.dumps(key)}, {json.dumps(value)}); }} "
                   f"catch (e) {{}}")

    def _socket(self, ws: Any) -> None:
        self.sockets.append(ws)
        ws.on("framereceived", self._received)
        ws.on("framesent", lambda payload: self.sent.append(str(payload)))

    def _received(self, payload: str | bytes) -> None:
        text = payload if isinstance(payload, str) else payload.decode("utf-8", "replace")
        self.frames.append(text)
        self.log.append(text)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.context.close()

    # -- navigation
    def open_table(self, wait_open: bool = True) -> Player:
        self.page.goto(f"{self.url}/t/{self.table}")
        if wait_open:
            self.page.wait_for_selector("#connection[data-state=open]", timeout=15000)
        return self

    # -- what the page was told
    def messages(self) -> list[dict[str, Any]]:
        return [json.loads(f) for f in self.frames]

    def events(self) -> list[dict[str, Any]]:
        return [m["event"] for m in self.messages() if m.get("type") == "event"]

    def seq(self) -> int:
        """The last seq this page was told of (a welcome's or an event's)."""
        seqs = [m["seq"] for m in self.messages() if m.get("type") in ("welcome", "snapshot")]
        seqs += [e["seq"] for e in self.events()]
        return max(seqs, default=0)

    def scored(self) -> int:
        return sum(e["type"] == "hand_scored" for e in self.events())

    def over(self) -> bool:
        return any(e["type"] in ("match_won", "settled") for e in self.events())

    # -- what the page shows
    def hand(self) -> list[str]:
        return list(self.page.eval_on_selector_all(
            HAND_CARDS, "els => els.map(e => e.getAttribute('data-card'))"))

    def snapshot(self) -> None:
        """Log the DOM as it is now (its HTML and the cards it names in words or symbols) among
        the frames, for the leak check."""
        # the pitcher's call chooser (CP3) names the cards it may call, its legal actions: no
        # card's place, so left out as the frames' "call X" offers are (leak_check.CALL_OFFER)
        html = _CALL_CHOOSER.sub(" ", self.page.content())
        texts = self.page.eval_on_selector_all(
            "[data-card]:not(.call-card)", "els => els.map(e => e.textContent + ' ' + "
                                           "(e.getAttribute('aria-label') || ''))")
        named = sorted(cards_named(_GEOMETRY.sub(" ", html) + " " + " ".join(texts)))
        self.log.append(json.dumps({"type": "dom", "named": named,
                                    "html": _GEOMETRY.sub(" ", html)}))

    def snapshot_if_changed(self) -> None:
        """A DOM snapshot if a frame arrived since the last one (and once more after, as the
        page renders what it got)."""
        count = len(self.frames)
        if count != self._snapped or self._settle:
            self._settle = count != self._snapped
            self._snapped = count
            self.snapshot()

    def summaries(self) -> list[str]:
        """The text of #summary each time it opened, in order."""
        return list(self.page.evaluate("() => window.__summaries || []"))

    def my_turn(self) -> bool:
        """The page says it is this seat's turn (its seat has data-turn) and offers a move."""
        return bool(self.page.locator(MY_TURN).count() and (
            self.page.locator(LEGAL_BIDS).count() or self.page.locator(LEGAL_CARDS).count()))

    def pending(self) -> bool:
        return self.page.locator("#pending").is_visible()

    def wait(self, predicate: Callable[[], bool], timeout: float = 20.0,
             what: str = "a condition") -> None:
        """Wait (letting Playwright deliver events) until ``predicate()``."""
        deadline = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.name or 'spectator'}: timed out waiting for {what}")
            self.page.wait_for_timeout(30)

    # -- moves
    def click_card(self, card: str, how: str = "click") -> None:
        """Pick a card and play it: two clicks (or taps), or a click and Enter."""
        button = self.page.locator(f'#hand button.card[data-card="{card}"]')
        if how == "tap":
            button.tap()
            self.page.locator(f'#hand button.card[data-card="{card}"]').tap()
        elif how == "enter":
            button.click()
            self.page.keyboard.press("Enter")
        else:
            button.click()
            self.page.locator(f'#hand button.card[data-card="{card}"]').click()

    def act(self, rng: random.Random, *, bid: Callable[[list[str]], str] | None = None,
            how: str = "click", timeout: float = 20.0) -> str | None:
        """If it is this page's turn, make a legal move by clicking and wait until the server
        took it (an event moved the position) or refused it; returns what was done."""
        if self.pending() or not self.page.locator(MY_TURN).count():
            return None
        bids = self.page.eval_on_selector_all(
            LEGAL_BIDS, "els => els.map(e => e.getAttribute('data-action'))")
        cards = self.page.eval_on_selector_all(
            LEGAL_CARDS, "els => els.map(e => e.getAttribute('data-card'))")
        if not bids and not cards:
            return None
        before = self.seq()
        errors = len([m for m in self.messages() if m.get("type") == "error"])
        self.snapshot()
        if bids:
            action = bid(bids) if bid else rng.choice(bids)
            button = self.page.locator(f'#actions button[data-action="{action}"]')
            button.tap() if how == "tap" else button.click()
            done = action
        else:
            card = rng.choice(cards)
            self.click_card(card, how)
            done = f"card {card}"
        self.wait(lambda: self.seq() > before or
                  len([m for m in self.messages() if m.get("type") == "error"]) > errors,
                  timeout, f"the server to take {done}")
        refused = [m for m in self.messages() if m.get("type") == "error"][errors:]
        assert not refused, f"{self.name}: a legal move ({done}) was refused: {refused}"
        self.snapshot()
        return done


def legal_now(player: Player) -> list[str]:
    """The seat's legal actions as the server last told it: the last event's ``legal`` (or a
    deal's view), a snapshot's view, or a refusal's ``legal``."""
    for message in reversed(player.messages()):
        event = message.get("event") if message.get("type") == "event" else None
        if event is not None and ("legal" in event or "view" in event):
            return list(event.get("legal") or (event.get("view") or {}).get("legal_actions")
                        or [])
        if message.get("type") == "snapshot":
            return list(message["view"].get("legal_actions") or [])
        if message.get("type") == "error" and message.get("legal"):
            return list(message["legal"])
    return []


def play_until(players: Sequence[Player], done: Callable[[], bool], rng: random.Random, *,
               timeout: float = 90.0, **act: Any) -> None:
    """Let every page move when it is its turn until ``done()``."""
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "the game did not get there in time: " + ", ".join(
            f"{p.name} seq {p.seq()} scored {p.scored()}" for p in players)
        moved = False
        for p in players:
            if done():
                break
            moved = bool(p.act(rng, **act)) or moved
        for p in players:
            p.snapshot_if_changed()
        if not moved:
            players[0].page.wait_for_timeout(40)


def leaks_seen(url: str, db_url: str, players: Sequence[Player],
               host: dict[str, Any]) -> list[str]:
    """tests/leak_check.py's check over every page's frames and DOM snapshots: each names no
    card of another seat before it is played, nor a table's seed.  Hands the record does not
    hold yet (unfinished) are not checked.  A DOM snapshot's report shows where the card is."""
    logs = {f"page:{p.name}": p.log for p in players}
    game = Game(host["table"], "?", logs, {f"page:{p.name}": p.name for p in players},
                record(url, host), full=full_record(db_url, host["table"]))
    found = []
    for problem in leaks(game, seeds(sqlite_path(db_url))):
        where = re.match(r"(\S+) frame (\d+) .*names (\[[^\]]*\])", problem)
        if where and logs[where[1]][int(where[2])].startswith('{"type": "dom"'):
            html = json.loads(logs[where[1]][int(where[2])])["html"]
            problem = problem[:problem.find(": {")] if ": {" in problem else problem
            for card in json.loads(where[3].replace("'", '"')):
                spots = [m.start() for m in CARD.finditer(html) if m.group(1) == card]
                spots += [m.start() for m in _WORDS.finditer(html)
                          if card in cards_named(m.group(0))]
                spots += [m.start() for m in _SYMBOLS.finditer(html)
                          if card in cards_named(m.group(0))]
                problem += f"\n  {card}:" + "".join(
                    f"\n    ...{html[max(0, i - 150):i + 60]}..." for i in spots[:3])
        found.append(problem)
    return found


# ---------------------------------------------------------------------------- checks


def axe_violations(page: Any) -> list[str]:
    """axe-core's serious and critical violations on the page as it is (the page's context must
    bypass the CSP, which forbids injected scripts)."""
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("axe.run()")
    bad = []
    for v in result["violations"]:
        if v.get("impact") in ("serious", "critical"):
            nodes = "; ".join(" ".join(n["target"]) + " — " + n.get("failureSummary", "")
                              .replace("\n", " ") for n in v["nodes"][:5])
            bad.append(f"[{v['impact']}] {v['id']}: {v['help']} ({len(v['nodes'])} nodes: "
                       f"{nodes})")
    return bad


def open_home(page: Any, url: str) -> None:
    """The home page with "More options" (the new-table form, folded at first) open."""
    page.goto(url + "/")
    page.locator("#more-options > summary").click()
    page.wait_for_selector("form#create [name=variant]")


def screenshot(page: Any, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def horizontal_overflow(page: Any) -> int:
    """How many pixels the page is wider than its viewport (0: no horizontal scroll)."""
    return int(page.evaluate(
        "Math.max(0, document.documentElement.scrollWidth - window.innerWidth)"))


def outside_viewport(page: Any, selector: str) -> list[str]:
    """The elements matching ``selector`` not wholly inside the viewport (unscrolled), give
    or take half a CSS pixel on every edge (a box scrolled into view on a fractional layout
    may sit at y = -0.0625)."""
    size = page.viewport_size
    out = []
    for i, element in enumerate(page.locator(selector).all()):
        box = element.bounding_box()
        if box is None:
            out.append(f"{selector} #{i}: not rendered")
        elif (box["x"] < -0.5 or box["y"] < -0.5
              or box["x"] + box["width"] > size["width"] + 0.5
              or box["y"] + box["height"] > size["height"] + 0.5):
            out.append(f"{selector} #{i} ({element.get_attribute('data-card')}): {box}")
    return out


def words(text: str) -> bool:
    """A sentence for people, not a reason code: letters and spaces, no snake_case."""
    text = text.strip()
    return bool(text) and " " in text and not re.search(r"\b[a-z]+_[a-z_]+\b", text)
