"""Ops' side of what the gateway asks of a merchant: its wording, the merchant's uploads."""
