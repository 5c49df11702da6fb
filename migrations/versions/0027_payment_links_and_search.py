"""Payment links and payments you can find: ``payment_links`` (a hold's checkout emailed to the
customer as a portal link that mints the gateway's checkout when opened), and on ``payments``
the searched forms of the amount (``amount_units``, ten-thousandths) and of the customer's
email (``customer_email``, lower-cased, as the plain JSON body beside it holds it), with the
indexes the list reads a page through in creation order within a merchant or a status (which
take over from the single-column indexes on ``merchant_id`` and ``status``), and the holds
close to expiry by when they were authorised.

Payments already there get both search columns from their stored amount and body, a thousand
rows a statement.

Revision ID: 0027
Revises: 0026
Create Date: 2026-12-02
"""
from collections.abc import Sequence
from decimal import Decimal, InvalidOperation
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0027"
down_revision: str | None = "0026"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BATCH = 1000

payments = sa.table("payments", sa.column("id", sa.Integer), sa.column("amount", sa.String),
                    sa.column("request_payload", sa.JSON),
                    sa.column("amount_units", sa.BigInteger),
                    sa.column("customer_email", sa.String))


def _units(amount: str | None) -> int | None:
    """As ``portal.core.models.payment.units_of`` (a migration does not import the app's code)."""
    try:
        value = Decimal(str(amount).strip()) * 10_000 if amount is not None else None
    except InvalidOperation:
        return None
    if value is None or not value.is_finite() or value != value.to_integral_value() \
            or abs(value) > 2**63 - 1:
        return None
    return int(value)


def _email(payload: Any) -> str | None:
    """As ``portal.core.models.payment.email_in``."""
    body = payload if isinstance(payload, dict) else {}
    billing = (body.get("paymentData") or {}).get("billingData") or {}
    email = billing.get("emailId") or (body.get("customerData") or {}).get("emailId")
    return (email.strip().lower()[:254] or None) if isinstance(email, str) else None


def upgrade() -> None:
    op.add_column("payments", sa.Column("amount_units", sa.BigInteger(), nullable=True))
    op.add_column("payments", sa.Column("customer_email", sa.String(length=254), nullable=True))
    op.create_index("ix_payments_amount_units", "payments", ["amount_units"])
    op.create_index("ix_payments_customer_email", "payments", ["customer_email"])
    op.create_index("ix_payments_merchant_id_created_at", "payments",
                    ["merchant_id", "created_at"])
    op.create_index("ix_payments_status_created_at", "payments", ["status", "created_at"])
    op.create_index("ix_payments_status_authorized_at", "payments", ["status", "authorized_at"])
    op.drop_index("ix_payments_merchant_id", table_name="payments")
    op.drop_index("ix_payments_status", table_name="payments")
    _fill_search_columns()
    op.create_table(
        "payment_links",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("payment_id", sa.Integer(), nullable=False),
        sa.Column("nonce", sa.String(length=64), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_by_id", sa.Integer(), nullable=True),
        sa.Column("emailed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("emails_sent", sa.Integer(), nullable=False),
        sa.Column("email_failed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("opened_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("failure", sa.String(length=300), nullable=False),
        sa.Column("cancelled_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("cancelled_by_id", sa.Integer(), nullable=True),
        sa.CheckConstraint("state IN ('waiting', 'opening', 'opened', 'cancelled')",
                           name=op.f("ck_payment_links_state")),
        sa.ForeignKeyConstraint(["payment_id"], ["payments.id"],
                                name=op.f("fk_payment_links_payment_id_payments"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["created_by_id"], ["users.id"],
                                name=op.f("fk_payment_links_created_by_id_users"),
                                ondelete="SET NULL"),
        sa.ForeignKeyConstraint(["cancelled_by_id"], ["users.id"],
                                name=op.f("fk_payment_links_cancelled_by_id_users"),
                                ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_payment_links")),
        sa.UniqueConstraint("payment_id", name=op.f("uq_payment_links_payment_id")),
        sa.UniqueConstraint("nonce", name=op.f("uq_payment_links_nonce")),
    )


def _fill_search_columns() -> None:
    """Give the payments already there their searched amount and email."""
    connection = op.get_bind()
    last = 0
    while True:
        rows = connection.execute(
            sa.select(payments.c.id, payments.c.amount, payments.c.request_payload)
            .where(payments.c.id > last).order_by(payments.c.id).limit(BATCH)).all()
        if not rows:
            return
        connection.execute(
            payments.update().where(payments.c.id == sa.bindparam("row_id"))
            .values(amount_units=sa.bindparam("units"), customer_email=sa.bindparam("email")),
            [{"row_id": row.id, "units": _units(row.amount), "email": _email(row.request_payload)}
             for row in rows])
        last = rows[-1].id


def downgrade() -> None:
    op.drop_table("payment_links")
    op.create_index("ix_payments_status", "payments", ["status"])
    op.create_index("ix_payments_merchant_id", "payments", ["merchant_id"])
    op.drop_index("ix_payments_status_authorized_at", table_name="payments")
    op.drop_index("ix_payments_status_created_at", table_name="payments")
    op.drop_index("ix_payments_merchant_id_created_at", table_name="payments")
    op.drop_index("ix_payments_customer_email", table_name="payments")
    op.drop_index("ix_payments_amount_units", table_name="payments")
    with op.batch_alter_table("payments") as batch:
        batch.drop_column("customer_email")
        batch.drop_column("amount_units")
