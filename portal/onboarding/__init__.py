"""Onboarding a merchant: the nine steps, their drafts, and the calls to the gateway."""
