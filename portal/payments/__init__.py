"""Authorize-only payments for approved merchants: credentials, holds, capture, reversal,
refund, and the customer's return from the gateway's hosted page."""

from portal.payments.routes import bp

__all__ = ["bp"]
