"""Accounts, their sessions and API tokens, and ratings (issue 32).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(128), nullable=False, unique=True),
        sa.Column("password_hash", sa.Text, nullable=True),
        sa.Column("bot_level", sa.String(16), nullable=True, unique=True),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.String(32),
                  sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_index("sessions_account", "sessions", ["account_id"])
    op.create_table(
        "api_tokens",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("account_id", sa.String(32),
                  sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("label", sa.String(64), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("last_used", sa.Float, nullable=True),
    )
    op.create_index("api_tokens_account", "api_tokens", ["account_id"])
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.String(32),
                  sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("pool", sa.String(32), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("matches", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_index("ratings_pool", "ratings", ["pool", "mu", "account_id"])
    op.create_table(
        "rated_matches",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("pool", sa.String(32), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "rating_changes",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("match_key", sa.String(64),
                  sa.ForeignKey("rated_matches.key", ondelete="CASCADE"), nullable=False),
        sa.Column("account_id", sa.String(32),
                  sa.ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True),
        sa.Column("side", sa.Integer, nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu_after", sa.Float, nullable=False),
        sa.Column("sigma_after", sa.Float, nullable=False),
    )
    op.create_index("rating_changes_account", "rating_changes", ["account_id", "id"])
    op.create_index("rating_changes_match", "rating_changes", ["match_key"])


def downgrade() -> None:
    for index, table in (("rating_changes_match", "rating_changes"),
                         ("rating_changes_account", "rating_changes"),
                         ("ratings_pool", "ratings"), ("api_tokens_account", "api_tokens"),
                         ("sessions_account", "sessions")):
        op.drop_index(index, table)
    for table in ("rating_changes", "rated_matches", "ratings", "api_tokens", "sessions",
                  "accounts"):
        op.drop_table(table)
