"""Approval per product and webhooks that must be verified (contract revision 4): how each
webhook event was verified (``webhook_events.verified_by``), the products the gateway accepted a
merchant for (``merchant_product_acceptances``, one row per merchant and product) and the UCIC
kept apart from the MID (``merchants.gateway_ucic_id``).

Events stored before this revision count as unverified (``none``): whether a digest was checked
when they arrived is not known, so none of what they carry is kept from now on.

Columns of ``merchants`` are added with ``op.add_column`` (no batch rebuild on SQLite, which
would drop the triggers of 0019 and 0020).

Revision ID: 0030
Revises: 0029
Create Date: 2026-12-02
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0030"
down_revision: str | None = "0029"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("webhook_events") as batch:
        batch.add_column(sa.Column("verified_by", sa.String(length=16), nullable=False,
                                   server_default="none"))
    op.add_column("merchants", sa.Column("gateway_ucic_id", sa.String(length=64),
                                         nullable=True))
    op.create_table(
        "merchant_product_acceptances",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("merchant_id", sa.Integer(), nullable=False),
        sa.Column("product", sa.String(length=16), nullable=False),
        sa.Column("webhook_event_id", sa.Integer(), nullable=False),
        sa.Column("accepted_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["merchant_id"], ["merchants.id"],
                                name=op.f("fk_merchant_product_acceptances_merchant_id_merchants"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_merchant_product_acceptances")),
        sa.UniqueConstraint("merchant_id", "product",
                            name=op.f("uq_merchant_product_acceptances_merchant_id")),
    )
    op.create_index(op.f("ix_merchant_product_acceptances_merchant_id"),
                    "merchant_product_acceptances", ["merchant_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_merchant_product_acceptances_merchant_id"),
                  table_name="merchant_product_acceptances")
    op.drop_table("merchant_product_acceptances")
    op.drop_column("merchants", "gateway_ucic_id")
    with op.batch_alter_table("webhook_events") as batch:
        batch.drop_column("verified_by")
