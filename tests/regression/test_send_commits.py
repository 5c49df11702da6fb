"""Regression guards of "Save and send": two commits per send (the draft with the body before the
call, the answer after it) and a constant few statements."""

from __future__ import annotations

import pytest

from bench.measure import commits, statements
from portal.core.models.step import StepDraft, StepState
from portal.domain.onboarding import scenarios
from portal.gateway.onboarding.client import OnboardingClient
from tests.support.browser import flatten
from tests.support.rows import fresh

#: The most statements a send of a step already sent may run: sign-in (user, session record),
#: the merchant and its drafts; the draft's versioned write, the queued send superseded, the
#: audit entry, the merchant's activity; the answer: the draft sent, the documents step's
#: draft, the audit entry, the merchant's activity.
SEND_LIMIT = 12


def send_fields(step: str, version: int | None = None) -> dict[str, str]:
    """The happy scenario's form for ``step``, sent (from a page loaded at ``version``)."""
    fields = {**flatten(scenarios.form_data(scenarios.HAPPY, step)), "action": "send"}
    return fields if version is None else {**fields, "draft_version": str(version)}


@pytest.fixture
def merchant_id(auth, client, sandbox) -> int:
    """A merchant created at the sandbox through step 1's page, by a signed-in ops user."""
    auth.login("ops")
    response = client.post("/merchants/new", data=send_fields("create"))
    assert response.status_code == 302
    return int(response.headers["Location"].split("/")[2])


def test_a_send_commits_the_draft_before_the_call_and_the_answer_after(app, client, merchant_id,
                                                                     monkeypatch):
    path = f"/merchants/{merchant_id}/steps/business"
    client.get(path)  # the business categories, cached
    real = OnboardingClient._call
    at_call: list[tuple[int, StepDraft]] = []
    with commits(app) as made:
        def witnessed(gateway: OnboardingClient, operation: str, *args, **kwargs):
            # what another connection reads in the database as the call goes out
            at_call.append((len(made), fresh(app, StepDraft, merchant_id=merchant_id,
                                              step="business")))
            return real(gateway, operation, *args, **kwargs)

        monkeypatch.setattr(OnboardingClient, "_call", witnessed)
        response = client.post(path, data=send_fields("business"))
    assert response.status_code == 302
    assert len(made) == 2
    ((before, draft),) = at_call
    assert before == 1
    after = fresh(app, StepDraft, id=draft.id)
    assert (draft.version, draft.state) == (1, StepState.DRAFT)  # what was typed, stored
    assert draft.payload == after.payload
    typed = scenarios.form_data(scenarios.HAPPY, "business")
    assert draft.payload["registeredName"] == typed["registeredName"]
    assert (after.version, after.state) == (1, StepState.SENT)


def test_a_repeated_send_commits_twice_and_runs_a_constant_few_statements(app, client,
                                                                         merchant_id):
    path = f"/merchants/{merchant_id}/steps/business"
    client.get(path)  # the business categories, cached
    assert client.post(path, data=send_fields("business", 0)).status_code == 302
    counts = []
    for version in (1, 2):
        with commits(app) as made, statements(app) as seen:
            response = client.post(path, data=send_fields("business", version))
        assert response.status_code == 302
        assert response.headers["Location"].endswith("/steps/owners")  # sent, not a conflict
        counts.append((len(made), len(seen)))
    assert counts[0] == counts[1]
    assert counts[0][0] == 2
    assert counts[0][1] <= SEND_LIMIT
