"""Bulk onboarding: a CSV of merchants checked as a whole, then driven through steps 1-7."""
