"""The messages the verification page posts to its parent window (their names are the
contract's, :mod:`portal.gateway.onboarding.events`; the portal's page script reads them)."""

from __future__ import annotations

from typing import Any

from portal.gateway.onboarding.events import MessageName, StepName


def verification_message(name: MessageName, onboarding_id: str,
                         step: StepName | None = None) -> dict[str, Any]:
    """One postMessage payload as the verification page posts it."""
    data: dict[str, str] = {"onboardingId": onboarding_id}
    if step is not None:
        data["stepName"] = str(step)
    return {"eventName": str(name), "eventData": data}


#: The ``subStepId`` of the iframe docs' DigiLocker REDIRECT.
DIGILOCKER_SUB_STEP = "CONSENT_PROCEED"


def redirect_message(uri: str) -> dict[str, Any]:
    """The REDIRECT message asking the parent to open DigiLocker at ``uri``, top-level."""
    return {"eventName": str(MessageName.REDIRECT),
            "eventData": {"uri": uri, "stepName": str(StepName.DIGILOCKER),
                          "subStepId": DIGILOCKER_SUB_STEP}}
