"""The payment status table: every word the gateway's sources name has a complete row, and what
the portal derives from the table (forward moves, labels, badges, groups) follows it."""

from __future__ import annotations

from dataclasses import fields

import pytest

from portal.core.labels import label, status_group
from portal.core.models.payment import PENDING
from portal.core.payment_statuses import (
    AUTHORISED,
    CUSTOMER_APPROVED,
    POLLED,
    REFUNDABLE,
    ROWS,
    Badge,
    StatusRow,
)
from portal.domain.payments.status_moves import may_move
from portal.gateway.payments.words import FINAL_FAILURES, PaymentStatus


def test_every_status_word_and_ours_have_a_row():
    assert set(ROWS) == {PENDING, *PaymentStatus}


@pytest.mark.parametrize("code", sorted(ROWS))
def test_every_row_fills_every_column(code):
    row = ROWS[code]
    assert row.code == code
    assert row.label.strip() and row.label != code
    assert isinstance(row.badge, Badge)
    assert (row.path is None) != (row.reached_from is None), "on the path, or an end"
    for column in fields(StatusRow):
        assert getattr(row, column.name) is not None or column.name in ("path", "reached_from")


@pytest.mark.parametrize("code", sorted(ROWS))
def test_labels_and_badges_come_from_the_row(code):
    assert label(code, "payment_status") == ROWS[code].label
    expected = ROWS[code].badge
    assert status_group(code) == expected


def test_groups_follow_the_columns():
    assert {PaymentStatus.CAPTURE_STARTED, PaymentStatus.SENT_FOR_CAPTURE,
                          PaymentStatus.CAPTURED, PaymentStatus.SENT_FOR_REFUND} == REFUNDABLE
    assert {PaymentStatus.AUTHORIZED, *REFUNDABLE} == CUSTOMER_APPROVED
    assert CUSTOMER_APPROVED | {PaymentStatus.REVERSED, PaymentStatus.CANCELLED} == AUTHORISED
    assert PaymentStatus.CONDITIONAL_DECLINE in POLLED
    assert not POLLED & FINAL_FAILURES


@pytest.mark.parametrize(("old", "new", "allowed"), [
    (PENDING, PaymentStatus.INPROGRESS, True),
    (PaymentStatus.INPROGRESS, PaymentStatus.AUTHORIZED, True),
    (PaymentStatus.AUTHORIZED, PaymentStatus.INPROGRESS, False),
    (PaymentStatus.SENT_FOR_CAPTURE, PaymentStatus.AUTHORIZED, False),
    (PaymentStatus.SENT_FOR_CAPTURE, PaymentStatus.CAPTURED, True),
    (PaymentStatus.CAPTURE_STARTED, PaymentStatus.SENT_FOR_CAPTURE, False),
    (PaymentStatus.SENT_FOR_REFUND, PaymentStatus.CAPTURED, False),
    (PaymentStatus.INPROGRESS, PaymentStatus.GENERAL_DECLINE, True),
    (PaymentStatus.AUTHORIZED, PaymentStatus.GENERAL_DECLINE, False),
    (PaymentStatus.AUTHORIZED, PaymentStatus.EXPIRED, True),
    (PaymentStatus.SENT_FOR_CAPTURE, PaymentStatus.EXPIRED, False),
    (PaymentStatus.AUTHORIZED, PaymentStatus.REVERSED, True),
    (PaymentStatus.REVERSED, PaymentStatus.AUTHORIZED, False),
    (PaymentStatus.INPROGRESS, PaymentStatus.CONDITIONAL_DECLINE, True),
    (PaymentStatus.CONDITIONAL_DECLINE, PaymentStatus.AUTHORIZED, True),
    (PaymentStatus.CONDITIONAL_DECLINE, PaymentStatus.ISSUER_DECLINE, True),
    (PaymentStatus.CONDITIONAL_DECLINE, PaymentStatus.SENT_FOR_CAPTURE, False),
    (PaymentStatus.ISSUER_DECLINE, PaymentStatus.AUTHORIZED, False),
    (PaymentStatus.AUTHORIZED, "SETTLED_SOMEHOW", False),
])
def test_moves_go_forward_only(old, new, allowed):
    assert may_move(old, new) is allowed


def test_cancelled_releases_only_a_hold_whose_reversal_was_sent():
    assert not may_move(PaymentStatus.AUTHORIZED, PaymentStatus.CANCELLED)
    assert may_move(PaymentStatus.AUTHORIZED, PaymentStatus.CANCELLED, reversal_sent=True)
