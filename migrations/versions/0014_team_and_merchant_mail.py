"""Team and merchant mail: editable email templates, verification reminders, reset requests.

Revision ID: 0014
Revises: 0012
Create Date: 2026-11-23
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "mail_templates",
        sa.Column("key", sa.String(length=40), nullable=False),
        sa.Column("subject", sa.String(length=200), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_by", sa.String(length=254), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_mail_templates")),
    )
    op.create_table(
        "verification_reminders",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("merchant_id", sa.Integer(), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["merchant_id"], ["merchants.id"], ondelete="CASCADE",
                                name=op.f("fk_verification_reminders_merchant_id_merchants")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_verification_reminders")),
    )
    with op.batch_alter_table("verification_reminders") as batch_op:
        batch_op.create_index(batch_op.f("ix_verification_reminders_merchant_id"),
                              ["merchant_id"])
    op.create_table(
        "password_reset_requests",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("email", sa.String(length=254), nullable=False),
        sa.Column("address", sa.String(length=64), nullable=False),
        sa.Column("requested_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_password_reset_requests")),
    )
    with op.batch_alter_table("password_reset_requests") as batch_op:
        batch_op.create_index(batch_op.f("ix_password_reset_requests_email"), ["email"])
        batch_op.create_index(batch_op.f("ix_password_reset_requests_address"), ["address"])
        batch_op.create_index(batch_op.f("ix_password_reset_requests_requested_at"),
                              ["requested_at"])


def downgrade() -> None:
    op.drop_table("password_reset_requests")
    op.drop_table("verification_reminders")
    op.drop_table("mail_templates")
