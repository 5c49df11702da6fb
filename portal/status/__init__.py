"""Step 9: the onboarding status, read from the gateway, and the timeline of its changes.

The package itself imports nothing, so the onboarding service can use ``history`` without a
cycle through the blueprint (``portal.status.routes``).
"""
