"""Gateway links minted just in time and tracked on the clock; the merchant's signed link."""

from __future__ import annotations

from datetime import timedelta

import pytest
from bs4 import BeautifulSoup
from sqlalchemy import select

from portal.core.config import current_settings
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.verification import GatewayLink, MerchantLink
from portal.core.redaction import redact_text
from portal.domain.audit.service import Actor
from portal.domain.onboarding import merchant_links as links
from tests.verification.support import backend_of, frame_src, onboard, token_of

DAY = 24 * 3600


def _minted(app) -> list[GatewayLink]:
    with app.app_context():
        return list(db.session.scalars(select(GatewayLink).order_by(GatewayLink.id)))


def test_every_view_mints_a_fresh_single_use_link_tracked_for_24_hours(
        app, client, auth, sandbox, portal_clock):
    auth.login("ops")
    merchant_id = onboard(app)
    first = frame_src(client.get(f"/merchants/{merchant_id}/verification/session").data)
    second = frame_src(client.get(f"/merchants/{merchant_id}/verification/session").data)
    assert token_of(first) != token_of(second)
    minted = _minted(app)
    assert [(m.minted_at, m.expires_at) for m in minted] == [
        (portal_clock.now(), portal_clock.now() + timedelta(hours=24))] * 2

    page = client.get(f"/merchants/{merchant_id}/verification")
    assert "valid until" in BeautifulSoup(page.data, "html.parser").select_one(
        ".latest-link").get_text()
    portal_clock.advance(DAY + 1)
    sandbox.clock.advance(DAY + 1)
    auth.login("ops")  # the sign-in session timed out meanwhile
    page = client.get(f"/merchants/{merchant_id}/verification")
    assert "expired" in BeautifulSoup(page.data, "html.parser").select_one(
        ".latest-link").get_text()
    assert backend_of(sandbox).lookup_token(token_of(second)) is None  # the gateway agrees

    third = frame_src(client.get(f"/merchants/{merchant_id}/verification/session").data)
    assert backend_of(sandbox).lookup_token(token_of(third)) is not None
    assert _minted(app)[-1].expires_at == portal_clock.now() + timedelta(hours=24)


# ---------------------------------------------------------------- the merchant's link


@pytest.fixture
def merchant_id(app) -> int:
    """A merchant at PENDING_VERIFICATION."""
    return onboard(app)


def _issue(app, merchant_id: int) -> tuple[MerchantLink, str]:
    with app.app_context():
        merchant = db.session.get(Merchant, merchant_id)
        link, token = links.issue(current_settings().secret_key, merchant, Actor("ops@example.com"))
        db.session.expunge(link)
        return link, token


def _refused(response, status: int) -> None:
    assert response.status_code == status
    soup = BeautifulSoup(response.data, "html.parser")
    assert soup.select_one(".refused") is not None
    assert soup.select_one("iframe") is None
    assert soup.select_one("nav") is None
    assert "Sandbox Traders" not in response.get_data(as_text=True)


def test_a_valid_link_opens_only_that_merchants_page_without_an_account(
        app, client, merchant_id, sandbox, settings):
    _link, token = _issue(app, merchant_id)
    response = client.get(f"/verify/{merchant_id}?token={token}")
    assert response.status_code == 200
    soup = BeautifulSoup(response.data, "html.parser")
    assert soup.select_one("nav") is None and soup.select_one(".stepper") is None
    assert soup.select_one("a[href^='/merchants']") is None
    link = frame_src(response.data)
    callback = backend_of(sandbox).find_token(token_of(link)).callback_url
    assert callback == f"http://localhost/verify/{merchant_id}?token={token}"
    assert soup.select_one("#verification")["data-confirm-url"] == \
        f"/verify/{merchant_id}/confirm?token={token}"
    assert f"frame-src {settings.verification_origin}" in \
        response.headers["Content-Security-Policy"]
    assert _minted(app)[-1].via == "merchant link"
    # the link opens nothing else of the portal
    assert client.get(f"/merchants/{merchant_id}").status_code == 302


def test_the_link_lasts_24_hours_on_the_portal_clock(app, client, merchant_id, portal_clock):
    _link, token = _issue(app, merchant_id)
    portal_clock.advance(DAY - 60)
    assert client.get(f"/verify/{merchant_id}?token={token}").status_code == 200
    portal_clock.advance(61)
    _refused(client.get(f"/verify/{merchant_id}?token={token}"), 410)


