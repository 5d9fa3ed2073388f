"""The account pages (issue 32, items 1 and 4; docs/web.md, docs/accounts.md): shells made by
:func:`~.pages.page_shell`, each loading its one module, which fills it from the JSON API::

    /account                 sign in or register; signed in: sign out (here, everywhere),
                             change the password, API tokens, delete the account  (account.js)
    /players/{name}          a player's profile: ratings, rating-history charts, statistics,
                             recent matches                                         (player.js)
    /leaderboards            -> the leaderboard of the pool "Play against bots" plays in
    /leaderboards/{pool}     a pool's leaderboard and, signed in, your own place (leaderboard.js)

Nothing here reads an account: a name in an address is only echoed, escaped, in the no-script
text; the page asks the API (a profile that does not exist says so from the API's 404).
"""

from __future__ import annotations

from html import escape

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, RedirectResponse

from .pages import missing_page, page_shell
from .ratings import POOL_WORDS, POOLS, pool_of

__all__ = ["DEFAULT_POOL", "account_pages_router"]

#: The leaderboard /leaderboards opens: the pool of the home page's "Play against bots"
#: (Auction pitch, each for themselves).
DEFAULT_POOL = pool_of("auction") or next(iter(POOLS))

_NO_SCRIPT = "<p class=\"noscript\">This page needs JavaScript. Without it, the same is at "


def account_pages_router() -> APIRouter:
    router = APIRouter(include_in_schema=False)

    @router.get("/account", response_class=HTMLResponse)
    async def account() -> HTMLResponse:
        return page_shell("Your account", "account", (
            f"{_NO_SCRIPT}<code>POST /api/session</code> and <code>GET /api/me</code> "
            "(docs/protocol.md).</p>"), styles=("home", "account"))

    @router.get("/players/{name}", response_class=HTMLResponse)
    async def player(name: str) -> HTMLResponse:
        return page_shell(name[:64], "player", (
            f"{_NO_SCRIPT}<code>GET /api/players/{escape(name[:64])}</code>.</p>"),
            styles=("home", "account"), data={"name": name[:64]})

    @router.get("/leaderboards")
    async def default_leaderboard() -> RedirectResponse:
        return RedirectResponse(f"/leaderboards/{DEFAULT_POOL}", status_code=307)

    @router.get("/leaderboards/{pool}", response_class=HTMLResponse)
    async def leaderboard(pool: str) -> HTMLResponse:
        if pool not in POOLS:
            return missing_page(f"There is no such leaderboard. The pools are "
                                f"{', '.join(POOL_WORDS.values())}.")
        return page_shell(f"Leaderboard: {POOL_WORDS[pool]}", "leaderboard", (
            f"{_NO_SCRIPT}<code>GET /api/leaderboards/{escape(pool)}</code>.</p>"),
            styles=("home", "account"), data={"pool": pool})

    return router
