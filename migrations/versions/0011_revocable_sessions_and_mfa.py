"""Revocable sessions, expiring one-time passwords and TOTP second factors with recovery codes.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-23
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("one_time_password_expires_at", sa.DateTime(timezone=True),
                                   nullable=True))
        batch.add_column(sa.Column("totp_secret", sa.Text(), nullable=True))
        batch.add_column(sa.Column("totp_enrolled_at", sa.DateTime(timezone=True),
                                   nullable=True))
        batch.add_column(sa.Column("totp_last_step", sa.Integer(), nullable=True))
    op.create_table(
        "user_sessions",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE",
                                name=op.f("fk_user_sessions_user_id_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_user_sessions")),
    )
    op.create_table(
        "recovery_codes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("code_hash", sa.String(length=64), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE",
                                name=op.f("fk_recovery_codes_user_id_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_recovery_codes")),
    )
    with op.batch_alter_table("user_sessions") as batch:
        batch.create_index(batch.f("ix_user_sessions_user_id"), ["user_id"])
    with op.batch_alter_table("recovery_codes") as batch:
        batch.create_index(batch.f("ix_recovery_codes_user_id"), ["user_id"])


def downgrade() -> None:
    op.drop_table("recovery_codes")
    op.drop_table("user_sessions")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("totp_last_step")
        batch.drop_column("totp_enrolled_at")
        batch.drop_column("totp_secret")
        batch.drop_column("one_time_password_expires_at")
