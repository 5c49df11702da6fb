"""Verification and webhooks: status changes, gateway links, merchant links, webhook events.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-22
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _merchant_fk(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(["merchant_id"], ["merchants.id"], ondelete="CASCADE",
                                   name=op.f(f"fk_{table}_merchant_id_merchants"))


def upgrade() -> None:
    op.create_table(
        "status_changes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("merchant_id", sa.Integer(), nullable=False),
        sa.Column("from_status", sa.String(length=32), nullable=True),
        sa.Column("to_status", sa.String(length=32), nullable=False),
        sa.Column("source", sa.String(length=32), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("gid", sa.String(length=64), nullable=False),
        _merchant_fk("status_changes"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_status_changes")),
    )
    with op.batch_alter_table("status_changes") as batch_op:
        batch_op.create_index(batch_op.f("ix_status_changes_merchant_id"), ["merchant_id"])

    op.create_table(
        "gateway_links",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("merchant_id", sa.Integer(), nullable=False),
        sa.Column("minted_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("via", sa.String(length=16), nullable=False),
        sa.Column("gid", sa.String(length=64), nullable=False),
        _merchant_fk("gateway_links"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_gateway_links")),
    )
    with op.batch_alter_table("gateway_links") as batch_op:
        batch_op.create_index(batch_op.f("ix_gateway_links_merchant_id"), ["merchant_id"])

    op.create_table(
        "merchant_links",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("merchant_id", sa.Integer(), nullable=False),
        sa.Column("nonce", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_by", sa.String(length=254), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("revoked_by", sa.String(length=254), nullable=True),
        sa.Column("last_opened_at", sa.DateTime(timezone=True), nullable=True),
        _merchant_fk("merchant_links"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_merchant_links")),
        sa.UniqueConstraint("nonce", name=op.f("uq_merchant_links_nonce")),
    )
    with op.batch_alter_table("merchant_links") as batch_op:
        batch_op.create_index(batch_op.f("ix_merchant_links_merchant_id"), ["merchant_id"])

    op.create_table(
        "webhook_events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("dedup_key", sa.String(length=160), nullable=False),
        sa.Column("event_name", sa.String(length=80), nullable=False),
        sa.Column("onboarding_id", sa.String(length=64), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("processed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("outcome", sa.String(length=200), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_webhook_events")),
        sa.UniqueConstraint("dedup_key", name=op.f("uq_webhook_events_dedup_key")),
    )
    with op.batch_alter_table("webhook_events") as batch_op:
        batch_op.create_index(batch_op.f("ix_webhook_events_onboarding_id"), ["onboarding_id"])
        batch_op.create_index(batch_op.f("ix_webhook_events_processed_at"), ["processed_at"])


def downgrade() -> None:
    for table, indexes in (
        ("webhook_events", ["ix_webhook_events_processed_at", "ix_webhook_events_onboarding_id"]),
        ("merchant_links", ["ix_merchant_links_merchant_id"]),
        ("gateway_links", ["ix_gateway_links_merchant_id"]),
        ("status_changes", ["ix_status_changes_merchant_id"]),
    ):
        with op.batch_alter_table(table) as batch_op:
            for index in indexes:
                batch_op.drop_index(index)
        op.drop_table(table)
