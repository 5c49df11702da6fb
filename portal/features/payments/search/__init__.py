"""Payments you can find: search by order reference, merchant, customer email, amount and
dates, a page at a time however many payments there are, and the filtered list as CSV."""
