"""Mail."""
