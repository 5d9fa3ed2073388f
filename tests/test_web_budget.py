"""The table page's weight (docs/web.md): its first load, everything it fetches before the
player sees their cards, is at most 150 KB on the wire, and nothing is fetched from anywhere but
the server itself."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from browser_helpers import HAND_CARDS, Player, create_table, start
from server_helpers import server_fixture

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

server = server_fixture()

BUDGET = 150 * 1024


def _load(browser, url: str, address: str, seat=None, ready: str = "#app") -> tuple[int, list]:
    """Open ``address`` in a fresh context (empty cache); every request it made, with the
    bytes of each response body."""
    viewer = Player(browser, url, seat, table=seat["table"] if seat else None)
    requests = []
    viewer.page.on("request", lambda r: requests.append(r))
    try:
        viewer.page.goto(url + address)
        viewer.page.wait_for_selector(ready, timeout=15000)
        viewer.page.wait_for_load_state("networkidle", timeout=15000)
        rows = []
        for r in requests:
            response = r.response()
            size = r.sizes()["responseBodySize"] if response is not None else 0
            rows.append((r.url, max(size, 0)))
        origins = {urlsplit(r.url)._replace(path="", query="", fragment="").geturl()
                   for r in requests if not r.url.startswith(("data:", "blob:"))}
        origins |= {urlsplit(ws.url)._replace(path="", query="", fragment="").geturl()
                    .replace("ws://", "http://", 1) for ws in viewer.sockets}
        assert origins == {url}, f"requests left the server's origin: {sorted(origins)}"
        assert viewer.errors == []
        return sum(size for _, size in rows), rows
    finally:
        viewer.close()


def test_the_table_pages_first_load_is_small_and_all_from_the_server(browser, server):
    host = create_table(server.url, "Ann", bots={1: "easy", 2: "easy"},
                        settings={"bot_delay": 5, "hand_pause": 5})
    start(server.url, host)
    total, rows = _load(browser, server.url, f"/t/{host['table']}", host,
                        f"{HAND_CARDS} >> nth=5")
    listing = "\n".join(f"{size:>8} {u}" for u, size in sorted(rows, key=lambda r: -r[1]))
    print(f"table page first load: {total} bytes\n{listing}")
    assert any(u.endswith("/static/js/table.js") for u, _ in rows)
    assert total <= BUDGET, f"{total} bytes > {BUDGET}:\n{listing}"


def test_the_home_and_join_pages_are_small_and_all_from_the_server(browser, server):
    host = create_table(server.url, "Ann")
    for address, ready in (("/", "#play-bots"), (f"/join/{host['invite']}", "form#take-seat")):
        total, rows = _load(browser, server.url, address, ready=ready)
        listing = "\n".join(f"{size:>8} {u}" for u, size in rows)
        assert total <= BUDGET, f"{address}: {total} bytes > {BUDGET}:\n{listing}"
