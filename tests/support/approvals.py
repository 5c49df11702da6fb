"""Four-eyes in tests: a second admin who decides what waits on the Approvals page."""

from __future__ import annotations

from bs4 import BeautifulSoup
from werkzeug.test import TestResponse

from tests.support.accounts import AuthActions
from tests.support.browser import form_values

SECOND_ADMIN = "second-admin@example.com"


def second_admin(app, email: str = SECOND_ADMIN):
    """A test client signed in as another admin than the suite's usual one."""
    client = app.test_client()
    AuthActions(app, client).login("admin", email)
    return client


def decide_all(app, decision: str = "approve", reason: str = "Checked with the requester",
               email: str = SECOND_ADMIN) -> list[TestResponse]:
    """``email`` (an admin) presses ``decision`` on every request waiting on the Approvals
    page; the responses, followed."""
    client = second_admin(app, email)
    page = BeautifulSoup(client.get("/approvals/").data, "html.parser")
    return [client.post(form["action"], data={**form_values(form), "decision": decision,
                                              "reason": reason}, follow_redirects=True)
            for form in page.select("form.decision-form")]
