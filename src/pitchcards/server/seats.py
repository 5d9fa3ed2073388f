"""Who sits at a table on the server: a :class:`Player` (a person or a bot) and their sockets,
and finding a player by their token (compared in constant time).  A dropped player's grace
clock is server/grace.py's."""

from __future__ import annotations

import hmac
from collections.abc import Iterable

from .connection import Peer
from .store import PlayerRow, hash_secret

__all__ = ["BOT_NAMES", "Player", "player_by_hash", "player_by_token"]

#: Names for bot seats (a human who took the name first keeps it; the bot takes the next).
BOT_NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lou",
             "Max", "Ned", "Oz", "Pat")


class Player:
    """Someone (or a bot) with a seat at this table."""

    __slots__ = ("account_id", "away", "conns", "host", "level", "name", "seat", "token_hash")

    def __init__(self, row: PlayerRow) -> None:
        self.name = row.name
        self.seat = row.seat            #: the seat taken before the start (money: join order)
        self.token_hash = row.token_hash
        self.level = row.level          #: a bot seat's level (None: a person)
        self.host = row.host
        #: the account a signed-in person sat down as (a ranked table's seats all have one)
        self.account_id = row.account_id
        self.conns: set[Peer] = set()
        self.away = False               #: a stand-in bot plays until they return

    @property
    def is_bot(self) -> bool:
        return self.level is not None


def player_by_token(players: Iterable[Player], token: str) -> Player | None:
    """The player whose token this is; every stored hash is compared in constant time."""
    return player_by_hash(players, hash_secret(token))


def player_by_hash(players: Iterable[Player], digest: str) -> Player | None:
    """The player whose token hashes to ``digest`` (a request another process passed on
    carries the hash, never the token); every stored hash is compared, in constant time."""
    found = None
    for player in players:
        if player.token_hash is not None and hmac.compare_digest(player.token_hash, digest):
            found = player
    return found
