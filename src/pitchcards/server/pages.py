"""The browser table's HTML pages: small shells that load the page's ES module and CSS from
``/static/`` (``server/web/``, docs/web.md).  Everything a page needs comes from this server:
the headers that every response carries (:data:`SECURITY_HEADERS`, set by
:class:`SecurityHeaders`) include ``Content-Security-Policy: default-src 'self'``.

Each shell also says, without a script, how to take the seat from a terminal, so a browser with
JavaScript off (or a curl) still learns what the link is for.
"""

from __future__ import annotations

from html import escape
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi.responses import HTMLResponse

from .protocol import TableInfo

__all__ = [
    "SECURITY_HEADERS",
    "WEB_DIR",
    "SecurityHeaders",
    "history_page",
    "home_page",
    "invite_page",
    "missing_page",
    "page_shell",
    "table_page",
    "tournament_page",
]

#: Where the pages' scripts, styles and icon live (served at /static/).
WEB_DIR = Path(str(resources.files("pitchcards.server") / "web"))

#: On every HTTP response: nothing runs or loads from elsewhere, no sniffing, no referrer (an
#: invite link in a Referer header would hand out the table), no framing by other sites.
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; base-uri 'none'; form-action 'self'; "
                               "frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


class SecurityHeaders:
    """ASGI middleware: :data:`SECURITY_HEADERS` on every HTTP response (pages, static files,
    the API) and ``Cache-Control: no-cache`` on static files, so a new version shows at once
    (they are still revalidated by ETag, not downloaded again)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self._headers = [(k.lower().encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        static = scope.get("path", "").startswith("/static/")

        async def send_with_headers(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = [h for h in message.get("headers", []) if h[0] not in
                           {k for k, _ in self._headers}]
                headers += self._headers
                if static:
                    headers.append((b"cache-control", b"no-cache"))
                message = dict(message, headers=headers)
            await send(message)

        await self.app(scope, receive, send_with_headers)


def page_shell(title: str, page: str, fallback: str, *, styles: tuple[str, ...] = (),
           data: dict[str, str] | None = None, status: int = 200,
           script: bool = True) -> HTMLResponse:
    """A page: its title, the ``data-*`` the script reads, its CSS, its one module, and what
    to show until (or without) the script."""
    attributes = "".join(f' data-{k}="{escape(v)}"' for k, v in (data or {}).items())
    module = f'<script type="module" src="/static/js/{page}.js"></script>' if script else ""
    links = "".join(f'<link rel="stylesheet" href="/static/css/{escape(s)}.css">'
                    for s in ("base", *styles))
    html = ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
            "<meta name=\"color-scheme\" content=\"light dark\">"
            f"<title>{escape(title)}</title>"
            "<link rel=\"icon\" href=\"/static/icon.svg\" type=\"image/svg+xml\">"
            f"{links}{module}</head>"
            f"<body data-page=\"{page}\"{attributes}><main id=\"app\">"
            f"<h1>{escape(title)}</h1>{fallback}</main></body></html>")
    return HTMLResponse(html, status_code=status)


def _seats(info: TableInfo) -> str:
    rows = []
    for s in info.seats:
        if s.kind == "bot":
            who = f"{s.name} (bot, {s.level})" if s.name else f"bot ({s.level})"
        elif s.kind == "open":
            who = "open"
        else:
            who = f"{s.name}" + ("" if s.connected else " (offline)")
        rows.append(f"<li>seat {s.seat}: {escape(who)}</li>")
    return "<ul>" + "".join(rows) + "</ul>"


_NO_SCRIPT = "<p class=\"noscript\">This page needs JavaScript. "


def home_page(url: str) -> HTMLResponse:
    return page_shell("Pitch", "home", (
        f"{_NO_SCRIPT}Without it, play from a terminal: "
        f"<code>pitch play --new-table {escape(url)}</code>; a friend joins with the invite "
        "link it prints: <code>pitch play --join &lt;invite link&gt;</code>.</p>"),
        styles=("home",))


def invite_page(url: str, code: str, info: TableInfo) -> HTMLResponse:
    return page_shell(f"You are invited to a table of {info.variant}", "join", (
        f"<p>Status: {escape(info.status)}.</p>{_seats(info)}"
        f"{_NO_SCRIPT}Without it, take a seat from a terminal: "
        f"<code>pitch play --join {escape(url)}</code></p>"),
        styles=("home",), data={"invite": code, "table": info.table})


def table_page(info: TableInfo) -> HTMLResponse:
    return page_shell(f"A table of {info.variant}", "table", (
        f"<p>Status: {escape(info.status)}.</p>{_seats(info)}"
        f"{_NO_SCRIPT}</p>"), styles=("table",), data={"table": info.table})


def history_page(info: TableInfo) -> HTMLResponse:
    return page_shell(f"Hands of a table of {info.variant}", "history",
                  f"{_NO_SCRIPT}</p>", styles=("history",), data={"table": info.table})


def missing_page(what: str) -> HTMLResponse:
    return page_shell("Not found", "missing",
                  f"<p>{escape(what)}</p><p><a href=\"/\">Pitch</a></p>", status=404,
                  script=False)


def tournament_page(tournament: str | None, title: str) -> HTMLResponse:
    """A tournament's page (``tournament`` None: the form that creates one)."""
    api = f"/api/tournaments/{tournament}" if tournament else "/api/tournaments"
    return page_shell(title, "tournament", (
        f"{_NO_SCRIPT}Without it, the tournament is at <code>{escape(api)}</code> "
        "(docs/protocol.md, \"Tournaments\").</p>"), styles=("home",),
        data={"tournament": tournament} if tournament else None)
