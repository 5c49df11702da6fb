"""Four-eyes tests: the payments pages' fixtures, with refunds above 1000 waiting for a second
admin, and a captured payment of 1500.00 INR."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from portal.core.config import Settings
from tests.payments.support import act, authorised_payment, browser, credentials, merchant_id
from tests.support.settings import with_payments

__all__ = ["browser", "credentials", "merchant_id"]

#: The four-eyes amount of these tests: HOLD's 1500.00 INR is above it.
ABOVE = Decimal(1000)


@pytest.fixture
def settings(settings: Settings, sandbox, tmp_path: Path) -> Settings:
    """Payments settings with refunds above ABOVE waiting for a second admin."""
    return with_payments(settings, sandbox, tmp_path).with_changes(four_eyes_refund_above=ABOVE)


@pytest.fixture
def captured(browser, merchant_id, credentials) -> int:
    """A payment of 1500.00 INR authorised and captured in full; its id."""
    payment_id, _ = authorised_payment(browser, merchant_id)
    act(browser, payment_id, "capture")
    return payment_id
