"""Changes to a merchant's details after the gateway locked them, through the gateway's support."""
