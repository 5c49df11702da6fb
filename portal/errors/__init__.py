"""Error pages and JSON error bodies."""

from portal.errors.handlers import bp

__all__ = ["bp"]
