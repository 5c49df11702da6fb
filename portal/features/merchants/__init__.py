"""The merchants list: search, filter by status, pagination; and one merchant's summary."""
