"""Who vouched for each account, sign-in failures per account and address, enrolments bound to
their session, held forms always owned, and the admin role as a four-eyes request.

- ``users``: ``created_by_id``, ``promoted_by_id``, ``password_issued_by_id`` (the admins who
  could have held the account's credentials); ``failed_logins`` goes (failures are counted per
  account and address in ``login_failures`` now); an authenticator secret never confirmed is
  forgotten (pending secrets live with their session in ``pending_enrolments``).
- ``held_forms.user_id`` is required: rows without an owner are deleted.
- ``approval_requests.kind`` may be ``admin_role``.

Revision ID: 0023
Revises: 0022
Create Date: 2026-12-02
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0023"
down_revision: str | None = "0022"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

VOUCHERS = ("created_by_id", "promoted_by_id", "password_issued_by_id")
KINDS_BEFORE = "kind IN ('refund', 'merchant_key', 'portfolio_key')"
KINDS_AFTER = "kind IN ('refund', 'merchant_key', 'portfolio_key', 'admin_role')"


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        for column in VOUCHERS:
            batch.add_column(sa.Column(column, sa.Integer(), nullable=True))
            batch.create_foreign_key(batch.f(f"fk_users_{column}_users"), "users", [column],
                                     ["id"], ondelete="SET NULL")
        batch.drop_column("failed_logins")
    op.execute("UPDATE users SET totp_secret = NULL WHERE totp_enrolled_at IS NULL")
    op.create_table(
        "login_failures",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("address", sa.String(length=64), nullable=False),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("locked_until", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE",
                                name=op.f("fk_login_failures_user_id_users")),
        sa.PrimaryKeyConstraint("user_id", "address", name=op.f("pk_login_failures")),
    )
    op.create_index(op.f("ix_login_failures_locked_until"), "login_failures", ["locked_until"])
    op.create_table(
        "pending_enrolments",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("session_id", sa.String(length=64), nullable=False),
        sa.Column("secret", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["session_id"], ["user_sessions.id"], ondelete="CASCADE",
                                name=op.f("fk_pending_enrolments_session_id_user_sessions")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_pending_enrolments")),
        sa.UniqueConstraint("session_id", name=op.f("uq_pending_enrolments_session_id")),
    )
    op.execute("DELETE FROM held_forms WHERE user_id IS NULL")
    with op.batch_alter_table("held_forms") as batch:
        batch.alter_column("user_id", existing_type=sa.Integer(), nullable=False)
    _kinds(KINDS_AFTER)


def downgrade() -> None:
    op.execute("DELETE FROM approval_requests WHERE kind = 'admin_role'")
    _kinds(KINDS_BEFORE)
    with op.batch_alter_table("held_forms") as batch:
        batch.alter_column("user_id", existing_type=sa.Integer(), nullable=True)
    op.drop_table("pending_enrolments")
    op.drop_index(op.f("ix_login_failures_locked_until"), table_name="login_failures")
    op.drop_table("login_failures")
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("failed_logins", sa.Integer(), nullable=False,
                                   server_default="0"))
        for column in reversed(VOUCHERS):
            batch.drop_constraint(batch.f(f"fk_users_{column}_users"), type_="foreignkey")
            batch.drop_column(column)


def _kinds(condition: str) -> None:
    """Replace the check on ``approval_requests.kind`` (SQLite rebuilds the table)."""
    with op.batch_alter_table("approval_requests") as batch:
        batch.drop_constraint(op.f("ck_approval_requests_kind"), type_="check")
        batch.create_check_constraint(op.f("ck_approval_requests_kind"), condition)
