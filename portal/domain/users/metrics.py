"""Prometheus counters of failed sign-ins and account lockouts (served by /metrics)."""

from __future__ import annotations

from prometheus_client import Counter

SIGN_IN_FAILURES = Counter("portal_sign_in_failures_total",
                           "Failed sign-ins, by the step that failed (password or code)",
                           ["step"])
LOCKOUTS = Counter("portal_account_lockouts_total",
                   "Addresses locked out of an account (or whole accounts locked) after "
                   "too many failed sign-ins")
