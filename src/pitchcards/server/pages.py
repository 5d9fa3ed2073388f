"""The few HTML pages ``pitch serve`` has until the browser table (its own issue) exists: what
someone who opens the server's address, an invite link or a table link in a browser sees —
how to take the seat or watch from a terminal.  Plain HTML, no script, nothing from elsewhere
(``Content-Security-Policy: default-src 'self'``)."""

from __future__ import annotations

from html import escape

from fastapi.responses import HTMLResponse

from .protocol import TableInfo

__all__ = ["home_page", "invite_page", "missing_page", "table_page"]

_HEADERS = {"Content-Security-Policy": "default-src 'self'", "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "no-referrer"}
_STYLE = ("body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;"
          "line-height:1.5}code{background:#eee;padding:.1rem .3rem;border-radius:.2rem}")


def _page(title: str, body: str, status: int = 200) -> HTMLResponse:
    html = (f"<!doctype html><html lang=en><meta charset=utf-8>"
            f"<meta name=viewport content='width=device-width,initial-scale=1'>"
            f"<title>{escape(title)}</title><style>{_STYLE}</style>"
            f"<h1>{escape(title)}</h1>{body}</html>")
    return HTMLResponse(html, status_code=status, headers=_HEADERS)


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


def home_page(url: str) -> HTMLResponse:
    return _page("Pitch", (
        "<p>This is a <b>pitchcards</b> game server. The browser table is on its way; "
        "until then, play from a terminal:</p>"
        f"<p>open a table: <code>pitch play --host {escape(url)}</code><br>"
        "a friend joins with the invite link it prints: "
        "<code>pitch play --join &lt;invite link&gt;</code></p>"
        "<p>Install: <code>pip install pitchcards</code>. The API is described at "
        "<code>/openapi.json</code> and <code>/api/protocol</code>.</p>"))


def invite_page(url: str, info: TableInfo) -> HTMLResponse:
    return _page(f"You are invited to a table of {info.variant}", (
        f"<p>Status: {escape(info.status)}.</p>{_seats(info)}"
        "<p>Take a seat from a terminal:</p>"
        f"<p><code>pitch play --join {escape(url)}</code></p>"
        f"<p>or seat a bot: <code>pitch bot --join {escape(url)} --level medium</code></p>"
        "<p>(Keep this link to yourselves: it lets anyone take a free seat.)</p>"))


def table_page(info: TableInfo) -> HTMLResponse:
    return _page(f"A table of {info.variant}", (
        f"<p>Status: {escape(info.status)}.</p>{_seats(info)}"
        "<p>The browser table to watch it is on its way; players take seats with the "
        "invite link.</p>"))


def missing_page(what: str) -> HTMLResponse:
    return _page("Not found", f"<p>{escape(what)}</p>", status=404)
