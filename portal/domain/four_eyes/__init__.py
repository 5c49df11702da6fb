"""Four eyes."""
