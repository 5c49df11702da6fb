"""Ready for the camera: the merchant's page warns an in-app browser, holds the gateway's frame
until the camera check passes, and reports what it found; ops read it on the merchant's page."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup
from sqlalchemy import select

from portal.core.db import db
from portal.core.models import AuditEvent, MerchantLinkCheck
from portal.domain.onboarding.device_checks import device_kind, in_app_browser
from tests.support.merchant_pages import WHATSAPP
from tests.verification.support import merchant_link, onboard

INSTAGRAM = ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 "
             "(KHTML, like Gecko) Mobile/15E148 Instagram 307.0.0.34.111")
FACEBOOK = ("Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 "
            "(KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/437.0.0.36.111]")
CHROME_ANDROID = ("Mozilla/5.0 (Linux; Android 13; Pixel 7) AppleWebKit/537.36 (KHTML, like "
                  "Gecko) Chrome/120.0.0.0 Mobile Safari/537.36")
IPAD = ("Mozilla/5.0 (iPad; CPU OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like "
        "Gecko) Version/17.1 Mobile/15E148 Safari/604.1")
DESKTOP = ("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
           "Chrome/120.0.0.0 Safari/537.36")


@pytest.mark.parametrize(("agent", "app_name", "kind"), [
    (WHATSAPP, "WhatsApp", "phone"), (INSTAGRAM, "Instagram", "phone"),
    (FACEBOOK, "Facebook", "phone"), (CHROME_ANDROID, "", "phone"), (IPAD, "", "tablet"),
    (DESKTOP, "", "computer"), ("", "", "computer"),
])
def test_the_user_agent_names_the_in_app_browser_and_the_device(agent, app_name, kind):
    assert (in_app_browser(agent), device_kind(agent)) == (app_name, kind)


def _checks(app) -> list[tuple[str, str, str]]:
    with app.app_context():
        return [(c.device, c.in_app, c.failed) for c in db.session.scalars(
            select(MerchantLinkCheck).order_by(MerchantLinkCheck.id))]


def test_an_in_app_browser_is_told_how_to_open_the_link_in_chrome_or_safari(app, client):
    merchant_id = onboard(app)
    path = merchant_link(app, merchant_id)
    soup = BeautifulSoup(client.get(path, headers={"User-Agent": WHATSAPP}).data, "html.parser")
    warning = soup.select_one(".in-app-warning")
    assert warning is not None and warning["role"] == "alert"
    words = warning.get_text(" ", strip=True)
    assert "Open this link in Chrome or Safari" in words
    assert "You opened this link inside WhatsApp" in words
    assert "Open in Chrome" in words and "Open in Safari" in words
    assert soup.select_one("#own-link")["value"] == f"http://localhost{path}"
    assert soup.select_one("button[data-copy='own-link']").get_text() == "Copy link"
    assert _checks(app) == [("phone", "WhatsApp", "in_app_browser")]

    plain = BeautifulSoup(client.get(path, headers={"User-Agent": CHROME_ANDROID}).data,
                          "html.parser")
    assert plain.select_one(".in-app-warning") is None
    assert _checks(app)[-1] == ("phone", "", "opened")


def test_the_frame_waits_for_the_camera_check_and_carries_its_permissions(app, client):
    merchant_id = onboard(app)
    soup = BeautifulSoup(client.get(merchant_link(app, merchant_id)).data, "html.parser")
    frame = soup.select_one("iframe#verification-frame")
    assert frame.get("src") is None and frame["data-src"].startswith("http")
    assert frame.has_attr("hidden")
    assert frame["allow"] == "camera; microphone; geolocation"
    assert soup.select_one("#camera-start").get_text() == "Allow camera and microphone"
    check = soup.select_one("#camera-check")
    assert "set Camera and Microphone to Allow" in check["data-text-camera-denied"]
    assert {s["src"] for s in soup.select("script")} >= {"/static/js/camera-check.js"}


def test_the_pages_report_is_kept_for_its_link_and_shown_to_ops_in_words(app, client, auth):
    merchant_id = onboard(app)
    path = merchant_link(app, merchant_id)
    client.get(path, headers={"User-Agent": IPAD})
    check_url = BeautifulSoup(client.get(path, headers={"User-Agent": IPAD}).data,
                              "html.parser").select_one("#camera-check")["data-check-url"]
    assert check_url == path.replace("?token=", "/check?token=")
    answer = client.post(check_url, data={"found": "camera_denied"},
                         headers={"User-Agent": IPAD})
    assert (answer.status_code, answer.json) == (200, {"kept": True})
    assert client.post(check_url, data={"found": "rm -rf"}).status_code == 400
    assert client.post(check_url, data={}).status_code == 400
    assert _checks(app)[-1] == ("tablet", "", "camera_denied")
    forged = client.post(f"/verify/{merchant_id}/check?token=forged", data={"found": ""})
    assert forged.status_code == 403
    with app.app_context():
        event = db.session.scalars(select(AuditEvent).where(
            AuditEvent.action == "merchant_link.check", AuditEvent.outcome == "failed")).one()
    assert event.actor_label == "merchant link" and event.merchant_id == merchant_id

    auth.login("ops")
    soup = BeautifulSoup(client.get(f"/merchants/{merchant_id}/verification").data,
                         "html.parser")
    row = soup.select_one(".device-checks tbody tr")
    cells = [td.get_text(strip=True) for td in row.select("td")]
    assert cells[1:] == ["Tablet", "A web browser", "Camera or microphone refused"]
    assert cells[0].endswith("UTC")


def test_the_report_needs_the_pages_csrf_token(csrf_app, csrf_client):
    merchant_id = onboard(csrf_app)
    path = merchant_link(csrf_app, merchant_id)
    soup = BeautifulSoup(csrf_client.get(path).data, "html.parser")
    check = soup.select_one("#camera-check")
    refused = csrf_client.post(check["data-check-url"], data={"found": ""})
    assert refused.status_code == 400
    kept = csrf_client.post(check["data-check-url"], data={"found": ""},
                            headers={"X-CSRFToken": check["data-csrf-token"]})
    assert kept.status_code == 200
    assert _checks(csrf_app)[-1][2] == ""
