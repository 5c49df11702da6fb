"""Payments."""
