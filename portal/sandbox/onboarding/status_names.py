"""How the sandbox names a record's status in its answers and webhooks.

By default the contract's names in ``merchantInfo.onboardingStatus``. A config can switch to the
variants some of the gateway's pages show (docs/gateway-facts.md A3): other names (``statusNames``,
e.g. ``{"PENDING_REVIEW": "UNDER_REVIEW", "APPROVED": "ACCEPTED"}``) and the status under
``merchantStatus`` (``statusKey``), so a client is tested against both readings. The records
themselves always hold the contract's status.
"""

from __future__ import annotations

from typing import Any

from portal.gateway.onboarding.vocabulary import OnboardingStatus
from portal.sandbox.common.config import SandboxConfig

#: Where the contract puts the status in ``merchantInfo``.
CONTRACT_KEY = "onboardingStatus"


def status_name(status: OnboardingStatus, config: SandboxConfig) -> str:
    """The name the configured gateway gives ``status``."""
    return config.statusNames.get(str(status), str(status))


def with_status_names(data: dict[str, Any], config: SandboxConfig) -> dict[str, Any]:
    """``data`` of a record operation with the status named and placed as configured."""
    info = data.get("merchantInfo")
    if not isinstance(info, dict) or info.get(CONTRACT_KEY) is None:
        return data
    status = info.pop(CONTRACT_KEY)
    info[config.statusKey] = status_name(OnboardingStatus(status), config)
    return data
