"""Step 9: the onboarding status, read from the gateway, and its page with the timeline.

How the status may move and its history live in :mod:`portal.domain.onboarding.status_history`.
"""
