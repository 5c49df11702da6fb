"""Contract revision 4 on payments: the gateway's second id of a payment
(``payments.transaction_gid``), the capture's and reversal's own merchantTxnId and answer gid,
a partial approval and the amount a status read confirmed, when a conditional decline was read
and when it was authorised after all, when the status was last read and how many rate-limit
answers came in a row; each refund's own merchantUniqueId; and the payment a notice is about
(``notices.payment_id``: a late authorisation's).

The two new unique columns are added in batch mode (SQLite rebuilds the table to add a unique
constraint); neither table has triggers, unlike ``merchants``.

Revision ID: 0029
Revises: 0028
Create Date: 2026-12-01
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0029"
down_revision: str | None = "0028"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_TEXT_COLUMNS = (("transaction_gid", 64), ("capture_txn_id", 50), ("capture_gid", 64),
                 ("reversal_txn_id", 50), ("reversal_gid", 64), ("confirmed_amount", 24))
_TIME_COLUMNS = ("soft_declined_at", "late_authorised_at", "last_read_at")


def upgrade() -> None:
    for name, length in _TEXT_COLUMNS:
        op.add_column("payments", sa.Column(name, sa.String(length=length), nullable=True))
    for name in _TIME_COLUMNS:
        op.add_column("payments", sa.Column(name, sa.DateTime(timezone=True), nullable=True))
    op.add_column("payments", sa.Column("partial_approval", sa.Boolean(), nullable=False,
                                        server_default=sa.false()))
    op.add_column("payments", sa.Column("rate_limited_reads", sa.Integer(), nullable=False,
                                        server_default="0"))
    with op.batch_alter_table("payments") as batch:
        batch.create_unique_constraint(op.f("uq_payments_transaction_gid"), ["transaction_gid"])
    with op.batch_alter_table("payment_refunds") as batch:
        batch.add_column(sa.Column("merchant_unique_id", sa.String(length=40), nullable=True))
        batch.create_unique_constraint(op.f("uq_payment_refunds_merchant_unique_id"),
                                       ["merchant_unique_id"])
    with op.batch_alter_table("notices") as batch:
        batch.add_column(sa.Column("payment_id", sa.Integer(), nullable=True))
        batch.create_foreign_key(op.f("fk_notices_payment_id_payments"), "payments",
                                 ["payment_id"], ["id"], ondelete="CASCADE")


def downgrade() -> None:
    with op.batch_alter_table("notices") as batch:
        batch.drop_constraint(op.f("fk_notices_payment_id_payments"), type_="foreignkey")
        batch.drop_column("payment_id")
    with op.batch_alter_table("payment_refunds") as batch:
        batch.drop_constraint(op.f("uq_payment_refunds_merchant_unique_id"), type_="unique")
        batch.drop_column("merchant_unique_id")
    with op.batch_alter_table("payments") as batch:
        batch.drop_constraint(op.f("uq_payments_transaction_gid"), type_="unique")
        for name in ("rate_limited_reads", "partial_approval", *_TIME_COLUMNS,
                     *(name for name, _ in _TEXT_COLUMNS)):
            batch.drop_column(name)
