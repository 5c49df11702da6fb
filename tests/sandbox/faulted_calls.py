"""What the fault tests call and probe: the category look-up's path, a repeated create."""

from __future__ import annotations

import pytest

from portal.gateway.errors import ValidationFailed
from portal.gateway.onboarding.client import OnboardingClient
from portal.gateway.onboarding.operations import OPERATIONS

CATEGORIES = OPERATIONS["get_business_categories"].path


def already_used(client: OnboardingClient, body: dict) -> list[str]:
    """The fields a second create with the same body is refused on (reconciliation's probe)."""
    with pytest.raises(ValidationFailed) as refused:
        client.create_onboarding(body)
    return sorted(e.field for e in refused.value.field_errors)
