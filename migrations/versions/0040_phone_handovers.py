"""Hand-overs of a merchant's verification to their phone (``phone_handovers``): the QR code's
or text message's single-use, short-lived link.

Revision ID: 0040
Revises: 0036
Create Date: 2026-12-02
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0040"
down_revision: str | None = "0036"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "phone_handovers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("link_id", sa.Integer(), nullable=False),
        sa.Column("merchant_id", sa.Integer(), nullable=False),
        sa.Column("nonce", sa.String(64), nullable=False),
        sa.Column("via", sa.String(8), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("opened_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["link_id"], ["merchant_links.id"], ondelete="CASCADE",
                                name=op.f("fk_phone_handovers_link_id_merchant_links")),
        sa.ForeignKeyConstraint(["merchant_id"], ["merchants.id"], ondelete="CASCADE",
                                name=op.f("fk_phone_handovers_merchant_id_merchants")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_phone_handovers")),
        sa.UniqueConstraint("nonce", name=op.f("uq_phone_handovers_nonce")),
    )
    op.create_index(op.f("ix_phone_handovers_link_id"), "phone_handovers", ["link_id"])
    op.create_index(op.f("ix_phone_handovers_merchant_id"), "phone_handovers", ["merchant_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_phone_handovers_merchant_id"), "phone_handovers")
    op.drop_index(op.f("ix_phone_handovers_link_id"), "phone_handovers")
    op.drop_table("phone_handovers")
