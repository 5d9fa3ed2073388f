"""Tournaments and their events (issue 34, server/tournament_store.py).

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("director_hash", sa.String(64), nullable=False),
        sa.Column("invite_hash", sa.String(64), nullable=True),
        sa.Column("config", sa.Text, nullable=False),
        sa.Column("seed", sa.String(80), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_index("tournaments_status", "tournaments", ["status"])
    op.create_table(
        "tournament_events",
        sa.Column("tournament_id", sa.String(32),
                  sa.ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("n", sa.Integer, primary_key=True),
        sa.Column("entry", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("tournament_events")
    op.drop_index("tournaments_status", table_name="tournaments")
    op.drop_table("tournaments")
