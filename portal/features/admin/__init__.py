"""The admin dashboard: every merchant's progress, status counts, stale records, the audit."""
