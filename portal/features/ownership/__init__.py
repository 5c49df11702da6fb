"""Owners and notes: who looks after each merchant, and what the team noted about it."""
