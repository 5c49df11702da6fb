"""What a person reads when the gateway refuses an onboarding call for a reason the page can
name: the gateway no longer knows the record, refuses the partner's credentials, or says the
record is another partner's. Never the operation's name, HTTP code, reasonCode or gid: those
stay in the audit trail and the logs.
"""

from __future__ import annotations

from portal.gateway.errors import Forbidden, GatewayError, NotFound, Unauthorized


def gone(onboarding_id: str) -> str:
    """The gateway has no record under ``onboarding_id`` any more."""
    return (f"The gateway no longer knows this merchant (onboarding id {onboarding_id}), so "
            "nothing can be sent or read for it. With the sandbox, its records were wiped while "
            "the portal kept its own; with the real gateway, ask its support about that "
            "onboarding id. To go on, start the merchant again as a new merchant.")


def refusal_words(exc: GatewayError, onboarding_id: str) -> str:
    """A refused onboarding call (not a field error, not an outage) in words."""
    if isinstance(exc, NotFound):
        return gone(onboarding_id)
    if isinstance(exc, Unauthorized):
        return ("The gateway refused the portal's partner credentials: check GATEWAY_API_KEY "
                "and GATEWAY_API_SECRET with whoever runs the portal.")
    if isinstance(exc, Forbidden):
        return (f"The gateway says onboarding id {onboarding_id} belongs to another partner, so "
                "this portal may not change or read it.")
    if exc.display_message:
        return f"The gateway refused this: {exc.display_message}"
    return "The gateway refused this without saying why; try again, or ask the gateway's support."
