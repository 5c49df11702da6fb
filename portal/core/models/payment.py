"""Authorize-only payments taken for an approved merchant, their refunds, and the merchant's
payments credentials (MID, kid and the RSA key pair that signs every payments call)."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from enum import StrEnum
from typing import Any

from sqlalchemy import JSON, BigInteger, CheckConstraint, ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column, relationship, validates

from portal.core import clock
from portal.core.db import Base
from portal.core.models.types import UTCDateTime

#: The local status of a payment whose initiate has not been answered yet.
PENDING = "PENDING"
#: An amount in these parts of a unit is a whole number (the gateway takes up to 4 decimals).
AMOUNT_SCALE = 10_000


#: The largest whole number a BIGINT holds.
_BIGINT_MAX = 2**63 - 1


def units_of(amount: str | Decimal | None) -> int | None:
    """An amount as a whole number of ten-thousandths, what a search by amount compares
    ("1250.5" and "1250.50" are both 12505000); None for no amount, or one that is not a
    number of at most 4 decimals."""
    if amount is None:
        return None
    try:
        value = Decimal(str(amount).strip()) * AMOUNT_SCALE
    except ArithmeticError:
        return None
    if not value.is_finite() or value != value.to_integral_value() or abs(value) > _BIGINT_MAX:
        return None
    return int(value)


def searched_email(email: object) -> str | None:
    """An email as it is kept and compared for search: trimmed and lower-cased; None for
    none."""
    return (email.strip().lower()[:254] or None) if isinstance(email, str) else None


def name_in(payload: dict[str, Any] | None) -> str | None:
    """The guest's name in an initiate body: first and last, from the billing details, else
    the customer data; None when it names nobody."""
    body = payload if isinstance(payload, dict) else {}
    for part in ((body.get("paymentData") or {}).get("billingData"), body.get("customerData")):
        part = part if isinstance(part, dict) else {}
        name = " ".join(str(part.get(key) or "").strip() for key in ("firstName", "lastName"))
        if name.strip():
            return " ".join(name.split())[:200]
    return None


def email_in(payload: dict[str, Any] | None) -> str | None:
    """The customer's email in an initiate body (billing, else customer data), as searched."""
    body = payload if isinstance(payload, dict) else {}
    billing = (body.get("paymentData") or {}).get("billingData") or {}
    return searched_email(billing.get("emailId")
                          or (body.get("customerData") or {}).get("emailId"))


class ActionState(StrEnum):
    """Whether a gateway call (initiate, capture, reverse, refund) is in flight for a payment."""

    IDLE = "idle"
    #: A call was claimed and is being sent; no second call may start.
    SENDING = "sending"
    #: The call was sent and its answer lost: read the status before anything else.
    UNKNOWN = "unknown"


class RefundState(StrEnum):
    """Where one refund stands."""

    SENDING = "sending"
    SENT = "sent"
    UNKNOWN = "unknown"
    FAILED = "failed"


class PortfolioKey(Base):
    """The partner's one portfolio (parent MID) key: it signs for every sub-merchant that uses it.

    The official SDK's ``glocalMerchant.parentMid``: the parent MID's key pair, whose private half
    is stored only Fernet-encrypted.
    """

    __tablename__ = "portfolio_keys"

    id: Mapped[int] = mapped_column(primary_key=True)
    parent_mid: Mapped[str] = mapped_column(String(64))
    kid: Mapped[str] = mapped_column(String(128))
    public_key_pem: Mapped[str] = mapped_column(Text)
    private_key_encrypted: Mapped[str] = mapped_column(Text)
    #: ``generated`` in the portal or ``imported`` from a PEM ops pasted.
    origin: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=clock.utcnow)
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))

    def __repr__(self) -> str:
        return f"<PortfolioKey parent_mid={self.parent_mid} kid={self.kid}>"


