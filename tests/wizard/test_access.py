"""Every wizard, documents and list route needs a signed-in user; unknown ids are 404."""

from __future__ import annotations

import pytest

from portal.domain.onboarding import scenarios
from tests.support.accounts import TEST_PASSWORD, AuthActions
from tests.support.browser import Browser
from tests.wizard.support import typed

ROUTES = [
    ("GET", "/merchants"),
    ("GET", "/merchants/new"),
    ("POST", "/merchants/new"),
    ("POST", "/merchants/new/fill"),
    ("GET", "/merchants/{id}"),
    ("POST", "/merchants/{id}/delete"),
    ("GET", "/merchants/{id}/steps/create"),
    ("GET", "/merchants/{id}/steps/business"),
    ("POST", "/merchants/{id}/steps/owners"),
    ("POST", "/merchants/{id}/steps/bank/retry"),
    ("POST", "/merchants/{id}/fill"),
    ("GET", "/merchants/{id}/steps/documents"),
    ("POST", "/merchants/{id}/steps/documents"),
    ("POST", "/merchants/{id}/steps/documents/fill"),
    ("GET", "/merchants/{id}/documents/1"),
    ("POST", "/merchants/{id}/documents/1/send"),
]


@pytest.mark.parametrize(("method", "path"), ROUTES)
def test_anonymous_users_are_sent_to_sign_in(client, method, path):
    response = client.open(path.format(id=1), method=method)
    assert response.status_code == 302
    assert "/login" in response.headers["Location"]


@pytest.mark.parametrize(("method", "path"), [r for r in ROUTES if "{id}" in r[1]])
def test_unknown_merchants_are_not_found(browser, method, path):
    response = browser.client.open(path.format(id=4242), method=method,
                                   data={"scenario": "happy"})
    assert response.status_code == 404


@pytest.mark.parametrize("step", ["verification", "status", "nonsense"])
def test_steps_without_a_page_are_not_found(browser, new_merchant, step):
    assert browser.get(f"/merchants/{new_merchant}/steps/{step}").response.status_code == 404


@pytest.mark.parametrize("role", ["ops", "admin"])
def test_ops_and_admins_use_the_wizard(auth, client, role):
    auth.login(role)
    assert client.get("/merchants/new").status_code == 200
    assert client.get("/merchants").status_code == 200


def test_the_pages_carry_csrf_tokens_when_protection_is_on(csrf_app, csrf_client):
    AuthActions(csrf_app, csrf_client).create("ops")
    browser = Browser(csrf_client)
    login = browser.get("/login")
    browser.submit(login, {"email": "ops@example.com", "password": TEST_PASSWORD}, action="",
                   selector="form")
    page = browser.submit(browser.get("/merchants/new"),
                          typed(scenarios.HAPPY, "create"))
    assert page.response.request.path.endswith("/steps/business"), page.text()[:500]
    page = browser.submit(page, {"scenario": scenarios.HAPPY}, action="",
                          selector="form.scenario-picker")
    assert page.soup.find(attrs={"name": "registeredName"})["value"].startswith("Sandbox")
    page = browser.submit(browser.get(page.response.request.path.replace("business", "owners")),
                          action="add_owner")
    assert len(page.soup.select("fieldset.owner")) == 3  # the scenario's two, and one more
    response = csrf_client.post(page.response.request.path, data={"action": "draft"})
    assert response.status_code == 400  # no token: refused
