"""What the folder's tests share, for them and other folders' to
import (a test imports no conftest and no other test module)."""

from __future__ import annotations

import uuid
from typing import Any

from portal.domain.api.scopes import Scope

EVERY_SCOPE = tuple(Scope)


class Api:
    """Calls to /api/v1 with one key."""

    def __init__(self, client, token: str) -> None:
        self.client = client
        self.token = token

    def headers(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        """The key's Authorization header, and ``extra``."""
        return {"Authorization": f"Bearer {self.token}", **(extra or {})}

    def get(self, path: str, **query: Any):
        """GET ``path`` under /api/v1."""
        return self.client.get("/api/v1" + path, query_string=query, headers=self.headers())

    def post(self, path: str, body: Any = None, idempotency_key: str | None = None):
        """POST ``body`` as JSON to ``path`` under /api/v1."""
        extra = {"Idempotency-Key": idempotency_key} if idempotency_key else {}
        return self.client.post("/api/v1" + path, json=body if body is not None else {},
                                headers=self.headers(extra))


def new_merchant_body(external_id: str | None = None) -> dict[str, str]:
    """A valid create (step 1) body, with a PAN of its own (the gateway refuses one twice)."""
    number = uuid.uuid4().int % 10_000
    return {"externalOnboardingId": external_id or f"pop-{uuid.uuid4().hex[:12]}",
            "panNumber": f"ABCCE{number:04d}F"}
