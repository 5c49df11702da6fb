"""Ownership."""
