"""Everything the sandbox holds, in one place: its config, its clock, its faults and one
resettable backend per API it emulates (``portal.sandbox.onboarding``, ``payments`` and the
verification page's sessions), and the snapshot of it that a restart keeps
(``portal.sandbox.app``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from portal.core.clock import Clock
from portal.sandbox.common.config import SandboxConfig
from portal.sandbox.faults import FaultInjector
from portal.sandbox.onboarding.backend import OnboardingBackend
from portal.sandbox.payments.backend import PaymentsBackend
from portal.sandbox.verification.sessions import VerificationSessions

#: The shape of ``SandboxState.snapshot``; a file of another version is not read.
SNAPSHOT_VERSION = 1


@dataclass
class SandboxState:
    """Everything the sandbox holds: its config, its clock, its faults and one backend per API."""

    config: SandboxConfig
    clock: Clock
    faults: FaultInjector
    onboarding: OnboardingBackend = field(init=False)
    #: The verification page's sessions, over the onboarding backend's records.
    sessions: VerificationSessions = field(init=False)
    payments: PaymentsBackend = field(init=False)

    def __post_init__(self) -> None:
        self.onboarding = OnboardingBackend(self.config, self.clock)
        self.sessions = VerificationSessions(self.onboarding, self.clock)
        self.payments = PaymentsBackend(self.config, self.clock)

    def _by_name(self) -> dict[str, Any]:
        """The backends as a snapshot names them."""
        return {"onboarding": self.onboarding, "verification": self.sessions,
                "payments": self.payments}

    def reset(self) -> None:
        """Forget every record (keys and config stay); faults go back to the config's."""
        for backend in self._by_name().values():
            backend.reset()
        self.faults.reset()

    def snapshot(self) -> dict[str, Any]:
        """Everything a restart must keep, as JSON: each backend's records and the clock's
        offset from the wall clock (faults and the request log are the tests')."""
        offset = self.clock.offset()
        return {"version": SNAPSHOT_VERSION,
                "clockOffsetSeconds": offset.total_seconds() if offset is not None else None,
                "backends": {name: backend.snapshot() for name, backend in self._by_name().items()}}

    def restore(self, data: dict[str, Any]) -> None:
        """Take back a :meth:`snapshot`; ValueError when it is not one this sandbox wrote."""
        if not isinstance(data, dict) or data.get("version") != SNAPSHOT_VERSION:
            raise ValueError("not a snapshot of this sandbox's version")
        for name, backend in self._by_name().items():
            backend.restore(data.get("backends", {}).get(name, {}))
        offset = data.get("clockOffsetSeconds")
        if offset is not None and self.clock.offset() is not None:
            self.clock.reset()
            self.clock.advance(float(offset))
