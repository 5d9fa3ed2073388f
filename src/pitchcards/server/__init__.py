"""``pitch serve``: Pitch online — an authoritative server of tables, seats and WebSockets.

* :mod:`.protocol` — the messages (pydantic models; docs/protocol.md);
* :mod:`.store` — SQLite or PostgreSQL through SQLAlchemy, migrated by Alembic;
* :mod:`.room` — one table: the engine's Table, its players, bots, timers, and its one writer;
* :mod:`.hub` — the rooms of this process; :mod:`.app` — the FastAPI app;
* :mod:`.connection`, :mod:`.limits`, :mod:`.metrics`, :mod:`.logs`, :mod:`.config`.

Run it with ``pitch serve`` (docs/server.md).  The engine (``pitchcards`` outside ``tui``,
``server`` and ``client``) never imports this package.
"""

from __future__ import annotations

from .app import create_app
from .config import ServerConfig

__all__ = ["ServerConfig", "create_app"]
