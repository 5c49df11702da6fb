"""The payments part of the portal's configuration: refunds' four eyes, the status poll, holds'
expiry, late outcomes and payment links (``portal.core.config.Settings`` inherits it, so the
documented table lists these first)."""

from __future__ import annotations

from decimal import Decimal

from pydantic_settings import BaseSettings, SettingsConfigDict

from portal.core.config_fields import OptionalAmount, PositiveHours, PositiveSeconds, variable


class PaymentSettings(BaseSettings):
    """The payments variables (see ``portal.core.config.Settings``)."""

    model_config = SettingsConfigDict(frozen=True, validate_by_name=True, validate_default=True,
                                      extra="ignore", case_sensitive=True)

    four_eyes_refund_above: OptionalAmount = variable(
        "FOUR_EYES_REFUND_ABOVE", Decimal(10000), "The most the refunds of one payment sent "
        "without a second admin may add up to within 30 days (in the payment's currency, major "
        "units as typed, e.g. `10000.00`); a refund that would take them past it waits for a "
        "second admin's approval on the Approvals page; empty: no refund does")
    payment_poll_seconds: PositiveSeconds = variable(
        "PAYMENT_POLL_SECONDS", 60, "How often the worker reads the gateway's status of payments "
        "not final yet (waiting for the customer, authorised, outcome unknown); one read again "
        "and again unchanged waits longer each time, up to an hour")
    hold_expiry_hours: PositiveHours = variable(
        "HOLD_EXPIRY_HOURS", 168, "Hours an authorisation holds the customer's funds before the "
        "issuer releases it (the gateway does not say; 7 days is the card networks' usual)")
    hold_warning_hours: PositiveHours = variable(
        "HOLD_WARNING_HOURS", 48, "Holds not captured this many hours before their expiry are "
        "flagged on the payments pages, the worklist and the dashboard (48 of 168: from day 5); "
        "a capture refused then shows the hold as expired")
    conditional_decline_hours: PositiveHours = variable(
        "CONDITIONAL_DECLINE_HOURS", 72, "Hours a payment declined for now (CONDITIONAL_DECLINE) "
        "is still read, as it may yet be authorised (then its owner is told)")
    payment_link_hours: PositiveHours = variable(
        "PAYMENT_LINK_HOURS", 168, "Hours a payment link emailed to a customer can be opened "
        "(resending it starts them again); the gateway's checkout it opens lasts 24 hours")
