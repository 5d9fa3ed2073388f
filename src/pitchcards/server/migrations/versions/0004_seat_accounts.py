"""Ranked tables (issue 32, item 3): the account a seat was taken by.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # The account (accounts.id) a signed-in player took the seat as; None for a guest or a
    # bot.  No foreign key: a deleted account's seat keeps the id, and the rating of the
    # match's end leaves an account that is gone out (server/ranked.py).
    op.add_column("players", sa.Column("account_id", sa.String(32), nullable=True))


def downgrade() -> None:
    op.drop_column("players", "account_id")
