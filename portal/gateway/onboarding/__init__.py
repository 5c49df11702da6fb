"""Onboarding."""
