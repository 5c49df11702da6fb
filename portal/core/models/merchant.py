"""A sub-merchant being onboarded, as the portal remembers it between gateway calls."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import JSON, Boolean, Index, Integer, String, false, text
from sqlalchemy.orm import Mapped, mapped_column, validates

from portal.core import clock
from portal.core.db import Base
from portal.core.encryption import current_cipher
from portal.core.models.types import EncryptedJSON, EncryptedText, UTCDateTime
from portal.gateway.rules import mask


class CreateState(StrEnum):
    """Where the create call (step 1) stands."""

    DRAFT = "draft"
    CREATED = "created"
    #: The create was sent and no answer came back: it may or may not have landed.
    OUTCOME_UNKNOWN = "outcome_unknown"
    #: A retry with the same id was refused as already used: the first create probably landed.
    NEEDS_RECONCILE = "needs_reconcile"


class Merchant(Base):
    """One onboarding record: identifiers, the gateway's last answer, and local bookkeeping."""

    __tablename__ = "merchants"
    __table_args__ = (
        # the dashboard's counts per status (and idle count) read this index only
        Index("ix_merchants_status_last_activity_at", "status", "last_activity_at"),
        # owned merchants only: "owner_id = ?" uses it even where most merchants have no owner
        # (SQLite's statistics would otherwise show one value, NULL, and scan the table)
        Index("ix_merchants_owner_id", "owner_id", sqlite_where=text("owner_id IS NOT NULL"),
              postgresql_where=text("owner_id IS NOT NULL")),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    external_onboarding_id: Mapped[str] = mapped_column(String(64), unique=True)
    onboarding_id: Mapped[str | None] = mapped_column(String(64), unique=True)
    #: The full PAN, needed to send the create; stored encrypted, shown and logged only through
    #: ``pan_masked``.
    pan: Mapped[str] = mapped_column(EncryptedText)
    #: The PAN's keyed blind index (HMAC): what a search by full PAN compares.
    pan_index: Mapped[str | None] = mapped_column(String(64), index=True)
    display_name: Mapped[str] = mapped_column(String(200), default="")
    legal_name: Mapped[str] = mapped_column(String(200), default="")
    #: The status on the gateway's machine (docs/gateway-contract.md, "Partner onboarding"); it
    #: only moves forward.
    status: Mapped[str | None] = mapped_column(String(32))
    #: The status as the gateway last named it (UNDER_REVIEW, ACCEPTED, or a name not known).
    gateway_status: Mapped[str | None] = mapped_column(String(64))
    create_state: Mapped[str] = mapped_column(String(20), default=CreateState.DRAFT)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=clock.utcnow)
    last_activity_at: Mapped[datetime] = mapped_column(
        UTCDateTime, default=clock.utcnow, index=True
    )
    checklist: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    #: What was chosen before step 1 to list what the merchant will need: ``entityType``,
    #: ``sector`` and ``products`` (``portal.domain.requirements``); the steps' drafts take
    #: over the entity type and products once they hold them.
    requirement_choice: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    #: The last website check's result and date (``portal.domain.website_check``); {}: none.
    website_check: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    #: The gateway's pending document keys; encrypted, as they embed owners' PANs.
    documents_outstanding: Mapped[list[str]] = mapped_column(EncryptedJSON, default=list)
    penny_drop_status: Mapped[str | None] = mapped_column(String(16))
    name_at_bank: Mapped[str | None] = mapped_column(String(200))
    #: The merchant's id at the gateway, the ``merchant_id`` of a verified acceptance event
    #: (``portal.domain.onboarding.merchant_ids``), kept once a status read confirmed the approval:
    #: offered as the MID on the payment credentials.
    gateway_mid: Mapped[str | None] = mapped_column(String(64))
    #: The gateway's other id for the merchant (VIRTUAL_ACCOUNT_PROVISIONED's ``ucic_id``), kept
    #: as sent beside ``gateway_mid``, never written into it.
    gateway_ucic_id: Mapped[str | None] = mapped_column(String(64))
    #: The sandbox scenario last chosen to fill this merchant's steps (sandbox only), kept so
    #: every step's page offers it until someone chooses another.
    sandbox_scenario: Mapped[str | None] = mapped_column(String(32))
    #: The user who looks after this merchant (``portal.features.ownership``); None: nobody yet. A
    #: user id without a foreign key (users are deactivated, never deleted), so the column is
    #: added without rebuilding ``merchants`` on SQLite (whose triggers 0019 and 0020 made).
    owner_id: Mapped[int | None] = mapped_column(Integer)
    #: When the owner noted that the merchant was told of its rejection
    #: (``portal.features.worklist``).
    rejection_told_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    #: What the review asks for (the status answer's ``rfiDetails``), as the gateway sent it;
    #: encrypted, as it may name owners and their PANs. When it was too large to keep whole,
    #: its JSON text's beginning, and ``rfi_details_cut`` is set.
    rfi_details: Mapped[Any] = mapped_column(EncryptedJSON, nullable=True)
    rfi_details_cut: Mapped[bool] = mapped_column(Boolean, default=False,
                                                  server_default=false())
    #: Since when new payments are stopped (a pause or a deactivation is open), else None;
    #: a hold's claim reads it in the same UPDATE that a pause writes (``portal.domain.pausing``).
    payments_stopped_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    #: Since when the merchant is deactivated, else None: no reminders, its retention clock.
    deactivated_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    #: The language of the merchant's pages and emails ops chose (``portal.core.languages``);
    #: a language the merchant picks on their link's page comes first (``merchant_links``).
    language: Mapped[str] = mapped_column(String(8), default="en", server_default="en")

    @validates("pan")
    def _index_pan(self, _key: str, pan: str) -> str:
        """Keep the blind index in step with the PAN it is computed from."""
        self.pan_index = current_cipher().pan_index(pan)
        return pan

    @property
    def pan_masked(self) -> str:
        """The PAN as it may be shown and logged."""
        return mask(self.pan)

    @property
    def name(self) -> str:
        """The name the portal shows its staff: the one typed at creation (the portal's own,
        never replaced by what the gateway holds), else the legal name, else the id."""
        return self.display_name or self.legal_name or self.external_onboarding_id

    @property
    def public_name(self) -> str:
        """The name the merchant knows itself by (its own pages): the legal name once sent."""
        return self.legal_name or self.display_name or self.external_onboarding_id

    def touch(self) -> None:
        """Record activity now (the list sorts and flags stale merchants by it)."""
        self.last_activity_at = clock.utcnow()
