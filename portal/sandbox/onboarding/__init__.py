"""The partner onboarding API (HMAC-signed): its backend (records and the status machine), its
routes, its OpenAPI document and the lookups it answers."""
