"""What the folder's tests share, for them and other folders' to
import (a test imports no conftest and no other test module)."""

from __future__ import annotations

from portal.gateway.onboarding.hmac import hmac_digest
from tests.support.settings import API_SECRET

URL = "/webhooks/onboarding"


def _post(client, body: bytes, secret: str | None = API_SECRET, digest: str | None = None):
    headers = {"Content-Type": "application/json"}
    if secret is not None or digest is not None:
        headers["x-gl-digest"] = digest if digest is not None else hmac_digest(secret, body)
    return client.post(URL, data=body, headers=headers)
