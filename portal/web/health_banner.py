"""The banner on every staff page of a live merchant while something holds it up: a template
global that reads the merchant's health (``portal.domain.health``), never on a public page."""

from __future__ import annotations

from flask import Flask, g, request
from flask_login import current_user

from portal.core.models.merchant import Merchant
from portal.domain.health.parties import Health
from portal.domain.health.service import health_of
from portal.web.auth.access import is_public


def merchant_health(merchant: object) -> Health | None:
    """The health a staff page of ``merchant`` shows, or None (not a merchant, not live, or the
    page is public: a customer or a merchant's own link never sees it)."""
    if not isinstance(merchant, Merchant) or is_public(request.endpoint):
        return None
    if not current_user.is_authenticated:
        return None
    read = g.setdefault("merchant_health", {})  # the banner and the summary read it once
    if merchant.id not in read:
        read[merchant.id] = health_of(merchant)
    return read[merchant.id]


def register(app: Flask) -> None:
    """Give every template ``merchant_health``."""
    app.add_template_global(merchant_health, "merchant_health")
