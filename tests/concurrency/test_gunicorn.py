"""Two gunicorn worker processes on one PostgreSQL: concurrent saves of one step over HTTP.

The portal runs as in production (``gunicorn app:app``, CSRF on, configuration from the
environment) against a throwaway PostgreSQL database and the loopback sandbox; several signed-in
sessions post the same step at once.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
from sqlalchemy import select

from portal.core.config import Settings
from portal.core.db import db
from portal.core.models.step import StepDraft
from portal.domain.onboarding import scenarios
from tests.outbox.support import sent_to_sandbox
from tests.support.accounts import TEST_PASSWORD, AuthActions
from tests.support.browser import flatten, form_values
from tests.support.interleave import post_at_once
from tests.support.postgres import shared_postgres
from tests.support.servers import gunicorn_portal, page_of, sign_in

pytestmark = pytest.mark.postgres

SESSIONS = 6
CONFLICT = "Someone else saved this step"


database_url = shared_postgres()


@pytest.fixture
def portal_url(settings: Settings, tmp_path: Path) -> Iterator[str]:
    """The portal under gunicorn, 2 worker processes with 4 threads each, on a loopback port."""
    with gunicorn_portal(settings, tmp_path / "portal.log", "--worker-class", "gthread",
                         "--threads", "4") as url:
        yield url


def step_form(session: requests.Session, url: str) -> dict:
    """The step form's values as the page shows them (hidden version and CSRF token included)."""
    return form_values(page_of(session.get(url, timeout=10)).select_one("form.step-form"))


def stored_business(app, merchant_id: int) -> list[StepDraft]:
    """Every stored business draft of the merchant (there must be one)."""
    with app.app_context():
        drafts = list(db.session.scalars(select(StepDraft).where(
            StepDraft.merchant_id == merchant_id, StepDraft.step == "business")))
        db.session.expunge_all()
        return drafts


def test_concurrent_saves_of_one_step_across_worker_processes(app, client, sandbox,
                                                              portal_url):
    emails = [AuthActions(app, client).create("ops", f"ops{i}@example.com")
              for i in range(SESSIONS)]
    sessions = [sign_in(portal_url, email, TEST_PASSWORD) for email in emails]
    create = {**step_form(sessions[0], portal_url + "/merchants/new"),
              **flatten(scenarios.form_data(scenarios.HAPPY, "create")), "action": "send"}
    created = sessions[0].post(portal_url + "/merchants/new", data=create, timeout=30)
    assert created.url.endswith("/steps/business")
    merchant_id = int(created.url.split("/")[-3])
    url = f"{portal_url}/merchants/{merchant_id}/steps/business"

    def bodies(action: str) -> list[dict]:
        business = flatten(scenarios.form_data(scenarios.HAPPY, "business"))
        return [{**step_form(session, url), **business, "action": action,
                 "registeredName": f"Trader {i} Private Limited"}
                for i, session in enumerate(sessions)]

    # the step's first save: nobody has a draft yet, all send at once
    answers = post_at_once([(session, url, body) for session, body in zip(
        sessions, bodies("send"), strict=True)], allow_redirects=True)
    assert [a.status_code for a in answers] == [200] * SESSIONS
    winners = [a for a in answers if a.url.endswith("/steps/owners")]
    assert len(winners) == 1
    assert sum(CONFLICT in a.text for a in answers) == SESSIONS - 1
    [draft] = stored_business(app, merchant_id)
    assert draft.version == 1
    [body] = sent_to_sandbox(sandbox, "/business-details")  # one send, the winner's
    assert draft.payload["registeredName"].encode() in body

    # later, everyone saves a draft of the same version at once
    answers = post_at_once([(session, url, body) for session, body in zip(
        sessions, bodies("draft"), strict=True)], allow_redirects=True)
    assert [a.status_code for a in answers] == [200] * SESSIONS
    assert sum(CONFLICT in a.text for a in answers) == SESSIONS - 1
    [draft] = stored_business(app, merchant_id)
    assert draft.version == 2
    [winner] = [i for i, a in enumerate(answers) if CONFLICT not in a.text]
    assert draft.payload["registeredName"] == f"Trader {winner} Private Limited"
    assert len(sent_to_sandbox(sandbox, "/business-details")) == 1
