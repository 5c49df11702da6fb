"""Change requests for a merchant's locked details (issue 38.3): ``change_requests``, one open
per merchant and section (``open_key`` is unique while open, None once closed), and the
four-eyes kind ``change_request`` (``approval_requests.kind``).

Revision ID: 0047
Revises: 0041
Create Date: 2026-12-02
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0047"
down_revision: str | None = "0041"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

KINDS_BEFORE = "kind IN ('refund', 'merchant_key', 'portfolio_key', 'admin_role', 'api_key')"
KINDS_AFTER = ("kind IN ('refund', 'merchant_key', 'portfolio_key', 'admin_role', 'api_key', "
               "'change_request')")


def upgrade() -> None:
    op.create_table(
        "change_requests",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("merchant_id", sa.Integer(),
                  sa.ForeignKey("merchants.id", name=op.f("fk_change_requests_merchant_id_merchants"),
                                ondelete="CASCADE"), nullable=False),
        sa.Column("section", sa.String(24), nullable=False),
        sa.Column("step", sa.String(24), nullable=False),
        sa.Column("open_key", sa.String(48), nullable=True),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("old_values", sa.Text(), nullable=False),
        sa.Column("new_values", sa.Text(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("proof_document_id", sa.Integer(),
                  sa.ForeignKey("stored_documents.id",
                                name=op.f("fk_change_requests_proof_document_id_stored_documents"),
                                ondelete="SET NULL"), nullable=True),
        sa.Column("requested_by_id", sa.Integer(),
                  sa.ForeignKey("users.id", name=op.f("fk_change_requests_requested_by_id_users"),
                                ondelete="SET NULL"), nullable=True),
        sa.Column("approval_request_id", sa.Integer(),
                  sa.ForeignKey("approval_requests.id",
                                name=op.f("fk_change_requests_approval_request_id_approval_requests"),
                                ondelete="SET NULL"), nullable=True),
        sa.Column("answer", sa.Text(), nullable=False),
        sa.Column("send_error", sa.String(300), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("state_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("open_key", name=op.f("uq_change_requests_open_key")),
    )
    op.create_index(op.f("ix_change_requests_merchant_id"), "change_requests", ["merchant_id"])
    _kinds(KINDS_AFTER)


def downgrade() -> None:
    op.execute("DELETE FROM approval_requests WHERE kind = 'change_request'")
    _kinds(KINDS_BEFORE)
    op.drop_index(op.f("ix_change_requests_merchant_id"), table_name="change_requests")
    op.drop_table("change_requests")


def _kinds(condition: str) -> None:
    """Replace the check on ``approval_requests.kind`` (SQLite rebuilds the table)."""
    with op.batch_alter_table("approval_requests") as batch:
        batch.drop_constraint(op.f("ck_approval_requests_kind"), type_="check")
        batch.create_check_constraint(op.f("ck_approval_requests_kind"), condition)
