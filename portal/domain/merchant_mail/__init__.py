"""Merchant mail."""
