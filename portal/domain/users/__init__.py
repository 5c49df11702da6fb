"""Users."""
