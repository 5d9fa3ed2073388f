"""The server's random keys (review F3): ``server_secrets``, made once by the first process that
needs one and read by every process.  ``tournaments.creator`` becomes an HMAC of the creator's
address keyed with the secret ``tournament creator``: the plain SHA-256s 0008 stored are
reversible (2^32 IPv4 addresses), so they are forgotten — the tournaments made before this
revision count against no address, as before 0008.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "server_secrets",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.String(64), nullable=False),
    )
    op.execute("UPDATE tournaments SET creator = NULL")


def downgrade() -> None:
    # the creators' HMACs cannot be turned back into 0008's hashes: forgotten too
    op.execute("UPDATE tournaments SET creator = NULL")
    op.drop_table("server_secrets")
