"""An admin's version of a merchant email per language (issue 39): ``mail_templates`` keyed by
(key, language). The versions already there were written for every language; they become the
English ones, so a merchant reading Hindi gets the built-in Hindi text until an admin writes
one. Going back keeps the English versions only.

Revision ID: 0048
Revises: 0044
Create Date: 2026-12-03
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0048"
down_revision: str | None = "0044"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

PK = "pk_mail_templates"


def upgrade() -> None:
    with op.batch_alter_table("mail_templates") as batch_op:
        batch_op.add_column(sa.Column("language", sa.String(8), nullable=False,
                                      server_default="en"))
    with op.batch_alter_table("mail_templates") as batch_op:
        batch_op.alter_column("language", existing_type=sa.String(8), server_default=None)
        batch_op.drop_constraint(PK, type_="primary")
        batch_op.create_primary_key(PK, ["key", "language"])


def downgrade() -> None:
    op.execute(sa.text("DELETE FROM mail_templates WHERE language <> 'en'"))
    with op.batch_alter_table("mail_templates") as batch_op:
        batch_op.drop_constraint(PK, type_="primary")
        batch_op.create_primary_key(PK, ["key"])
        batch_op.drop_column("language")
