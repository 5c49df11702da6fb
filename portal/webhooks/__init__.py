"""The gateway's onboarding webhooks: verified, stored once, then a status re-read."""

from portal.webhooks.routes import bp

__all__ = ["bp"]
