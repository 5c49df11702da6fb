"""What the folder's tests share, for them and other folders' to
import (a test imports no conftest and no other test module)."""

from __future__ import annotations

from datetime import UTC, datetime

from portal.gateway.onboarding.client import OnboardingClient
from portal.gateway.retry import NO_RETRY
from tests.support.sandbox import RunningSandbox

KEY = "p1-key"


SECRET = "p1-secret-0123456789"


SECOND_KEY = "p1-key-2"


SECOND_SECRET = "p1-secret-2-0123456789"


RETIRED_KEY = "p1-retired"


RETIRED_SECRET = "p1-retired-secret"


OTHER_KEY = "p2-key"


OTHER_SECRET = "p2-secret-0123456789"


START = datetime(2026, 3, 2, 9, 30, tzinfo=UTC)


CONFIG = {
    "partners": [
        {"partnerId": "p1", "keys": [
            {"apiKey": KEY, "apiSecret": SECRET},
            {"apiKey": SECOND_KEY, "apiSecret": SECOND_SECRET},
            {"apiKey": RETIRED_KEY, "apiSecret": RETIRED_SECRET, "active": False},
        ]},
        {"partnerId": "p2", "keys": [{"apiKey": OTHER_KEY, "apiSecret": OTHER_SECRET}]},
    ]
}


def client_of(sandbox: RunningSandbox, api_key: str = KEY,
              api_secret: str = SECRET) -> OnboardingClient:
    """A client signing with the given key, never retrying (a retry would hide a bug)."""
    return OnboardingClient(sandbox.url, api_key, api_secret, retry=NO_RETRY)
