"""Alembic's entry point: migrate on the connection the server hands over (or on the URL given
with ``-x url=...`` when run from the command line)."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from pitchcards.server.config import normalise_db_url
from pitchcards.server.schema import schema

config = context.config
#: every module's tables (not store.py's alone: autogenerate would drop the others)
metadata = schema()
connection = config.attributes.get("connection")

if connection is not None:
    context.configure(connection=connection, target_metadata=metadata)
    with context.begin_transaction():
        context.run_migrations()
else:
    url = context.get_x_argument(as_dictionary=True).get("url")
    if not url:
        raise SystemExit("give the database: alembic ... -x url=sqlite:///path/to/server.db")
    engine = create_engine(normalise_db_url(url))
    with engine.begin() as conn:
        context.configure(connection=conn, target_metadata=metadata)
        with context.begin_transaction():
            context.run_migrations()
