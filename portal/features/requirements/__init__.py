"""Emailing a merchant what they will need, before step 1 and from the merchant's summary."""
