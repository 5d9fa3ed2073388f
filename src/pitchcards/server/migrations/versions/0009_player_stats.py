"""Players' statistics per rating pool (issue 32, item 4): hands, points, contracts bid and
made, moons — added as each ranked match is rated.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "player_stats",
        sa.Column("account_id", sa.String(32),
                  sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("pool", sa.String(32), primary_key=True),
        sa.Column("hands", sa.Integer, nullable=False),
        sa.Column("points", sa.Integer, nullable=False),
        sa.Column("bids", sa.Integer, nullable=False),
        sa.Column("made", sa.Integer, nullable=False),
        sa.Column("moons", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("player_stats")
