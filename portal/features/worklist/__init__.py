""""Needs my action": what the merchants each user owns need now, in words, most urgent first,
with the page where to act; an admin's tab across everyone."""
