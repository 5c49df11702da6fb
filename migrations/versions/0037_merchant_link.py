"""The merchant's own link: the partner's branding on it (``partner_branding``, one row).

Revision ID: 0037
Revises: 0031
Create Date: 2026-12-02
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0037"
down_revision: str | None = "0031"
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


def downgrade() -> None:
    op.drop_table("partner_branding")
