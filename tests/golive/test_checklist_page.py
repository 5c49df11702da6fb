"""The admins' go-live checklist page."""

from __future__ import annotations

from bs4 import BeautifulSoup
from sqlalchemy import select

from portal.core.db import db
from portal.core.models import AuditEvent


def _page(response) -> BeautifulSoup:
    return BeautifulSoup(response.data, "html.parser")


def _checks(response) -> dict[str, str]:
    return {item["data-check"]: item["data-passed"]
            for item in _page(response).select("li.golive-check")}


def test_only_admins_open_it(auth, client):
    auth.login("ops")
    assert client.get("/admin/go-live/").status_code == 403
    assert client.post("/admin/go-live/").status_code == 403
    assert client.post("/admin/go-live/webhook").status_code == 403


def test_it_shows_the_whitelist_before_any_check_runs(auth, client):
    auth.login("admin")
    page = _page(client.get("/admin/go-live/"))
    assert page.select_one(".golive-not-run").text == "Not run yet."
    values = [dd.text for dd in page.select(".golive-whitelist dd")]
    assert values == ["https://portal.test", "https://portal.test/payments/callback",
                      "https://portal.test/webhooks/onboarding"]


def test_running_the_checks_then_registering_the_webhook_turns_it_green(auth, client, app,
                                                                        mail_sink):
    auth.login("admin")
    first = client.post("/admin/go-live/")
    assert _checks(first) == {"gateway": "yes", "smtp": "yes", "https": "no",
                              "webhook": "no", "partner": "yes"}
    https = _page(first).select_one('[data-check="https"] p').text
    assert "TRUSTED_PROXIES is 0" in https
    assert mail_sink.messages()[0]["To"] == "admin@example.com"
    registered = client.post("/admin/go-live/webhook", follow_redirects=True)
    assert "The gateway now sends onboarding events to https://portal.test/webhooks/onboarding" \
        in registered.text
    assert _checks(client.post("/admin/go-live/"))["webhook"] == "yes"
    with app.app_context():
        actions = [(e.action, e.outcome, e.actor_label) for e in db.session.scalars(
            select(AuditEvent).where(AuditEvent.action.like("golive.%")).order_by(AuditEvent.id))]
    assert actions == [("golive.check", "failed", "admin@example.com"),
                       ("golive.webhook", "ok", "admin@example.com"),
                       ("golive.check", "failed", "admin@example.com")]


def test_the_dashboard_links_to_it(auth, client):
    auth.login("admin")
    links = [a["href"] for a in _page(client.get("/admin/")).select(".page-heading a")]
    assert "/admin/go-live/" in links
