"""Pausing new payments, deactivating a merchant, lifting either (rules: domain/pausing)."""
