"""What the merchant reads of an asked document, one text per language (issue 39):
``document_asks.merchant_texts`` (a language code to the words ops wrote in it) replaces
``merchant_words``, a single text shown in whatever language the merchant's page was in.
Words written before are kept as the merchant's own language's (the one ops chose for them,
which the page they were written on showed).

Revision ID: 0050
Revises: 0048
Create Date: 2026-12-02
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0050"
down_revision: str | None = "0048"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

asks = sa.table("document_asks", sa.column("id", sa.Integer),
                sa.column("merchant_id", sa.Integer), sa.column("merchant_words", sa.Text),
                sa.column("merchant_texts", sa.JSON))
merchants = sa.table("merchants", sa.column("id", sa.Integer), sa.column("language", sa.String))


def upgrade() -> None:
    op.add_column("document_asks", sa.Column("merchant_texts", sa.JSON, nullable=True))
    bind = op.get_bind()
    written = bind.execute(
        sa.select(asks.c.id, asks.c.merchant_words, merchants.c.language)
        .join(merchants, merchants.c.id == asks.c.merchant_id)
        .where(asks.c.merchant_words.is_not(None), asks.c.merchant_words != "")).all()
    for ask_id, words, language in written:
        bind.execute(asks.update().where(asks.c.id == ask_id)
                     .values(merchant_texts={language or "en": words}))
    with op.batch_alter_table("document_asks") as batch:
        batch.drop_column("merchant_words")


def downgrade() -> None:
    op.add_column("document_asks", sa.Column("merchant_words", sa.Text, nullable=True))
    bind = op.get_bind()
    for ask_id, texts in bind.execute(sa.select(asks.c.id, asks.c.merchant_texts)
                                      .where(asks.c.merchant_texts.is_not(None))).all():
        first = next(iter(texts.values()), None) if texts else None
        bind.execute(asks.update().where(asks.c.id == ask_id).values(merchant_words=first))
    with op.batch_alter_table("document_asks") as batch:
        batch.drop_column("merchant_texts")
