"""Everything the sandbox holds, in one place: its config, its clock, its faults and one
resettable backend per API it emulates (``portal.sandbox.onboarding``, ``payments`` and the
verification page's sessions)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from portal.clock import Clock
from portal.sandbox.config import SandboxConfig
from portal.sandbox.faults import FaultInjector

#: Key of the onboarding backend in ``SandboxState.backends``.
BACKEND_NAME = "onboarding"
#: Key of the verification page's sessions in ``SandboxState.backends``.
SESSIONS_NAME = "verification"
#: Key of the payments backend in ``SandboxState.backends``.
PAYMENTS_NAME = "payments"


@dataclass
class SandboxState:
    """Everything the sandbox holds: its config, its clock, its faults and one backend per API."""

    config: SandboxConfig
    clock: Clock
    faults: FaultInjector
    backends: dict[str, Any] = field(default_factory=dict)

    def reset(self) -> None:
        """Forget every record (keys and config stay); faults go back to the config's."""
        for backend in self.backends.values():
            backend.reset()
        self.faults.reset()
