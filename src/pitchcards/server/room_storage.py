"""The narrow interface a room stores its table through (:class:`TableStorage`), and the
hub's implementation of it on the database (:class:`HubStorage`).

A room asks storage for its own table's things only: append a log entry (in the hub's group
commit, fenced when another process took the table), add a player, set the status, reload the
table, add and read chat.  It never sees the :class:`~pitchcards.server.store.Store`, the
database thread or the other rooms, so a test can give a room a storage of its own.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from .store import AlsoInTransaction, PlayerRow, Store, StoredTable

__all__ = ["HubStorage", "TableStorage"]


class TableStorage(Protocol):
    """What a room asks of storage, for its own table."""

    async def append(self, table_id: str, n: int, entry: dict[str, Any],
                     status: str | None, also: AlsoInTransaction | None = None) -> None:
        """Store log entry ``n`` (and the table's status, if given; ``also``: more to do in
        the same transaction, a ranked match's rating); raises
        :class:`~pitchcards.server.store.Fenced` if another process owns the table now."""

    async def add_player(self, table_id: str, row: PlayerRow) -> None: ...

    async def set_status(self, table_id: str, status: str, rematch: str | None) -> None: ...

    async def load(self, table_id: str) -> StoredTable | None: ...

    async def add_chat(self, table_id: str, name: str, text: str, at: float) -> None: ...

    async def recent_chat(self, table_id: str, limit: int) -> list[tuple[str, str, float]]: ...


class HubStorage:
    """:class:`TableStorage` on the hub's store: appends go through the hub's group commit
    (``append``), the rest runs on its database thread (``db``)."""

    __slots__ = ("_append", "_db", "_store")

    def __init__(self, store: Store,
                 db: Callable[..., Awaitable[Any]],
                 append: Callable[[str, int, dict[str, Any], str | None,
                                   AlsoInTransaction | None], Awaitable[None]]
                 ) -> None:
        self._store = store
        self._db = db
        self._append = append

    async def append(self, table_id: str, n: int, entry: dict[str, Any],
                     status: str | None, also: AlsoInTransaction | None = None) -> None:
        await self._append(table_id, n, entry, status, also)

    async def add_player(self, table_id: str, row: PlayerRow) -> None:
        await self._db(self._store.add_player, table_id, row)

    async def set_status(self, table_id: str, status: str, rematch: str | None) -> None:
        await self._db(self._store.set_status, table_id, status, rematch)

    async def load(self, table_id: str) -> StoredTable | None:
        stored: StoredTable | None = await self._db(self._store.load, table_id)
        return stored

    async def add_chat(self, table_id: str, name: str, text: str, at: float) -> None:
        await self._db(self._store.add_chat, table_id, name, text, at)

    async def recent_chat(self, table_id: str, limit: int) -> list[tuple[str, str, float]]:
        rows: list[tuple[str, str, float]] = await self._db(self._store.recent_chat, table_id,
                                                            limit)
        return rows
