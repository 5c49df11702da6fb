"""Webhooks out to partners' software: their endpoints (``partner_endpoints``), the events the
portal writes as things happen (``partner_events``) and each event's delivery to each endpoint
(``partner_deliveries``).

Revision ID: 0044
Revises: 0043
Create Date: 2026-12-02
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0044"
down_revision: str | None = "0043"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "partner_endpoints",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("url", sa.String(500), nullable=False),
        sa.Column("description", sa.String(200), nullable=False),
        sa.Column("event_types", sa.JSON(), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("secret", sa.Text(), nullable=False),
        sa.Column("previous_secret", sa.Text(), nullable=True),
        sa.Column("previous_expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_by_id", sa.Integer(), nullable=True),
        sa.Column("disabled_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["created_by_id"], ["users.id"], ondelete="SET NULL",
                                name=op.f("fk_partner_endpoints_created_by_id_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_partner_endpoints")),
    )
    op.create_table(
        "partner_events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.String(40), nullable=False),
        sa.Column("type", sa.String(48), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("once_key", sa.String(120), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_partner_events")),
        sa.UniqueConstraint("event_id", name=op.f("uq_partner_events_event_id")),
        sa.UniqueConstraint("once_key", name=op.f("uq_partner_events_once_key")),
    )
    op.create_table(
        "partner_deliveries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("endpoint_id", sa.Integer(), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_status", sa.Integer(), nullable=True),
        sa.Column("last_error", sa.String(300), nullable=False),
        sa.Column("last_attempt_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("delivered_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["partner_events.id"], ondelete="CASCADE",
                                name=op.f("fk_partner_deliveries_event_id_partner_events")),
        sa.ForeignKeyConstraint(["endpoint_id"], ["partner_endpoints.id"], ondelete="CASCADE",
                                name=op.f("fk_partner_deliveries_endpoint_id_partner_endpoints")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_partner_deliveries")),
    )
    op.create_index(op.f("ix_partner_deliveries_event_id"), "partner_deliveries", ["event_id"])
    op.create_index(op.f("ix_partner_deliveries_endpoint_id"), "partner_deliveries",
                    ["endpoint_id"])
    op.create_index("ix_partner_deliveries_state_next_attempt_at", "partner_deliveries",
                    ["state", "next_attempt_at"])


def downgrade() -> None:
    op.drop_index("ix_partner_deliveries_state_next_attempt_at", "partner_deliveries")
    op.drop_index(op.f("ix_partner_deliveries_endpoint_id"), "partner_deliveries")
    op.drop_index(op.f("ix_partner_deliveries_event_id"), "partner_deliveries")
    op.drop_table("partner_deliveries")
    op.drop_table("partner_events")
    op.drop_table("partner_endpoints")
