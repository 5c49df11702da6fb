"""A live merchant's health: can each product take payments now, and if not who must act."""
