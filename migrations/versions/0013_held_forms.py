"""Held forms: what was posted after a session or CSRF token expired, until signed in again.

Revision ID: 0013
Revises: 0014
Create Date: 2026-11-23
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "held_forms",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("path", sa.String(length=500), nullable=False),
        sa.Column("fields", sa.Text(), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"],
                                name=op.f("fk_held_forms_user_id_users"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_held_forms")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_held_forms_token_hash")),
    )
    op.create_index(op.f("ix_held_forms_user_id"), "held_forms", ["user_id"])
    op.create_index(op.f("ix_held_forms_expires_at"), "held_forms", ["expires_at"])


def downgrade() -> None:
    op.drop_index(op.f("ix_held_forms_expires_at"), table_name="held_forms")
    op.drop_index(op.f("ix_held_forms_user_id"), table_name="held_forms")
    op.drop_table("held_forms")
