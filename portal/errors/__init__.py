"""Error pages and JSON error bodies."""
