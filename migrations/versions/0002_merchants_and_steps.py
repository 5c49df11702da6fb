"""Merchants and the wizard: merchants, their step drafts, their uploaded documents.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "merchants",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("external_onboarding_id", sa.String(length=64), nullable=False),
        sa.Column("onboarding_id", sa.String(length=64), nullable=True),
        sa.Column("pan", sa.String(length=10), nullable=False),
        sa.Column("display_name", sa.String(length=200), nullable=False),
        sa.Column("legal_name", sa.String(length=200), nullable=False),
        sa.Column("status", sa.String(length=32), nullable=True),
        sa.Column("create_state", sa.String(length=20), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_activity_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("checklist", sa.JSON(), nullable=False),
        sa.Column("documents_outstanding", sa.JSON(), nullable=False),
        sa.Column("penny_drop_status", sa.String(length=16), nullable=True),
        sa.Column("name_at_bank", sa.String(length=200), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_merchants")),
        sa.UniqueConstraint("external_onboarding_id",
                            name=op.f("uq_merchants_external_onboarding_id")),
        sa.UniqueConstraint("onboarding_id", name=op.f("uq_merchants_onboarding_id")),
    )
    with op.batch_alter_table("merchants") as batch_op:
        batch_op.create_index(batch_op.f("ix_merchants_last_activity_at"), ["last_activity_at"])
        batch_op.create_index(batch_op.f("ix_merchants_pan"), ["pan"])
        batch_op.create_index(batch_op.f("ix_merchants_status"), ["status"])

    op.create_table(
        "step_drafts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("merchant_id", sa.Integer(), nullable=False),
        sa.Column("step", sa.String(length=32), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("state", sa.String(length=20), nullable=False),
        sa.Column("lock_reason", sa.String(length=300), nullable=True),
        sa.Column("last_error", sa.JSON(), nullable=False),
        sa.Column("last_gid", sa.String(length=64), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["merchant_id"], ["merchants.id"], ondelete="CASCADE",
                                name=op.f("fk_step_drafts_merchant_id_merchants")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_step_drafts")),
        sa.UniqueConstraint("merchant_id", "step", name=op.f("uq_step_drafts_merchant_id")),
    )
    with op.batch_alter_table("step_drafts") as batch_op:
        batch_op.create_index(batch_op.f("ix_step_drafts_merchant_id"), ["merchant_id"])

    op.create_table(
        "stored_documents",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("merchant_id", sa.Integer(), nullable=False),
        sa.Column("doc_type", sa.String(length=120), nullable=False),
        sa.Column("original_filename", sa.String(length=255), nullable=False),
        sa.Column("stored_name", sa.String(length=80), nullable=False),
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("content_type", sa.String(length=64), nullable=False),
        sa.Column("uploaded_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("sent_gid", sa.String(length=64), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.ForeignKeyConstraint(["merchant_id"], ["merchants.id"], ondelete="CASCADE",
                                name=op.f("fk_stored_documents_merchant_id_merchants")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_stored_documents")),
        sa.UniqueConstraint("stored_name", name=op.f("uq_stored_documents_stored_name")),
    )
    with op.batch_alter_table("stored_documents") as batch_op:
        batch_op.create_index(batch_op.f("ix_stored_documents_merchant_id"), ["merchant_id"])


def downgrade() -> None:
    with op.batch_alter_table("stored_documents") as batch_op:
        batch_op.drop_index(batch_op.f("ix_stored_documents_merchant_id"))
    op.drop_table("stored_documents")
    with op.batch_alter_table("step_drafts") as batch_op:
        batch_op.drop_index(batch_op.f("ix_step_drafts_merchant_id"))
    op.drop_table("step_drafts")
    with op.batch_alter_table("merchants") as batch_op:
        batch_op.drop_index(batch_op.f("ix_merchants_status"))
        batch_op.drop_index(batch_op.f("ix_merchants_pan"))
        batch_op.drop_index(batch_op.f("ix_merchants_last_activity_at"))
    op.drop_table("merchants")
