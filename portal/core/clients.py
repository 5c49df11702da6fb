"""The one place that builds gateway clients from the settings.

Every feature gets its onboarding client here, and every payments client is built here from a
merchant's signing key (``portal.domain.payments.credentials`` chooses the key and decrypts it).
"""

from __future__ import annotations

from pathlib import Path

from flask import current_app

from portal.core.clock import pause
from portal.core.config import Settings, current_settings
from portal.gateway.onboarding.client import OnboardingClient
from portal.gateway.payments.client import PaymentsClient
from portal.gateway.retry import NO_RETRY, RATE_LIMITED, RetryPolicy
from portal.gateway.transport import Timeouts


def timeouts_of(settings: Settings) -> Timeouts:
    """The connect and read timeouts the settings ask for."""
    return Timeouts(settings.connect_timeout, settings.read_timeout)


def onboarding_client(settings: Settings, *, timeouts: Timeouts | None = None,
                      retry: RetryPolicy = RetryPolicy()) -> OnboardingClient:
    """The onboarding client configured from ``settings`` (``timeouts`` overrides theirs)."""
    return OnboardingClient(settings.onboarding_url, settings.api_key, settings.api_secret,
                            timeouts=timeouts or timeouts_of(settings), retry=retry, sleep=pause)


#: Where an app keeps its onboarding client, with the settings it was built from.
CLIENT_EXTENSION = "portal.onboarding_client"


def current_onboarding_client() -> OnboardingClient:
    """The onboarding client for the settings of the app handling this request or command.

    Built once per app (again if its settings are replaced), so a worker's thread keeps its
    connection to the gateway from one request to the next: a request no longer pays for a new
    session and connection (about 0.5 ms). Threads may share the client (its transport keeps a
    session per thread)."""
    settings = current_settings()
    held = current_app.extensions.get(CLIENT_EXTENSION)
    if held is None or held[0] is not settings:
        held = current_app.extensions[CLIENT_EXTENSION] = (settings, onboarding_client(settings))
    return held[1]


class GatewayKeyMissing(ValueError):
    """The gateway's public key or its key id, which payment bodies are encrypted to, is not
    configured; the message names the variable."""


def gateway_public_key(settings: Settings) -> str:
    """The gateway's public key (PEM) from GATEWAY_PUBLIC_KEY_FILE."""
    try:
        return Path(settings.gateway_public_key_file).read_text(encoding="utf-8")
    except (OSError, ValueError):
        raise GatewayKeyMissing("The gateway's public key cannot be read: set "
                                "GATEWAY_PUBLIC_KEY_FILE to its PEM file.") from None


#: A client that answers or gives up within the 5 seconds a callback has: no retry.
QUICK_TIMEOUTS = Timeouts(connect=2.0, read=3.0)


def payments_client(settings: Settings, *, mid: str, kid: str, private_key_pem: bytes,
                    parent_mid: str | None = None, quick: bool = False) -> PaymentsClient:
    """A payments client signing as ``mid`` with the key ``kid`` (under ``parent_mid`` when it
    is the partner's portfolio key). Bodies are encrypted (JWE) to the gateway's key, as the
    gateway's SDKs send them, unless GATEWAY_PLAIN_JSON (sandbox only) says plain JSON.
    ``quick``: short timeouts and no retry (:data:`QUICK_TIMEOUTS`); else the settings' timeouts
    and the rate-limit backoff."""
    encrypt = not settings.gateway_plain_json
    if encrypt and not settings.gateway_key_id:
        raise GatewayKeyMissing("The gateway's key id is not configured: set GATEWAY_KEY_ID "
                                "(payment bodies are encrypted to that key).")
    return PaymentsClient(settings.payments_url, merchant_id=mid, kid=kid,
                          private_key_pem=private_key_pem, parent_mid=parent_mid,
                          encrypt=encrypt,
                          gateway_public_key_pem=gateway_public_key(settings) if encrypt else None,
                          gateway_kid=settings.gateway_key_id,
                          initiate_path=settings.gateway_initiate_path,
                          timeouts=QUICK_TIMEOUTS if quick else timeouts_of(settings),
                          retry=NO_RETRY if quick else RATE_LIMITED, sleep=pause)
