"""Who reaches the Approvals page and its decisions: admins only, signed in, with a CSRF token."""

from __future__ import annotations

import pytest

from portal.core.models import ApprovalKind, ApprovalState
from portal.domain.four_eyes.queries import KIND_WORDS, STATE_WORDS
from tests.support.accounts import AuthActions

ROUTES = [("get", "/approvals/"), ("post", "/approvals/1")]


@pytest.mark.parametrize(("method", "path"), ROUTES)
def test_anonymous_users_are_sent_to_sign_in(app, method, path):
    response = getattr(app.test_client(), method)(path)
    assert response.status_code == 302
    assert response.headers["Location"].startswith("/login")


@pytest.mark.parametrize(("method", "path"), ROUTES)
def test_ops_are_refused(auth, client, method, path):
    auth.login("ops")
    assert getattr(client, method)(path, data={"decision": "approve"}).status_code == 403


@pytest.mark.parametrize(("method", "path", "status"), [
    ("get", "/approvals/", 200), ("post", "/approvals/999", 404)])
def test_admins_reach_them(auth, client, method, path, status):
    auth.login("admin")
    assert getattr(client, method)(path, data={"decision": "approve"}).status_code == status


def test_ops_do_not_see_the_approvals_link(auth, client):
    auth.login("ops")
    assert b'href="/approvals/"' not in client.get("/payments").data
    auth.logout()
    auth.login("admin")
    assert b'href="/approvals/"' in client.get("/payments").data


def test_a_decision_needs_a_csrf_token(csrf_app):
    signed_in = csrf_app.test_client()
    AuthActions(csrf_app, signed_in).login("admin")
    response = signed_in.post("/approvals/1", data={"decision": "approve"})
    assert response.status_code == 400


def test_every_state_and_kind_has_words():
    assert set(STATE_WORDS) == set(ApprovalState) and set(KIND_WORDS) == set(ApprovalKind)
    assert all("_" not in words and words[0].isupper()
               for words in [*STATE_WORDS.values(), *KIND_WORDS.values()])
