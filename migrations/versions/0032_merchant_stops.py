"""Pausing and deactivating live merchants (issue 38, "After approval"): ``merchant_stops``, one
row per pause or deactivation with its reason, note, who and when, and who lifted it; and on
``merchants`` the two facts the rules read in one row: ``payments_stopped_at`` (a hold's claim
and a pause write the same row, so they serialise) and ``deactivated_at``; ``notices.stop_id``,
the pause or deactivation a notice tells its owner of.

Columns are added with ``op.add_column`` (no batch rebuild of ``merchants`` on SQLite, which
would drop the triggers of 0019 and 0020).

Revision ID: 0032
Revises: 0031
Create Date: 2026-12-02
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0032"
down_revision: str | None = "0031"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "merchant_stops",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("merchant_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("reason", sa.String(32), nullable=False),
        sa.Column("note", sa.Text(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("by_id", sa.Integer(), nullable=True),
        sa.Column("by_name", sa.String(254), nullable=False),
        sa.Column("lifted_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("lifted_by_name", sa.String(254), nullable=False),
        sa.Column("lift_note", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["merchant_id"], ["merchants.id"],
                                name=op.f("fk_merchant_stops_merchant_id_merchants"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["by_id"], ["users.id"],
                                name=op.f("fk_merchant_stops_by_id_users"), ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_merchant_stops")),
    )
    op.create_index(op.f("ix_merchant_stops_merchant_id"), "merchant_stops", ["merchant_id"])
    op.add_column("merchants", sa.Column("payments_stopped_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("merchants", sa.Column("deactivated_at", sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table("notices") as batch:
        batch.add_column(sa.Column("stop_id", sa.Integer(), nullable=True))
        batch.create_foreign_key(op.f("fk_notices_stop_id_merchant_stops"), "merchant_stops",
                                 ["stop_id"], ["id"], ondelete="SET NULL")


def downgrade() -> None:
    with op.batch_alter_table("notices") as batch:
        batch.drop_constraint(op.f("fk_notices_stop_id_merchant_stops"), type_="foreignkey")
        batch.drop_column("stop_id")
    op.drop_column("merchants", "deactivated_at")
    op.drop_column("merchants", "payments_stopped_at")
    op.drop_index(op.f("ix_merchant_stops_merchant_id"), table_name="merchant_stops")
    op.drop_table("merchant_stops")
