"""How long a finished trick stays on the browser's felt (issue 30, "tricks you can follow"):
a real ``pitch serve``, a table of Auction pitch with three bots at the home page's default
pace (``bot_delay`` 0.8 s, "Steady"), and Debian's Chromium playing the human seat by clicking,
once per pace setting.  For every trick it measures, in the page, how long "X takes the trick"
stood on the felt (``#trick-winner`` shown to hidden: the held trick; the player's own move
lets it go sooner, and this player moves at once, so the longest is the untouched hold), and —
from the frames
the page received — how long after the ``trick_won`` the next card came: before the pace
setting the finished trick was replaced by that card (or swept away sooner), so this gap is
what a player had to see who took it.

    .venv/bin/python benchmarks/bench_trick_pace.py              # 2 hands a pace
    .venv/bin/python benchmarks/bench_trick_pace.py --hands 1

Prints a table of medians (ms).  Timing is never asserted anywhere; docs/web.md quotes it.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from browser_helpers import PHONE, Player, create_table, launched_browser, play_until, start
from server_helpers import running_server

PACES = ["fast", "normal", "slow"]

#: In the page: when #trick-winner is shown and hidden (performance.now, ms).
_WATCH = """
window.__held = [];
new MutationObserver(() => {
  const node = document.getElementById('trick-winner');
  if (!node) return;
  const shown = !node.hidden;
  const last = window.__held[window.__held.length - 1];
  if (shown && (!last || last.hidden !== undefined)) window.__held.push({shown: performance.now()});
  if (!shown && last && last.hidden === undefined) last.hidden = performance.now();
}).observe(document, {subtree: true, attributes: true, attributeFilter: ['hidden']});
"""


def _gaps(stamps: list[tuple[float, dict[str, Any]]]) -> list[float]:
    """Milliseconds from each trick_won to the next card played after it."""
    out = []
    won_at = None
    for at, message in stamps:
        event = message.get("event") if message.get("type") == "event" else None
        if not event:
            continue
        if event["type"] == "trick_won":
            won_at = at
        elif (won_at is not None and event["type"] == "action_taken"
              and str(event.get("action", "")).startswith(("play", "pitch"))):
            out.append((at - won_at) * 1000)
            won_at = None
    return out


def run(hands: int) -> list[tuple[str, int, float, float, float]]:
    rows = []
    with tempfile.TemporaryDirectory() as folder, \
            running_server(Path(folder)) as server, launched_browser() as browser:
        for pace in PACES:
            host = create_table(server.url, "Ann", bots={"1": "medium", "2": "medium",
                                                         "3": "medium"},
                                settings={"bot_delay": 0.8, "hand_pause": 1.0})
            ann = Player(browser, server.url, host, **PHONE)
            prefs = json.dumps(json.dumps({"pace": pace}))
            ann.context.add_init_script(
                script=f"try {{ localStorage.setItem('pitch.prefs', {prefs}); }} catch (e) {{}}")
            ann.context.add_init_script(script=_WATCH)
            stamps: list[tuple[float, dict[str, Any]]] = []
            ann.page.on("websocket", lambda ws, s=stamps: ws.on(
                "framereceived", lambda p, s=s: s.append((time.monotonic(), json.loads(p)))))
            try:
                ann.open_table()
                start(server.url, host)
                play_until([ann], lambda a=ann: a.scored() >= hands, random.Random(1),
                           timeout=60.0 * hands)
                ann.page.wait_for_timeout(3500)   # the last trick's hold ends
                held = [h["hidden"] - h["shown"] for h in ann.page.evaluate("window.__held")
                        if "hidden" in h]
            finally:
                ann.close()
            gaps = _gaps(stamps)
            rows.append((pace, len(held), statistics.median(held) if held else float("nan"),
                         max(held, default=float("nan")),
                         statistics.median(gaps) if gaps else float("nan")))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=2, help="hands played at each pace")
    args = parser.parse_args(argv)
    rows = run(args.hands)
    print("pace     tricks  held: median ms  held: longest ms  next card after trick_won: "
          "median ms")
    for pace, n, held, longest, gap in rows:
        print(f"{pace:<8} {n:>6}  {held:>15.0f}  {longest:>16.0f}  {gap:>35.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
