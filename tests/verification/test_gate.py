"""Step 8's gate: the button stays disabled with the missing items until every step is done;
the gateway's own 400 shows every item it names; the page embeds a link minted for it."""

from __future__ import annotations

from bs4 import BeautifulSoup
from sqlalchemy import select

from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.verification import GatewayLink, MerchantLink
from portal.domain.onboarding.steps import STEPS
from portal.sandbox.common.fault_plans import Fault, FaultKind
from tests.verification.support import backend_of, frame_src, onboard, token_of


def _page(response) -> BeautifulSoup:
    assert response.status_code == 200
    return BeautifulSoup(response.data, "html.parser")


def _missing(soup: BeautifulSoup) -> list[str]:
    return [li.get_text(strip=True) for li in soup.select(".missing-items li")]


def test_the_button_is_disabled_with_every_missing_item_until_the_steps_are_done(
        app, client, auth):
    auth.login("ops")
    merchant_id = onboard(app, until="business")
    soup = _page(client.get(f"/merchants/{merchant_id}/verification"))
    button = soup.select_one("form.get-link button")
    assert button.has_attr("disabled")
    assert button["aria-describedby"] == "missing"
    assert _missing(soup) == ["Beneficial owners (step 3)", "Bank details (step 4)",
                              "Authorised signatory (step 5)", "Documents (step 6)",
                              "Products (step 7)"]
    # the session URL, typed by hand, does not ask the gateway either
    soup = _page(client.get(f"/merchants/{merchant_id}/verification/session"))
    assert soup.select_one("iframe") is None
    assert "Products (step 7)" in _missing(soup)


def test_outstanding_documents_are_listed_too(app, client, auth):
    auth.login("ops")
    merchant_id = onboard(app, until="signatory")
    soup = _page(client.get(f"/merchants/{merchant_id}/verification"))
    missing = _missing(soup)
    assert "Document: Aadhaar of Asha Rao (PAN ******234K)" in missing  # in words, masked
    assert "ABCPR1234K" not in soup.get_text()
    assert "Document: Aadhaar of Vikram Mehta (PAN ******678L)" in missing


def test_once_every_step_is_done_the_button_is_enabled(app, client, auth):
    auth.login("ops")
    merchant_id = onboard(app)
    soup = _page(client.get(f"/merchants/{merchant_id}/verification"))
    assert not soup.select_one("form.get-link button").has_attr("disabled")
    assert _missing(soup) == []
    assert soup.select_one("[data-step='verification'] a")["href"] == \
        f"/merchants/{merchant_id}/verification"
    assert soup.select_one("[data-step='status'] a")["href"] == f"/merchants/{merchant_id}/status"


def test_a_400_from_the_gateway_shows_every_item_it_names(app, client, auth, sandbox):
    auth.login("ops")
    merchant_id = onboard(app, until="business")
    with app.app_context():  # the portal believes everything is done; the gateway knows better
        merchant = db.session.get(Merchant, merchant_id)
        merchant.checklist = {**merchant.checklist, **{
            step.checklist_key: "COMPLETE" for step in STEPS if step.checklist_key}}
        merchant.documents_outstanding = []
        db.session.commit()
        onboarding_id = merchant.onboarding_id
    # the status read before the page is drawn fails, so the portal keeps what it stored
    sandbox.state.faults.set(Fault(FaultKind.ERROR, operation="get_status"))
    soup = _page(client.get(f"/merchants/{merchant_id}/verification/session"))
    record = backend_of(sandbox)._get(onboarding_id)
    expected = [f"{e.field}: {e.message}" for e in backend_of(sandbox).missing_items(record)]
    assert len(expected) >= 4
    assert soup.select_one(".gateway-missing") is not None
    assert _missing(soup) == expected
    assert soup.select_one("iframe") is None


def test_the_session_page_embeds_a_fresh_link_with_its_own_url_as_callback(
        app, client, auth, sandbox, settings):
    auth.login("ops")
    merchant_id = onboard(app)
    response = client.get(f"/merchants/{merchant_id}/verification/session")
    soup = _page(response)
    frame = soup.select_one("iframe#verification-frame")
    assert frame["allow"] == "camera; microphone; geolocation"
    assert "verification-frame" in frame["class"]
    link = frame_src(response.data)
    assert link.startswith(sandbox.url + "/verification?")
    token = backend_of(sandbox).find_token(token_of(link))
    assert token.callback_url == f"http://localhost/merchants/{merchant_id}/verification/session"
    config = soup.select_one("#verification")
    assert config["data-gateway-origin"] == sandbox.url
    assert config["data-confirm-url"] == f"/merchants/{merchant_id}/verification/confirm"
    assert soup.select_one("script[src$='js/verification.js']") is not None
    policy = response.headers["Content-Security-Policy"]
    assert f"frame-src {settings.verification_origin}" in policy
    assert "frame-ancestors 'none'" in policy
    assert "script-src 'self'" in policy
    with app.app_context():
        minted = db.session.scalars(select(GatewayLink)).one()
        assert minted.via == "ops"


def test_other_pages_still_allow_no_frames(app, client, auth):
    auth.login("ops")
    merchant_id = onboard(app, until="create")
    response = client.get(f"/merchants/{merchant_id}/verification")
    assert "frame-src 'none'" in response.headers["Content-Security-Policy"]


def test_unknown_merchants_are_not_found(client, auth):
    auth.login("ops")
    for path in ("/merchants/999/verification", "/merchants/999/verification/session",
                 "/merchants/999/status"):
        assert client.get(path).status_code == 404
    assert client.post("/merchants/999/verification/confirm").status_code == 404


def test_the_merchants_link_waits_for_the_steps_its_page_needs(app, client, auth):
    auth.login("ops")
    merchant_id = onboard(app, until="bank")
    soup = _page(client.get(f"/merchants/{merchant_id}/verification"))
    for name in ("Email the merchant", "Create a link to copy"):
        button = soup.find("button", string=name)
        assert button.has_attr("disabled") and button["aria-describedby"] == "links-wait", name
    waits = soup.select_one("#links-wait").get_text(" ", strip=True)
    assert "Authorised signatory (step 5); Documents (step 6); Products (step 7)" in waits
    for path in ("links", "email"):  # typed or posted anyway: refused in words, nothing made
        answer = client.post(f"/merchants/{merchant_id}/verification/{path}")
        assert answer.headers["Location"].endswith(f"/merchants/{merchant_id}/verification")
        shown = _page(client.get(answer.headers["Location"]))
        [flash] = [f.get_text(" ", strip=True) for f in shown.select(".flash--error")]
        assert flash.startswith("No link was created: the merchant's verification page opens "
                                "once every step before it is sent. Still missing: "), flash
    with app.app_context():
        assert db.session.scalars(select(MerchantLink)).all() == []
