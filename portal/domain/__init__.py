"""Domain."""
