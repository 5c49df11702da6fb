"""The partners API's rules without pages: keys and their scopes, rate limits, idempotency."""
