"""The partners' JSON API under /api/v1, and the admins' page of API keys."""
