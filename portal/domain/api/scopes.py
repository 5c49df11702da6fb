"""What an API key may do: one scope per group of routes, each with its words."""

from __future__ import annotations

from enum import StrEnum


class Scope(StrEnum):
    """A permission an API key carries; a route names the one it needs."""

    READ_MERCHANTS = "merchants:read"
    WRITE_MERCHANTS = "merchants:write"
    PAYMENTS = "payments"
    WEBHOOKS = "webhooks"


#: Each scope in words, for the keys page.
SCOPE_WORDS = {
    Scope.READ_MERCHANTS: "Read merchants",
    Scope.WRITE_MERCHANTS: "Create and change merchants",
    Scope.PAYMENTS: "Payments: holds, captures, releases and refunds",
    Scope.WEBHOOKS: "Webhooks",
}

#: Scopes that make creating a key a four-eyes action.
NEEDS_SECOND_ADMIN = frozenset({Scope.PAYMENTS})