def test_a_revoked_link_is_refused(app, client, auth, merchant_id):
    link, token = _issue(app, merchant_id)
    auth.login("ops")
    response = client.post(f"/merchants/{merchant_id}/verification/links/{link.id}/revoke")
    assert response.status_code == 302
    auth.logout()
    _refused(client.get(f"/verify/{merchant_id}?token={token}"), 410)
    _refused(client.post(f"/verify/{merchant_id}/confirm?token={token}"), 410)


@pytest.mark.parametrize("tamper", [
    lambda t: t[:-2] + ("AA" if not t.endswith("AA") else "BB"),
    lambda t: "x" + t,
    lambda t: t.split(".", 1)[1],
    lambda t: "not-a-token",
    lambda t: "",
])
def test_a_tampered_link_is_refused(app, client, merchant_id, tamper):
    _link, token = _issue(app, merchant_id)
    _refused(client.get(f"/verify/{merchant_id}?token={tamper(token)}"), 403)


def test_a_link_under_another_merchants_id_is_refused(app, client, merchant_id):
    other = onboard(app, until="create")
    _link, token = _issue(app, merchant_id)
    _refused(client.get(f"/verify/{other}?token={token}"), 403)
    _refused(client.post(f"/verify/{other}/confirm?token={token}"), 403)


def test_the_token_is_masked_in_logged_request_lines(app, merchant_id):
    _link, token = _issue(app, merchant_id)
    line = redact_text(f'"GET /verify/{merchant_id}?token={token} HTTP/1.1" 200 -')
    assert token not in line and token[-6:] not in line


def test_a_token_signed_for_something_else_is_refused(app, client, merchant_id, settings):
    from itsdangerous import URLSafeTimedSerializer

    forged = URLSafeTimedSerializer(settings.secret_key, salt="another-purpose").dumps(
        {"m": merchant_id, "n": "x"})
    _refused(client.get(f"/verify/{merchant_id}?token={forged}"), 403)


def test_ops_issue_and_list_links(app, client, auth, merchant_id):
    auth.login("ops")
    response = client.post(f"/merchants/{merchant_id}/verification/links")
    soup = BeautifulSoup(response.data, "html.parser")
    url = soup.select_one("#merchant-link-url")["value"]
    assert "token=" not in str(response.headers.get("Set-Cookie", "")), "link kept in the cookie"
    assert url.startswith(f"http://localhost/verify/{merchant_id}?token=")
    assert [td.get_text() for td in soup.select(".merchant-links .link-state")] == ["Live"]
    auth.logout()
    assert client.get(url.removeprefix("http://localhost")).status_code == 200


def test_the_merchant_confirms_with_a_csrf_token_and_gets_only_its_status(
        app, csrf_client, merchant_id):
    _link, token = _issue(app, merchant_id)
    response = csrf_client.get(f"/verify/{merchant_id}?token={token}")
    page = BeautifulSoup(response.data, "html.parser")
    csrf = page.select_one("#verification")["data-csrf-token"]
    url = f"/verify/{merchant_id}/confirm?token={token}"
    assert csrf_client.post(url, headers={"Accept": "application/json"}).status_code == 400
    answer = csrf_client.post(url, headers={"Accept": "application/json", "X-CSRFToken": csrf})
    assert answer.status_code == 200
    assert set(answer.json) == {"confirmed", "status", "message", "steps", "next"}
    assert answer.json["status"] == "PENDING_VERIFICATION"


@pytest.mark.parametrize("path", ["links", "email"])
def test_no_link_is_created_for_an_approved_merchant_by_a_direct_post(app, client, auth,
                                                                       merchant_id, path):
    with app.app_context():  # as the gateway's review left it: the page offers no link then
        db.session.get(Merchant, merchant_id).status = "APPROVED"
        db.session.commit()
    auth.login("ops")
    assert not BeautifulSoup(client.get(f"/merchants/{merchant_id}/verification").data,
                             "html.parser").select(".merchant-links form")
    response = client.post(f"/merchants/{merchant_id}/verification/{path}",
                           follow_redirects=True)
    assert response.status_code == 200
    flashes = [p.get_text(" ", strip=True)
               for p in BeautifulSoup(response.data, "html.parser").select(".flash")]
    assert any("finished verification, so no link was created" in text for text in flashes)
    assert "token=" not in response.get_data(as_text=True)
    with app.app_context():
        assert links.links_of(db.session.get(Merchant, merchant_id)) == []
