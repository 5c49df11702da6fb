"""A team's day: each merchant's owner (``merchants.owner_id``) and whether its rejection was
told (``rejection_told_at``), notes on merchants (``merchant_notes``), what each user is told
(``notices``) and how they are emailed it (``users.notice_mode``).

Columns are added with ``op.add_column`` (no batch rebuild of ``merchants`` on SQLite, which
would drop the triggers of 0019 and 0020); so ``owner_id`` is a user id without a foreign key
(users are deactivated, never deleted), as ``audit_events.merchant_id`` is a merchant's.
Merchants rejected before this revision count as told (``rejection_told_at`` is set).

Revision ID: 0028
Revises: 0027
Create Date: 2026-11-28
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0028"
down_revision: str | None = "0027"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("merchants", sa.Column("owner_id", sa.Integer(), nullable=True))
    # partial: with most merchants unowned, SQLite's statistics would make "owner_id = ?" a scan
    owned = sa.text("owner_id IS NOT NULL")
    op.create_index("ix_merchants_owner_id", "merchants", ["owner_id"], sqlite_where=owned,
                    postgresql_where=owned)
    op.add_column("merchants", sa.Column("rejection_told_at", sa.DateTime(timezone=True),
                                         nullable=True))
    # rejections from before owners existed count as told: no worklist fills up with them
    op.execute("UPDATE merchants SET rejection_told_at = CURRENT_TIMESTAMP "
               "WHERE status = 'REJECTED'")
    op.add_column("users", sa.Column("notice_mode", sa.String(length=16), nullable=False,
                                     server_default="immediate"))
    op.create_table(
        "merchant_notes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("merchant_id", sa.Integer(), nullable=False),
        sa.Column("author_id", sa.Integer(), nullable=True),
        sa.Column("author_label", sa.String(length=254), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["merchant_id"], ["merchants.id"],
                                name=op.f("fk_merchant_notes_merchant_id_merchants"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["author_id"], ["users.id"],
                                name=op.f("fk_merchant_notes_author_id_users"),
                                ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_merchant_notes")),
    )
    op.create_index(op.f("ix_merchant_notes_merchant_id"), "merchant_notes", ["merchant_id"])
    op.create_table(
        "notices",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("merchant_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("status", sa.String(length=32), nullable=True),
        sa.Column("webhook_event_id", sa.Integer(), nullable=True),
        sa.Column("by_user_id", sa.Integer(), nullable=True),
        sa.Column("note_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("read_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("mail_state", sa.String(length=16), nullable=False),
        sa.Column("mail_claimed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("mailed_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"],
                                name=op.f("fk_notices_user_id_users"), ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["merchant_id"], ["merchants.id"],
                                name=op.f("fk_notices_merchant_id_merchants"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["by_user_id"], ["users.id"],
                                name=op.f("fk_notices_by_user_id_users"), ondelete="SET NULL"),
        sa.ForeignKeyConstraint(["note_id"], ["merchant_notes.id"],
                                name=op.f("fk_notices_note_id_merchant_notes"),
                                ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_notices")),
    )
    op.create_index(op.f("ix_notices_merchant_id"), "notices", ["merchant_id"])
    op.create_index("ix_notices_user_id_read_at", "notices", ["user_id", "read_at"])
    op.create_index("ix_notices_mail_state", "notices", ["mail_state"])


def downgrade() -> None:
    op.drop_index("ix_notices_mail_state", table_name="notices")
    op.drop_index("ix_notices_user_id_read_at", table_name="notices")
    op.drop_index(op.f("ix_notices_merchant_id"), table_name="notices")
    op.drop_table("notices")
    op.drop_index(op.f("ix_merchant_notes_merchant_id"), table_name="merchant_notes")
    op.drop_table("merchant_notes")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("notice_mode")
    op.drop_column("merchants", "rejection_told_at")
    op.drop_index("ix_merchants_owner_id", table_name="merchants")
    op.drop_column("merchants", "owner_id")
