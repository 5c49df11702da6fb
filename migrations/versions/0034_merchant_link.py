"""The merchant's own link: the partner's branding on it (``partner_branding``, one row), and
what its page found about the merchant's device before the video call
(``merchant_link_checks``).

Revision ID: 0034
Revises: 0033
Create Date: 2026-12-02
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0034"
down_revision: str | None = "0033"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "partner_branding",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("display_name", sa.String(80), nullable=False),
        sa.Column("sender_name", sa.String(80), nullable=False),
        sa.Column("accent_colour", sa.String(7), nullable=False),
        sa.Column("logo", sa.LargeBinary(), nullable=True),
        sa.Column("logo_type", sa.String(32), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_by", sa.String(254), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_partner_branding")),
    )
    op.create_table(
        "merchant_link_checks",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("link_id", sa.Integer(), nullable=False),
        sa.Column("merchant_id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("device", sa.String(16), nullable=False),
        sa.Column("in_app", sa.String(32), nullable=False),
        sa.Column("failed", sa.String(32), nullable=False),
        sa.ForeignKeyConstraint(["link_id"], ["merchant_links.id"], ondelete="CASCADE",
                                name=op.f("fk_merchant_link_checks_link_id_merchant_links")),
        sa.ForeignKeyConstraint(["merchant_id"], ["merchants.id"], ondelete="CASCADE",
                                name=op.f("fk_merchant_link_checks_merchant_id_merchants")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_merchant_link_checks")),
    )
    op.create_index(op.f("ix_merchant_link_checks_link_id"), "merchant_link_checks",
                    ["link_id"])
    op.create_index(op.f("ix_merchant_link_checks_merchant_id"), "merchant_link_checks",
                    ["merchant_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_merchant_link_checks_merchant_id"), "merchant_link_checks")
    op.drop_index(op.f("ix_merchant_link_checks_link_id"), "merchant_link_checks")
    op.drop_table("merchant_link_checks")
    op.drop_table("partner_branding")
