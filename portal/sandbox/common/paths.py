"""The gateway's operation paths as the sandbox's Flask rules."""

from __future__ import annotations


def flask_rule(path: str) -> str:
    """An operation's path as a Flask rule: ``{onboardingId}`` -> ``<onboardingId>``."""
    return path.replace("{", "<").replace("}", ">")
