"""The admin dashboard: every merchant's progress, status counts, stale records, the audit."""

from portal.admin.routes import bp

__all__ = ["bp"]