class PaymentCredentials(Base):
    """One merchant's payments identity: its MID and either its own key pair (the private half
    stored only Fernet-encrypted) or the partner's portfolio key."""

    __tablename__ = "payment_credentials"
    __table_args__ = (
        CheckConstraint(
            "(portfolio_key_id IS NULL AND kid IS NOT NULL AND public_key_pem IS NOT NULL"
            " AND private_key_encrypted IS NOT NULL AND origin IS NOT NULL)"
            " OR (portfolio_key_id IS NOT NULL AND kid IS NULL AND public_key_pem IS NULL"
            " AND private_key_encrypted IS NULL AND origin IS NULL)",
            name="own_key_or_portfolio"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    merchant_id: Mapped[int] = mapped_column(
        ForeignKey("merchants.id", ondelete="CASCADE"), unique=True
    )
    mid: Mapped[str] = mapped_column(String(64))
    #: The merchant's own key; all four are empty when it signs with the portfolio key.
    kid: Mapped[str | None] = mapped_column(String(128))
    public_key_pem: Mapped[str | None] = mapped_column(Text)
    private_key_encrypted: Mapped[str | None] = mapped_column(Text)
    #: ``generated`` in the portal or ``imported`` from a PEM ops pasted.
    origin: Mapped[str | None] = mapped_column(String(16))
    portfolio_key_id: Mapped[int | None] = mapped_column(
        ForeignKey("portfolio_keys.id", ondelete="RESTRICT"), index=True)
    portfolio_key: Mapped[PortfolioKey | None] = relationship(lazy="joined")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=clock.utcnow)
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))

    def __repr__(self) -> str:
        return f"<PaymentCredentials merchant={self.merchant_id} mid={self.mid} kid={self.kid}>"


class Payment(Base):
    """One hold of funds: what was asked, what the gateway last said, and any call in flight.

    ``action_nonce`` is the one-time token every action form carries; claiming an action swaps it
    and moves ``action_state`` from idle to sending in one conditional UPDATE, so two submissions
    can never both reach the gateway.
    """

    __tablename__ = "payments"
    __table_args__ = (
        CheckConstraint("action_state IN ('idle', 'sending', 'unknown')", name="action_state"),
        # the list and its search read a page in creation order within a merchant or status,
        # and the holds close to expiry by when they were authorised
        Index("ix_payments_merchant_id_created_at", "merchant_id", "created_at"),
        Index("ix_payments_status_created_at", "status", "created_at"),
        Index("ix_payments_status_authorized_at", "status", "authorized_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    #: Indexed first in ix_payments_merchant_id_created_at.
    merchant_id: Mapped[int] = mapped_column(ForeignKey("merchants.id", ondelete="CASCADE"))
    merchant_txn_id: Mapped[str] = mapped_column(String(50), unique=True)
    merchant_unique_id: Mapped[str] = mapped_column(String(40), unique=True)
    #: The payment's id at the gateway, the initiate's (in 2025 an order id ``gl_o-...``): what
    #: every later call names and callbacks and status answers are matched by.
    gid: Mapped[str | None] = mapped_column(String(64), unique=True)
    #: The gateway's second id of the transaction (a token's ``x-gl-gid`` when it differs from
    #: the order id), kept once a gateway-signed token shows it; it matches only this payment.
    transaction_gid: Mapped[str | None] = mapped_column(String(64), unique=True)
    #: Indexed first in ix_payments_status_created_at and ix_payments_status_authorized_at.
    status: Mapped[str] = mapped_column(String(32), default=PENDING)
    #: The status word the gateway last reported, as it said it: a word the portal does not
    #: know is kept and shown here while ``status`` stays where it was.
    gateway_status: Mapped[str] = mapped_column(String(64), default="")
    #: When the portal first learned the hold was authorised (its expiry counts from here).
    authorized_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    #: When the status poll reads this payment next; None once nothing more can change on its
    #: own (captured, reversed, declined, ...).
    next_poll_at: Mapped[datetime | None] = mapped_column(UTCDateTime, index=True)
    #: Status reads in a row that changed nothing: each waits longer before the next.
    unchanged_polls: Mapped[int] = mapped_column(default=0)
    amount: Mapped[str] = mapped_column(String(24))
    #: ``amount`` in ten-thousandths, kept in step with it: what a search by amount compares.
    amount_units: Mapped[int | None] = mapped_column(BigInteger, index=True)
    currency: Mapped[str] = mapped_column(String(3))
    captured_amount: Mapped[str | None] = mapped_column(String(24))
    #: The capture's and the reversal's own merchantTxnId and the gid of the gateway's answer
    #: to each (the gateway's support asks for it): their rows of the ledger.
    capture_txn_id: Mapped[str | None] = mapped_column(String(50))
    capture_gid: Mapped[str | None] = mapped_column(String(64))
    reversal_txn_id: Mapped[str | None] = mapped_column(String(50))
    reversal_gid: Mapped[str | None] = mapped_column(String(64))
    #: The gateway approved only part of the amount (a partial-approval reason code): a person
    #: looks before anything is captured, and never more than ``confirmed_amount``.
    partial_approval: Mapped[bool] = mapped_column(default=False)
    #: The amount the last status read of the authorisation named.
    confirmed_amount: Mapped[str | None] = mapped_column(String(24))
    #: When a status read first said CONDITIONAL_DECLINE: the payment is read again for a
    #: while, as it may still be authorised.
    soft_declined_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    #: When a payment declined for now turned out authorised: its owner captures or releases
    #: it (the worklist shows it until then).
    late_authorised_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    #: When the gateway's status of this payment was last read (one read per 5 seconds at
    #: most), and rate-limit answers in a row since (each waits twice as long).
    last_read_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    rate_limited_reads: Mapped[int] = mapped_column(default=0)
    #: The initiate body as sent (customer and order data), kept for a retry with the same ids.
    #: Stored as plain JSON, as the gateway receives it (customer contacts are not KYC data).
    request_payload: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    #: The customer's email from ``request_payload``, lower-cased and kept in step with it:
    #: what a search by email compares (plain, as the payload beside it is).
    customer_email: Mapped[str | None] = mapped_column(String(254), index=True)
    #: The guest's first and last name from ``request_payload``, kept in step with it: what the
    #: list and the payment page show, and a search by name finds.
    customer_name: Mapped[str | None] = mapped_column(String(200))
    #: The payment this one is the new link for (same customer and amount): a declined one, or
    #: a hold close to expiry held again. Its page says "replaces ..." ("holds again ..."), and
    #: that one's "a new link was sent as ..." ("held again as ..."); one per payment.
    replaces_payment_id: Mapped[int | None] = mapped_column(index=True, unique=True)
    redirect_url: Mapped[str | None] = mapped_column(Text)
    #: Pre-authenticated: never logged, never shown.
    status_url: Mapped[str | None] = mapped_column(Text)
    reason_code: Mapped[str] = mapped_column(String(32), default="")
    message: Mapped[str] = mapped_column(String(300), default="")
    action_nonce: Mapped[str] = mapped_column(String(64))
    action_state: Mapped[str] = mapped_column(String(16), default=ActionState.IDLE)
    action_name: Mapped[str | None] = mapped_column(String(16))
    action_started_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    #: The merchantTxnId of the capture, reversal or refund in flight (or last sent): a lost
    #: answer is settled by a status read of it.
    action_txn_id: Mapped[str | None] = mapped_column(String(50))
    #: The amount that call sent (a capture's), kept as our own ledger.
    action_amount: Mapped[str | None] = mapped_column(String(24))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=clock.utcnow, index=True)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=clock.utcnow)
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))

    @validates("amount")
    def _index_amount(self, _key: str, amount: str) -> str:
        """Keep ``amount_units`` in step with the amount it is computed from."""
        self.amount_units = units_of(amount)
        return amount

    @validates("request_payload")
    def _index_email(self, _key: str, payload: dict[str, Any]) -> dict[str, Any]:
        """Keep ``customer_email`` and ``customer_name`` in step with the body they are read
        from."""
        self.customer_email = email_in(payload)
        self.customer_name = name_in(payload)
        return payload

    @property
    def authorised(self) -> Decimal:
        """The amount held."""
        return Decimal(self.amount)

    def __repr__(self) -> str:
        return f"<Payment {self.id} {self.merchant_txn_id} {self.status}>"


