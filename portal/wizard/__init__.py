"""The onboarding wizard: one page per step, drafts, sends and the sandbox scenario picker."""

from portal.wizard.routes import bp

__all__ = ["bp"]
