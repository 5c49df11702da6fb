"""Signed, timed tokens (itsdangerous) whose timestamps come from the portal's clock."""

from __future__ import annotations

from itsdangerous import TimestampSigner, URLSafeTimedSerializer

from portal.core import clock


class PortalClockSigner(TimestampSigner):
    """Timestamps from the portal's clock, so tests move time instead of sleeping."""

    def get_timestamp(self) -> int:
        """Seconds since the epoch on the portal's clock."""
        return int(clock.utcnow().timestamp())


def timed_serializer(secret_key: str, salt: str) -> URLSafeTimedSerializer:
    """A URL-safe serializer for one purpose (``salt``), timed on the portal's clock."""
    return URLSafeTimedSerializer(secret_key, salt=salt, signer=PortalClockSigner)