class PaymentRefund(Base):
    """One refund of a captured payment, with its own merchantTxnId."""

    __tablename__ = "payment_refunds"

    id: Mapped[int] = mapped_column(primary_key=True)
    payment_id: Mapped[int] = mapped_column(
        ForeignKey("payments.id", ondelete="CASCADE"), index=True
    )
    merchant_txn_id: Mapped[str] = mapped_column(String(50), unique=True)
    #: The refund's own idempotency key at the gateway (refunds before revision 4 have none).
    merchant_unique_id: Mapped[str | None] = mapped_column(String(40), unique=True)
    #: The refund's own gid, when its answer names one other than the payment's.
    gid: Mapped[str | None] = mapped_column(String(64))
    #: The gateway's id of the refund (the docs' ``refundId``).
    refund_id: Mapped[str | None] = mapped_column(String(64))
    amount: Mapped[str] = mapped_column(String(24))
    state: Mapped[str] = mapped_column(String(16), default=RefundState.SENDING)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=clock.utcnow)
    #: The four-eyes request a second admin approved it under; None: sent without approval, so
    #: it counts toward FOUR_EYES_REFUND_ABOVE (``payments.approvals.refund_allowance``).
    approval_request_id: Mapped[int | None] = mapped_column(
        ForeignKey("approval_requests.id", ondelete="SET NULL"))
