"""A rematch's link back: ``tables.rematch_of``, the finished table it is the rematch of
(issue 30; ``tables.rematch`` is the link forward).

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # tables made before this revision are no one's rematch (or their link was not kept)
    op.add_column("tables", sa.Column("rematch_of", sa.String(32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:  # SQLite rebuilds the table to drop a column
        batch.drop_column("rematch_of")
