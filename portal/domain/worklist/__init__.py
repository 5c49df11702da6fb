"""Worklist."""
