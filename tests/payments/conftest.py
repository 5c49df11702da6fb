"""Fixtures of the payments pages: an approved merchant, its credentials made through the page
(and so registered with the loopback sandbox), the hosted page driven with requests."""

from __future__ import annotations

from pathlib import Path

import pytest

from portal.core.config import Settings
from tests.payments.support import authorised_payment, browser, credentials, merchant_id
from tests.support.settings import with_payments

#: The support modules' fixtures this folder's tests use.
__all__ = ["browser", "credentials", "merchant_id"]


@pytest.fixture(autouse=True)
def every_answer_dialect(answer_dialect: str) -> str:
    """Every payments test runs twice: the sandbox answering in the contract's shapes, then in
    the gateway docs' (docs/gateway-contract.md, "Reading answers"); the value is the dialect's
    name."""
    return answer_dialect


@pytest.fixture
def settings(settings: Settings, sandbox, tmp_path: Path) -> Settings:
    """The suite's settings with a credentials key and the sandbox's published gateway key."""
    return with_payments(settings, sandbox, tmp_path)


@pytest.fixture
def authorised(browser, merchant_id, credentials) -> int:
    """An authorised hold of 1500.00 INR; returns the payment's id."""
    payment_id, _ = authorised_payment(browser, merchant_id)
    return payment_id


