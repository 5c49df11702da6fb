"""Pausing and deactivating merchants in tests: through the Pause or deactivate page's forms,
or directly in the database as an admin would (for races and browser journeys)."""

from __future__ import annotations

from bs4 import BeautifulSoup
from flask import Flask

from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.merchant_stop import StopKind
from portal.domain.audit.service import Actor
from portal.domain.pausing.stops import Outcome, stop
from tests.support.browser import Browser, Page, form_values

#: Who ``stop_now`` credits by default.
ADMIN = Actor("admin@example.com", None)


def stop_through_page(browser: Browser, merchant_id: int, kind: str = "pause",
                      reason: str = "fraud_review", note: str = "Card testing suspected"):
    """Fill and post the page's pause (or deactivate) form; the answer, not followed."""
    page = browser.get(f"/merchants/{merchant_id}/pause")
    form = page.form(f"form.{kind}-form")
    values = {**form_values(form), f"{kind}-reason": reason, f"{kind}-note": note}
    return browser.client.post(form["action"], data=values)


def followed(browser: Browser, response) -> Page:
    """The page a redirect leads to (or the answer itself)."""
    if response.status_code in (302, 303):
        response = browser.client.get(response.headers["Location"])
    return Page(response, BeautifulSoup(response.data, "html.parser"))


def stop_now(app: Flask, merchant_id: int, kind: StopKind = StopKind.PAUSE,
             actor: Actor = ADMIN) -> Outcome:
    """Pause (or deactivate) the merchant as ``actor``, through the domain's rule."""
    with app.app_context():
        merchant = db.session.get(Merchant, merchant_id)
        assert merchant is not None
        return stop(merchant, kind, "fraud_review" if kind == StopKind.PAUSE else "closed",
                    "Card testing suspected", actor)
