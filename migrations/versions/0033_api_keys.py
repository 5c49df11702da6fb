"""The partners' API: keys (``api_keys``), their per-minute counts (``api_rate_windows``), the
answers kept for an Idempotency-Key (``api_idempotent_requests``), and the API key with the
payments scope as a four-eyes request (``approval_requests.kind`` may be ``api_key``).

Revision ID: 0033
Revises: 0032
Create Date: 2026-12-02
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0033"
down_revision: str | None = "0032"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

KINDS_BEFORE = "kind IN ('refund', 'merchant_key', 'portfolio_key', 'admin_role')"
KINDS_AFTER = "kind IN ('refund', 'merchant_key', 'portfolio_key', 'admin_role', 'api_key')"


def upgrade() -> None:
    op.create_table(
        "api_keys",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("lookup_id", sa.String(16), nullable=False),
        sa.Column("secret_hash", sa.String(64), nullable=False),
        sa.Column("scopes", sa.JSON(), nullable=False),
        sa.Column("state", sa.String(24), nullable=False),
        sa.Column("per_minute", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_by_id", sa.Integer(), nullable=True),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("state IN ('awaiting_approval', 'active')",
                           name=op.f("ck_api_keys_state")),
        sa.ForeignKeyConstraint(["created_by_id"], ["users.id"],
                                name=op.f("fk_api_keys_created_by_id_users"),
                                ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_api_keys")),
        sa.UniqueConstraint("name", name=op.f("uq_api_keys_name")),
        sa.UniqueConstraint("lookup_id", name=op.f("uq_api_keys_lookup_id")),
    )
    op.create_table(
        "api_rate_windows",
        sa.Column("api_key_id", sa.Integer(), nullable=False),
        sa.Column("minute", sa.Integer(), nullable=False),
        sa.Column("calls", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["api_key_id"], ["api_keys.id"],
                                name=op.f("fk_api_rate_windows_api_key_id_api_keys"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("api_key_id", "minute", name=op.f("pk_api_rate_windows")),
    )
    op.create_table(
        "api_idempotent_requests",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("api_key_id", sa.Integer(), nullable=False),
        sa.Column("idempotency_key", sa.String(255), nullable=False),
        sa.Column("fingerprint", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.Integer(), nullable=True),
        sa.Column("answer", sa.JSON(), nullable=True),
        sa.Column("location", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["api_key_id"], ["api_keys.id"],
                                name=op.f("fk_api_idempotent_requests_api_key_id_api_keys"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_api_idempotent_requests")),
        sa.UniqueConstraint("api_key_id", "idempotency_key",
                            name=op.f("uq_api_idempotent_requests_api_key_id")),
    )
    op.create_index(op.f("ix_api_idempotent_requests_created_at"), "api_idempotent_requests",
                    ["created_at"])
    _kinds(KINDS_AFTER)


def downgrade() -> None:
    op.execute("DELETE FROM approval_requests WHERE kind = 'api_key'")
    _kinds(KINDS_BEFORE)
    op.drop_index(op.f("ix_api_idempotent_requests_created_at"), "api_idempotent_requests")
    op.drop_table("api_idempotent_requests")
    op.drop_table("api_rate_windows")
    op.drop_table("api_keys")


def _kinds(condition: str) -> None:
    """Replace the check on ``approval_requests.kind`` (SQLite rebuilds the table)."""
    with op.batch_alter_table("approval_requests") as batch:
        batch.drop_constraint(op.f("ck_approval_requests_kind"), type_="check")
        batch.create_check_constraint(op.f("ck_approval_requests_kind"), condition)
