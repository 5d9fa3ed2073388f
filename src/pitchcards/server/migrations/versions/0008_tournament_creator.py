"""Who created a tournament, for the cap on an address's open tournaments (issue 34):
``tournaments.creator``, a SHA-256 of the creator's address (never the address), so the count
survives a restart and every process of a cluster reads the same one.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # tournaments made before this revision count against no address
    op.add_column("tournaments", sa.Column("creator", sa.String(64), nullable=True))
    op.create_index("tournaments_creator", "tournaments", ["creator", "status"])


def downgrade() -> None:
    op.drop_index("tournaments_creator", "tournaments")
    with op.batch_alter_table("tournaments") as batch:  # SQLite rebuilds it to drop a column
        batch.drop_column("creator")
