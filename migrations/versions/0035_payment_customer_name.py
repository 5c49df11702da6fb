"""The guest's name on each payment: ``payments.customer_name``, the first and last name of the
initiate body's billing details (else its customer data), kept in step with the body by the
model, filled here for the payments made before.

Revision ID: 0035
Revises: 0034
Create Date: 2026-12-02
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from portal.core.models.payment import name_in

revision: str = "0035"
down_revision: str | None = "0034"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

payments = sa.table("payments", sa.column("id", sa.Integer),
                    sa.column("request_payload", sa.JSON),
                    sa.column("customer_name", sa.String(200)))


def upgrade() -> None:
    op.add_column("payments", sa.Column("customer_name", sa.String(200), nullable=True))
    connection = op.get_bind()
    rows = connection.execute(sa.select(payments.c.id, payments.c.request_payload)).all()
    for payment_id, payload in rows:
        name = name_in(payload)
        if name:
            connection.execute(sa.update(payments).where(payments.c.id == payment_id)
                               .values(customer_name=name))


def downgrade() -> None:
    op.drop_column("payments", "customer_name")
