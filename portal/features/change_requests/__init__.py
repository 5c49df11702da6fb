"""The pages of change requests of a merchant's locked details."""
