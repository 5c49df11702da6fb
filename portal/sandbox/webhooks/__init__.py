"""Onboarding webhooks: the events, the signed deliveries with retries, and their test controls."""
