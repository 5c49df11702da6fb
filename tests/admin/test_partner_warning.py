"""PARTNER_NAME left at "Your payments partner" (issue 36.10): while merchants and customers
would read the placeholder as the partner's name, the admin's dashboard and go-live checklist
say so and where to set it; a name in PARTNER_NAME or on the Branding page ends the warning."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from portal.app.factory import create_app
from portal.domain.audit.service import SYSTEM
from portal.domain.branding import service as branding
from tests.support.accounts import AuthActions

PAGES = ("/admin/", "/admin/go-live/")


def warning(client, path: str):
    response = client.get(path)
    assert response.status_code == 200
    return BeautifulSoup(response.data, "html.parser").select_one(".partner-unnamed")


@pytest.mark.parametrize("path", PAGES)
def test_the_default_name_is_warned_of_with_where_to_set_it(auth, client, path):
    auth.login("admin")
    found = warning(client, path)
    text = found.get_text(" ", strip=True)
    assert "Merchants and customers read “Your payments partner” as your name" in text
    assert "PARTNER_NAME" in text
    assert found.find("a", string="Branding page")["href"] == "/admin/branding"


@pytest.mark.parametrize("path", PAGES)
def test_a_partner_name_in_the_settings_ends_the_warning(settings, path):
    app = create_app(settings.with_changes(partner_name="Asha Payments"))
    app.config["WTF_CSRF_ENABLED"] = False
    client = app.test_client()
    AuthActions(app, client).login("admin")
    assert warning(client, path) is None


def test_a_display_name_on_the_branding_page_ends_the_warning(app, auth, client):
    auth.login("admin")
    with app.app_context():
        branding.save(branding.BrandingChange("Asha Payments", "", ""), SYSTEM)
    assert warning(client, "/admin/") is None
