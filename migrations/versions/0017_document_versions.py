"""Document versions: who uploaded each, the gateway's answer, when retention removed the file.

Revision ID: 0017
Revises: 0013
Create Date: 2026-11-23
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("stored_documents") as batch:
        batch.add_column(sa.Column("uploaded_by_id", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("gateway_answer", sa.String(length=500), nullable=False,
                                   server_default=""))
        batch.add_column(sa.Column("file_deleted_at", sa.DateTime(timezone=True), nullable=True))
        batch.create_foreign_key(op.f("fk_stored_documents_uploaded_by_id_users"), "users",
                                 ["uploaded_by_id"], ["id"], ondelete="SET NULL")
    with op.batch_alter_table("stored_documents") as batch:
        batch.alter_column("gateway_answer", server_default=None)


def downgrade() -> None:
    with op.batch_alter_table("stored_documents") as batch:
        batch.drop_constraint(op.f("fk_stored_documents_uploaded_by_id_users"),
                              type_="foreignkey")
        batch.drop_column("file_deleted_at")
        batch.drop_column("gateway_answer")
        batch.drop_column("uploaded_by_id")
