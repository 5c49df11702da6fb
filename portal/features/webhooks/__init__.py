"""The gateway's onboarding webhooks: verified, stored once, then a status re-read."""
