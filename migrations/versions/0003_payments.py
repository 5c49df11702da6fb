"""Payments: merchants' payments credentials, authorize-only payments and their refunds.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "payment_credentials",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("merchant_id", sa.Integer(), nullable=False),
        sa.Column("mid", sa.String(length=64), nullable=False),
        sa.Column("kid", sa.String(length=128), nullable=False),
        sa.Column("public_key_pem", sa.Text(), nullable=False),
        sa.Column("private_key_encrypted", sa.Text(), nullable=False),
        sa.Column("origin", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_by_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["created_by_id"], ["users.id"], ondelete="SET NULL",
                                name=op.f("fk_payment_credentials_created_by_id_users")),
        sa.ForeignKeyConstraint(["merchant_id"], ["merchants.id"], ondelete="CASCADE",
                                name=op.f("fk_payment_credentials_merchant_id_merchants")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_payment_credentials")),
        sa.UniqueConstraint("merchant_id", name=op.f("uq_payment_credentials_merchant_id")),
    )

    op.create_table(
        "payments",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("merchant_id", sa.Integer(), nullable=False),
        sa.Column("merchant_txn_id", sa.String(length=50), nullable=False),
        sa.Column("merchant_unique_id", sa.String(length=40), nullable=False),
        sa.Column("gid", sa.String(length=64), nullable=True),
        sa.Column("status", sa.String(length=32), nullable=False),
        sa.Column("amount", sa.String(length=24), nullable=False),
        sa.Column("currency", sa.String(length=3), nullable=False),
        sa.Column("captured_amount", sa.String(length=24), nullable=True),
        sa.Column("request_payload", sa.JSON(), nullable=False),
        sa.Column("redirect_url", sa.Text(), nullable=True),
        sa.Column("status_url", sa.Text(), nullable=True),
        sa.Column("reason_code", sa.String(length=32), nullable=False),
        sa.Column("message", sa.String(length=300), nullable=False),
        sa.Column("action_nonce", sa.String(length=64), nullable=False),
        sa.Column("action_state", sa.String(length=16), nullable=False),
        sa.Column("action_name", sa.String(length=16), nullable=True),
        sa.Column("action_started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_by_id", sa.Integer(), nullable=True),
        sa.CheckConstraint("action_state IN ('idle', 'sending', 'unknown')",
                           name=op.f("ck_payments_action_state")),
        sa.ForeignKeyConstraint(["created_by_id"], ["users.id"], ondelete="SET NULL",
                                name=op.f("fk_payments_created_by_id_users")),
        sa.ForeignKeyConstraint(["merchant_id"], ["merchants.id"], ondelete="CASCADE",
                                name=op.f("fk_payments_merchant_id_merchants")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_payments")),
        sa.UniqueConstraint("gid", name=op.f("uq_payments_gid")),
        sa.UniqueConstraint("merchant_txn_id", name=op.f("uq_payments_merchant_txn_id")),
        sa.UniqueConstraint("merchant_unique_id", name=op.f("uq_payments_merchant_unique_id")),
    )
    with op.batch_alter_table("payments") as batch_op:
        batch_op.create_index(batch_op.f("ix_payments_created_at"), ["created_at"])
        batch_op.create_index(batch_op.f("ix_payments_merchant_id"), ["merchant_id"])
        batch_op.create_index(batch_op.f("ix_payments_status"), ["status"])

    op.create_table(
        "payment_refunds",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("payment_id", sa.Integer(), nullable=False),
        sa.Column("merchant_txn_id", sa.String(length=50), nullable=False),
        sa.Column("gid", sa.String(length=64), nullable=True),
        sa.Column("amount", sa.String(length=24), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["payment_id"], ["payments.id"], ondelete="CASCADE",
                                name=op.f("fk_payment_refunds_payment_id_payments")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_payment_refunds")),
        sa.UniqueConstraint("merchant_txn_id", name=op.f("uq_payment_refunds_merchant_txn_id")),
    )
    with op.batch_alter_table("payment_refunds") as batch_op:
        batch_op.create_index(batch_op.f("ix_payment_refunds_payment_id"), ["payment_id"])


def downgrade() -> None:
    with op.batch_alter_table("payment_refunds") as batch_op:
        batch_op.drop_index(batch_op.f("ix_payment_refunds_payment_id"))
    op.drop_table("payment_refunds")
    with op.batch_alter_table("payments") as batch_op:
        batch_op.drop_index(batch_op.f("ix_payments_status"))
        batch_op.drop_index(batch_op.f("ix_payments_merchant_id"))
        batch_op.drop_index(batch_op.f("ix_payments_created_at"))
    op.drop_table("payments")
    op.drop_table("payment_credentials")
