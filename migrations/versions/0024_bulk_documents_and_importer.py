"""Bulk imports from the page carry documents and their importer: each row keeps the document
files staged from the ZIP uploaded beside its CSV, and each import the id of the admin who
started it (the actor of every audit entry the import writes, also in a worker).

Revision ID: 0024
Revises: 0023
Create Date: 2026-11-27
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0024"
down_revision: str | None = "0023"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("bulk_imports") as batch:
        batch.add_column(sa.Column("started_by_id", sa.Integer(), nullable=True))
        batch.create_foreign_key(op.f("fk_bulk_imports_started_by_id_users"), "users",
                                 ["started_by_id"], ["id"], ondelete="SET NULL")
    with op.batch_alter_table("bulk_import_rows") as batch:
        batch.add_column(sa.Column("documents", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("bulk_import_rows") as batch:
        batch.drop_column("documents")
    with op.batch_alter_table("bulk_imports") as batch:
        batch.drop_constraint(op.f("fk_bulk_imports_started_by_id_users"), type_="foreignkey")
        batch.drop_column("started_by_id")
