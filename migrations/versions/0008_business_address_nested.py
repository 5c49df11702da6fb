"""Business details nest the addresses under ``address``; the gateway's own status name is kept.

Contract revision 2: the business-details request carries ``address{isOperatingSameAsRegistered,
businessRegisteredAddress, businessOperatingAddress}``. Business drafts (form data), the
field paths of their last refusal, and queued business sends stored in the flat shape are
rewritten to the nested one, so nothing typed before the upgrade is lost or sent flat.

``merchants.gateway_status`` keeps the status name as the gateway last reported it (it may be a
name such as UNDER_REVIEW, or one the portal does not know); ``status`` stays on the contract's
machine.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-23
"""
from collections.abc import Callable, Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ADDRESS = "address"
#: The fields revision 1 sent flat and revision 2 sends under ``address``.
ADDRESS_FIELDS = ("isOperatingSameAsRegistered", "businessRegisteredAddress",
                  "businessOperatingAddress")
BUSINESS = "business"

drafts = sa.table("step_drafts", sa.column("id", sa.Integer), sa.column("step", sa.String),
                  sa.column("payload", sa.JSON), sa.column("last_error", sa.JSON))
outbox = sa.table("outbox_items", sa.column("id", sa.Integer), sa.column("step", sa.String),
                  sa.column("payload", sa.JSON))


def nest(data: Any) -> Any:
    """Flat business data -> nested; nested data (or anything else) is returned unchanged."""
    if not isinstance(data, dict) or not any(key in data for key in ADDRESS_FIELDS):
        return data
    moved = {key: data[key] for key in ADDRESS_FIELDS if key in data}
    rest = {key: value for key, value in data.items() if key not in ADDRESS_FIELDS}
    return {**rest, ADDRESS: {**(rest.get(ADDRESS) or {}), **moved}}


def flatten(data: Any) -> Any:
    """Nested business data -> flat (the downgrade)."""
    if not isinstance(data, dict) or not isinstance(data.get(ADDRESS), dict):
        return data
    rest = {key: value for key, value in data.items() if key != ADDRESS}
    return {**rest, **data[ADDRESS]}


def nest_path(path: str) -> str:
    """A refusal's field path in the nested shape: ``businessRegisteredAddress.zipcode`` ->
    ``address.businessRegisteredAddress.zipcode``."""
    return f"{ADDRESS}.{path}" if path.split(".", 1)[0] in ADDRESS_FIELDS else path


def flat_path(path: str) -> str:
    """A refusal's field path in the flat shape (the downgrade)."""
    return path.removeprefix(f"{ADDRESS}.")


def _with_paths(last_error: Any, change: Callable[[str], str]) -> Any:
    if not isinstance(last_error, dict) or not last_error.get("fields"):
        return last_error
    fields = [{**item, "field": change(str(item.get("field") or ""))}
              if isinstance(item, dict) else item for item in last_error["fields"]]
    return {**last_error, "fields": fields}


def _rewrite(shape: Callable[[Any], Any], path: Callable[[str], str]) -> None:
    bind = op.get_bind()
    for row in bind.execute(sa.select(drafts.c.id, drafts.c.payload, drafts.c.last_error)
                            .where(drafts.c.step == BUSINESS)).all():
        payload, last_error = shape(row.payload), _with_paths(row.last_error, path)
        if (payload, last_error) != (row.payload, row.last_error):
            bind.execute(drafts.update().where(drafts.c.id == row.id)
                         .values(payload=payload, last_error=last_error))
    for row in bind.execute(sa.select(outbox.c.id, outbox.c.payload)
                            .where(outbox.c.step == BUSINESS)).all():
        payload = shape(row.payload)
        if payload != row.payload:
            bind.execute(outbox.update().where(outbox.c.id == row.id).values(payload=payload))


def upgrade() -> None:
    with op.batch_alter_table("merchants") as batch:
        batch.add_column(sa.Column("gateway_status", sa.String(length=64), nullable=True))
    _rewrite(nest, nest_path)


def downgrade() -> None:
    _rewrite(flatten, flat_path)
    with op.batch_alter_table("merchants") as batch:
        batch.drop_column("gateway_status")
