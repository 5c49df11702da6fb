"""The onboarding status table: every status of the gateway's record has a complete row, and
what the portal derives from it (forward moves, locks, notices, labels, badges) follows it."""

from __future__ import annotations

from dataclasses import fields

import pytest

from portal.core.labels import label, status_group
from portal.core.onboarding_statuses import (
    FINAL_STATUSES,
    ROWS,
    TOLD_STATUSES,
    VERIFIED_STATUSES,
    StatusRow,
)
from portal.domain.onboarding.status_history import may_move
from portal.gateway.onboarding.vocabulary import OnboardingStatus


def test_every_status_has_a_row():
    assert set(ROWS) == set(OnboardingStatus)


@pytest.mark.parametrize("code", sorted(ROWS))
def test_every_row_fills_every_column(code):
    row = ROWS[code]
    assert row.code == code and row.label.strip() and row.label != code
    for column in fields(StatusRow):
        assert getattr(row, column.name) is not None
    assert label(code) == row.label and status_group(code) == row.badge


def test_the_groups_follow_the_columns():
    assert {OnboardingStatus.APPROVED, OnboardingStatus.REJECTED} == FINAL_STATUSES
    assert {OnboardingStatus.RFI, *FINAL_STATUSES} == TOLD_STATUSES
    assert {OnboardingStatus.PENDING_REVIEW, OnboardingStatus.RFI,
                                 *FINAL_STATUSES} == VERIFIED_STATUSES


@pytest.mark.parametrize(("old", "new", "allowed"), [
    (None, OnboardingStatus.INITIATED, True),
    (OnboardingStatus.INITIATED, OnboardingStatus.IN_PROGRESS, True),
    (OnboardingStatus.PENDING_REVIEW, OnboardingStatus.IN_PROGRESS, False),
    (OnboardingStatus.RFI, OnboardingStatus.PENDING_REVIEW, True),
    (OnboardingStatus.RFI, OnboardingStatus.APPROVED, True),
    (OnboardingStatus.RFI, OnboardingStatus.IN_PROGRESS, False),
    (OnboardingStatus.APPROVED, OnboardingStatus.RFI, False),
    (OnboardingStatus.PENDING_REVIEW, OnboardingStatus.RFI, True),
])
def test_moves_go_forward_but_rfi_returns_to_review(old, new, allowed):
    assert may_move(old, new) is allowed
