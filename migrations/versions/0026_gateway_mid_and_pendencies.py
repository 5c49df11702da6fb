"""What the gateway tells about a merchant, kept (contract revision 3): its MID from
MERCHANT_STATUS_ACCEPTED (``merchants.gateway_mid``), the pendencies of
MERCHANT_PENDENCY_STATUS_UPDATED (``merchant_pendencies``, one row per event) and a document
upload's own status (``stored_documents.gateway_status``).

Columns are added with ``op.add_column`` (no batch rebuild of ``merchants`` on SQLite, which
would drop the triggers of 0019 and 0020).

Revision ID: 0026
Revises: 0025
Create Date: 2026-11-27
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0026"
down_revision: str | None = "0025"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("merchants", sa.Column("gateway_mid", sa.String(length=64), nullable=True))
    op.add_column("stored_documents",
                  sa.Column("gateway_status", sa.String(length=40), nullable=True))
    op.create_table(
        "merchant_pendencies",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("merchant_id", sa.Integer(), nullable=False),
        sa.Column("webhook_event_id", sa.Integer(), nullable=False),
        sa.Column("category", sa.String(length=64), nullable=False),
        sa.Column("sub_category", sa.Text(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("status", sa.String(length=32), nullable=False),
        sa.Column("raised_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("reported_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("cards_approval_blocking", sa.Boolean(), nullable=True),
        sa.Column("mca_approval_blocking", sa.Boolean(), nullable=True),
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["merchant_id"], ["merchants.id"],
                                name=op.f("fk_merchant_pendencies_merchant_id_merchants"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_merchant_pendencies")),
        sa.UniqueConstraint("webhook_event_id",
                            name=op.f("uq_merchant_pendencies_webhook_event_id")),
    )
    op.create_index(op.f("ix_merchant_pendencies_merchant_id"), "merchant_pendencies",
                    ["merchant_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_merchant_pendencies_merchant_id"), table_name="merchant_pendencies")
    op.drop_table("merchant_pendencies")
    with op.batch_alter_table("stored_documents") as batch:
        batch.drop_column("gateway_status")
    op.drop_column("merchants", "gateway_mid")
