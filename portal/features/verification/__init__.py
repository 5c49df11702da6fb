"""Step 8: the verification link, embedded for ops and for the sub-merchant via a signed link."""
