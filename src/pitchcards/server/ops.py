"""What each HTTP request about a table does to its room, run where the room is.

With one process that is here.  With several (``--redis``, issue 13) it is on the process that
owns the table: a request that came in elsewhere is passed on to it through Redis
(``cluster.py``), with the seat token's hash instead of the token, and the answer comes back as
JSON.  So every operation takes JSON-able arguments and returns a JSON-able result, and the
HTTP routes (``app.py``) are the same code whichever process answered.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol

from .protocol import check_display_name
from .room import Player, Refused, Room

if TYPE_CHECKING:
    from .protocol import CreateTable
    from .store import PlayerRow

__all__ = ["OPS", "Op", "OpsHost"]


class OpsHost(Protocol):
    """What an operation uses of the process that holds the table (the hub): only a way to
    open the rematch's new table."""

    async def rematch_table(self, request: CreateTable, seats: list[PlayerRow],
                            rematch_of: str) -> str: ...

    async def tournament_over(self, tournament_id: str) -> bool: ...


#: An operation: (the hub, the table's room, its arguments) -> its JSON-able result.
Op = Callable[..., Awaitable[Any]]

def _player(room: Room, token_hash: str | None) -> Player:
    player = room.player_by_hash(token_hash) if token_hash else None
    if player is None:
        raise Refused("bad_token", "that token is not a seat of this table", 401)
    return player


def _info(room: Room) -> dict[str, Any]:
    return room.info().model_dump(mode="json")


async def info(_hub: OpsHost, room: Room) -> dict[str, Any]:
    return _info(room)


async def take_seat(_hub: OpsHost, room: Room, name: str, seat: int | None, token_hash: str,
                    listed_only: bool, account_id: str | None = None,
                    account_name: str | None = None) -> dict[str, Any]:
    """A guest, or a signed-in player (``account_id``, ``account_name``), sits down:
    ``{"seat", "name"}`` (the name as kept: a ranked table's is the account's)."""
    if listed_only and not room.listed:  # a private table's seats go with its invite
        raise Refused("not_listed", "this table is private: its seats are taken with its "
                                    "invite link", 403)
    try:
        name = check_display_name(name)
    except ValueError as exc:
        raise Refused("bad_name", str(exc), 422) from None
    taken, name = await room.take_seat(name, seat, token_hash, account_id, account_name)
    return {"seat": taken, "name": name}


async def start(_hub: OpsHost, room: Room, token_hash: str | None) -> dict[str, Any]:
    await room.start(_player(room, token_hash))
    return _info(room)


async def leave(_hub: OpsHost, room: Room, token_hash: str | None) -> dict[str, Any]:
    payout = await room.leave(_player(room, token_hash))
    if room.config.ranked:  # a ranked match's leaver forfeits at once (server/ranked.py)
        return {"payout": None, "pending": False, "forfeit": True}
    return {"payout": None if payout is None else str(payout), "pending": payout is None}


async def claim(_hub: OpsHost, room: Room, token_hash: str | None) -> dict[str, Any]:
    """A ranked match's remaining side claims the win (every opponent left)."""
    await room.claim(_player(room, token_hash))
    return _info(room)


async def settle(_hub: OpsHost, room: Room, token_hash: str | None) -> dict[str, Any]:
    await room.settle(_player(room, token_hash))
    return _info(room)


async def payments(_hub: OpsHost, room: Room, token_hash: str | None) -> dict[str, Any]:
    """What leaving or settling would pay now (a money player's confirmation)."""
    player = _player(room, token_hash)
    async with room.lock:
        return room.preview(player).model_dump(mode="json")


async def rematch(hub: OpsHost, room: Room, token_hash: str | None) -> dict[str, Any]:
    return {"table": await room.rematch(_player(room, token_hash), hub.rematch_table)}


async def record(_hub: OpsHost, room: Room, token_hash: str | None) -> dict[str, Any]:
    """The finished hands' record, and the seated names (the hand-history viewer's)."""
    _player(room, token_hash)
    text = await room.record()
    names = list(room.table.names) if room.table is not None else None
    return {"record": text, "names": names}


async def _no_open_boards(hub: OpsHost, room: Room) -> None:
    """A tournament's table is public to nobody until the whole tournament is over: every
    table of a round deals the same boards, so a finished table's hands or analysis (every
    seat's candidate cards) would show a slower table the boards it has still to play
    (docs/tournaments.md, "Hidden boards")."""
    if room.state.tournament is not None \
            and not await hub.tournament_over(room.state.tournament):
        raise Refused("tournament_table", "a tournament's table is analysed once the whole "
                                          "tournament is over (until then another table may "
                                          "not have played its boards)", 403)


async def analysis_source(hub: OpsHost, room: Room, token_hash: str | None
                          ) -> dict[str, Any]:
    """The public record an analysis is made of (issue 33): a player of the table may have its
    finished hands analysed while the game goes on (a finished hand hides nothing the hand
    viewer does not show them), anyone once the game is over (never a tournament's table
    before the tournament is over).  ``name``: the requester's, if a player (their puzzles
    are their own decisions)."""
    await _no_open_boards(hub, room)
    player = room.player_by_hash(token_hash) if token_hash else None
    if token_hash and player is None:
        raise Refused("bad_token", "that token is not a seat of this table", 401)
    if player is None and room.state.status != "over":
        raise Refused("not_over", "a game is analysed for its players while it goes on, and "
                                  "for everyone once it is over", 403)
    text = await room.record()
    return {"record": text, "name": None if player is None else player.name,
            "over": room.state.status == "over"}


async def hands_source(hub: OpsHost, room: Room, token_hash: str | None) -> dict[str, Any]:
    """The hand-history viewer's record (``GET …/hands``): a player's (their seat's token) at
    any time, as :func:`record`; without a token, anyone's once the game is over — what
    anyone may then have analysed (issue 33) — with ``stranger`` set, so that only cards that
    were played are shown (a card never played is never public: issue 31, finding 9)."""
    if token_hash:
        return {**await record(hub, room, token_hash), "stranger": False}
    if room.state.status != "over":
        raise Refused("bad_token", "the hands are shown to the table's players (their seat's "
                                   "token) while the game goes on, and to everyone once it "
                                   "is over", 401)
    await _no_open_boards(hub, room)
    text = await room.record()  # off the loop, from the log once a money room forgot hands
    names = list(room.table.names) if room.table is not None else None
    return {"record": text, "names": names, "stranger": True}


async def results(_hub: OpsHost, room: Room,
                  token_hash: str | None = None) -> list[dict[str, Any]]:
    """The score sheet's events, kept by the room as they happened: no walk of the history
    (issue 31, finding 7).  A tournament's table keeps its score sheet to its players (a
    seat's token of that table: they played those hands), for everyone else the tournament's
    own pages say how its boards went, once everyone has played them."""
    if room.state.tournament is not None:
        if token_hash is None:
            raise Refused("tournament_table", "a tournament's table shows its results to its "
                                              "players only (their seat's token)", 403)
        _player(room, token_hash)
    return list(room.results)


OPS: dict[str, Op] = {"info": info, "take_seat": take_seat, "start": start, "leave": leave,
                      "settle": settle, "rematch": rematch, "record": record,
                      "results": results, "payments": payments, "claim": claim,
                      "analysis_source": analysis_source, "hands_source": hands_source}
