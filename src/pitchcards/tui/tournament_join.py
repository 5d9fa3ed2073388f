"""``pitch play --join <tournament link>``: enter a server's tournament and sit at your table
each round (issue 34).  No Textual here: the table screen is passed in as ``sit``.

The link is the one a director shares, ``{server}/tournaments/{id}`` (the page) or
``{server}/api/tournaments/{id}``.  With ``names`` (your name, and your partner's for an event
of pairs) the terminal registers you — or, if it registered that name in that tournament
before, takes back the player secret it kept (``tui/tokens``' file, readable by you alone), so a
closed terminal comes back to the same seats.  A pair's partner's secret is kept too, under the
partner's name, and said once, to be given to the partner.  A tournament whose entry is by
invite takes its code (``--invite``, or the link's ``?invite=CODE``).  Then, round after
round, it asks the server where you sit (``GET /api/tournaments/{id}/me``, docs/protocol.md
"Tournaments") and opens that table with your secret, which is your seat token at every table
of the tournament; after the last round it returns the standings.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlsplit

from ..client import Client, Seat, ServerError

__all__ = ["Entry", "enter", "invite_of", "next_seat", "play_tournament", "tournament_of"]

#: the path of a tournament's page or API resource; its id as the server makes them
_LINK = re.compile(r"^/(?:api/)?tournaments/([A-Za-z0-9_-]{1,32})/?$")

#: how often the terminal asks where to sit while it waits for a round, seconds
POLL_S = 1.0


@dataclass(frozen=True)
class Entry:
    """You in a tournament: the server, the tournament, your name and player secret."""

    server: str
    tournament: str
    name: str
    token: str
    #: a pair's partner -> their player secret (just registered: to give them), else empty
    partners: tuple[tuple[str, str], ...] = ()


def tournament_of(link: str) -> str | None:
    """The tournament id of a tournament link, None if ``link`` is no such link (then it is a
    table's invite)."""
    match = _LINK.match(urlsplit(link).path)
    return match.group(1) if match and urlsplit(link).netloc else None


def invite_of(link: str) -> str | None:
    """The invite code a tournament link carries (``?invite=CODE``), None if it has none."""
    codes = parse_qs(urlsplit(link).query).get("invite")
    return codes[0] if codes else None


def _kept_key(tournament: str, name: str) -> str:
    return f"tournament:{tournament}:{name}"


async def enter(server: str, tournament: str, names: Sequence[str],
                invite: str | None = None) -> Entry:
    """Register ``names`` (one, or a pair's two) in ``tournament`` (with its ``invite`` code if
    its entry is by invite), or take back the secret this terminal kept for the first of them
    there.  Every name's secret is kept under its own name (a partner on this terminal comes
    back with ``--name`` theirs); the partners' are in ``Entry.partners``, to be given them."""
    from . import tokens

    kept = tokens.recall(server, _kept_key(tournament, names[0]))
    if kept is not None:
        return Entry(server, tournament, kept.name, kept.token)
    async with Client(server) as api:
        data = await api.enter_tournament(tournament, names, invite)
    given: dict[str, str] = {str(n): str(t) for n, t in data["tokens"].items()}
    mine = str(names[0]).strip()
    found = next((n for n in given if n.casefold() == mine.casefold()), next(iter(given)))
    # in the order of ``names`` (an account's entry is named by the account, not as typed)
    for typed, (name, token) in zip(names, given.items(), strict=False):
        with contextlib.suppress(OSError):  # not kept: this terminal cannot come back
            tokens.remember(server, _kept_key(tournament, typed),
                            Seat(server, tournament, token, name, None))
    return Entry(server, tournament, found, given[found],
                 tuple((n, t) for n, t in given.items() if n != found))


async def next_seat(entry: Entry, played: set[str], say: Callable[[str], None],
                    poll: float = POLL_S, timeout: float | None = None) -> Seat | None:
    """Your seat at the next table you have not played (None: the tournament is over).
    ``say`` hears what the wait is for, once each time it changes."""
    said = ""
    deadline = None if timeout is None else time.monotonic() + timeout
    async with Client(entry.server) as api:
        while deadline is None or time.monotonic() < deadline:
            me = await api.tournament_me(entry.tournament, entry.token)
            if me["status"] == "over":
                return None
            table_id = me["table_id"]
            if table_id is not None and table_id not in played:
                return Seat(entry.server, table_id, entry.token, entry.name, me["seat"])
            now = ("waiting for the tournament to start" if me["status"] == "registering"
                   else "sitting this round out (a bye)" if me.get("bye")
                   else "waiting for the next round")
            if now != said:
                say(f"{entry.name}: {now}")
                said = now
            await asyncio.sleep(poll)
    raise ServerError("timeout", "the tournament did not seat you in time", 0)


async def standings(entry: Entry) -> list[dict[str, Any]]:
    async with Client(entry.server) as api:
        return await api.tournament_standings(entry.tournament)


def standings_text(rows: Sequence[dict[str, Any]]) -> list[str]:
    """The standings as lines of text (the server's facts: rank, entrant, score)."""
    return [f"{'—' if r['withdrawn'] else r['rank']:>3} {r['shown']:<28} {r['matchpoints']:>8}"
            + (f" {r['percent']:6.2f} %" if r["percent"] is not None else "")
            + (" (bot)" if r["bot"] else "") for r in rows]


def play_tournament(link: str, names: Sequence[str], sit: Callable[[Seat], int],
                    say: Callable[[str], None], server: str | None = None,
                    poll: float = POLL_S, invite: str | None = None) -> int:
    """Enter the tournament of ``link`` (``invite``: its code, default the link's
    ``?invite=``) and ``sit`` (the table screen: it returns when you leave the table) at your
    table each round until it is over; say the partner's secret, then the standings."""
    from ..client import server_of

    tournament = tournament_of(link)
    if tournament is None:
        raise ServerError("bad_link", f"{link[:80]!r} is not a tournament link "
                                      "(…/tournaments/ID)", 0)
    where = server_of(link, server)
    entry = asyncio.run(enter(where, tournament, names,
                              invite if invite is not None else invite_of(link)))
    say(f"{entry.name} is in tournament {tournament} (this terminal keeps your secret: "
        "--join again with the same --name comes back to your seats)")
    for partner, token in entry.partners:
        say(f"{partner}'s player secret (give it to {partner}: it opens {partner}'s seats; "
            f"kept here too, --join with --name {partner} plays them): {token}")
    played: set[str] = set()
    code = 0
    while True:
        seat = asyncio.run(next_seat(entry, played, say, poll))
        if seat is None:
            break
        say(f"{entry.name}: your table {seat.table}, seat {(seat.seat or 0) + 1}")
        code = sit(seat) or code
        played.add(seat.table)
    say("The tournament is over. Standings:")
    for line in standings_text(asyncio.run(standings(entry))):
        say(line)
    return code
