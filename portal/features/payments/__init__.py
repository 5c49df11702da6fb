"""Authorize-only payments for approved merchants: credentials, holds, capture, reversal,
refund, and the customer's return from the gateway's hosted page."""
