"""The merchant answers what the gateway asks (issue 39.6): ``document_asks``, the wording ops
chose per asked document (the merchant's and their own); ``stored_documents.link_id``, the
merchant link an upload came through, and ``stored_documents.refusal``, why ops refused one,
in the merchant's words.

Added with ``op.add_column`` (no batch rebuild on SQLite).

Revision ID: 0042
Revises: 0047
Create Date: 2026-12-02
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0042"
down_revision: str | None = "0047"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "document_asks",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("merchant_id", sa.Integer(), nullable=False),
        sa.Column("doc_key", sa.Text(), nullable=False),
        sa.Column("merchant_words", sa.Text(), nullable=True),
        sa.Column("ops_words", sa.Text(), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_by", sa.String(254), nullable=False),
        sa.ForeignKeyConstraint(["merchant_id"], ["merchants.id"], ondelete="CASCADE",
                                name=op.f("fk_document_asks_merchant_id_merchants")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_document_asks")),
    )
    op.create_index(op.f("ix_document_asks_merchant_id"), "document_asks", ["merchant_id"])
    op.add_column("stored_documents", sa.Column("link_id", sa.Integer(), nullable=True))
    op.add_column("stored_documents", sa.Column("refusal", sa.String(500), nullable=True))


def downgrade() -> None:
    op.drop_column("stored_documents", "refusal")
    op.drop_column("stored_documents", "link_id")
    op.drop_index(op.f("ix_document_asks_merchant_id"), "document_asks")
    op.drop_table("document_asks")
