"""The scorekeeper's sheets (``/score``, issue 16): one row per sheet.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "score_sheets",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("edit_token_hash", sa.String(64), nullable=False),
        sa.Column("sheet", sa.Text, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("score_sheets")
