"""Two people editing one step: the second save is refused with a diff, nothing is overwritten."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from portal.core.db import db
from portal.core.models.step import StepDraft
from portal.domain.onboarding import scenarios
from tests.outbox.support import sent_to_sandbox
from tests.support.accounts import AuthActions
from tests.support.browser import Browser
from tests.wizard.support import typed


@pytest.fixture
def colleague(app) -> Browser:
    """A second member of staff, signed in from another browser."""
    other = app.test_client()
    AuthActions(app, other).login("ops", email="colleague@example.com")
    return Browser(other)


def stored(app, merchant_id: int, step: str) -> StepDraft:
    """The step's draft as stored."""
    with app.app_context():
        draft = db.session.scalar(select(StepDraft).where(StepDraft.merchant_id == merchant_id,
                                                          StepDraft.step == step))
        db.session.expunge(draft)
        return draft


@pytest.mark.parametrize("action", ["draft", "send"])
def test_the_second_save_is_refused_with_what_changed_and_keeps_the_typing(
        browser, colleague, app, sandbox, new_merchant, action):
    url = f"/merchants/{new_merchant}/steps/business"
    mine, theirs = browser.get(url), colleague.get(url)
    colleague.submit(theirs, typed(scenarios.HAPPY, "business",
                                   registeredName="Alpha Traders Private Limited"),
                     action="draft")
    page = browser.submit(mine, typed(scenarios.HAPPY, "business",
                                      registeredName="Beta Traders Private Limited",
                                      tradeName="Beta"), action=action)
    assert page.response.request.path == url
    assert any("Someone else saved this step" in e for e in page.top_errors())
    changes = [li.get_text(" ", strip=True) for li in page.soup.select(".draft-conflict li")]
    assert changes == [
        "Registered name: theirs 'Alpha Traders Private Limited' / "
        "yours 'Beta Traders Private Limited'",
        "Trade name: theirs 'Sandbox Traders' / yours 'Beta'",
    ]
    assert page.soup.find(attrs={"name": "registeredName"})["value"] == \
        "Beta Traders Private Limited"  # what they typed is kept in the form
    draft = stored(app, new_merchant, "business")
    assert draft.payload["registeredName"] == "Alpha Traders Private Limited"
    assert sent_to_sandbox(sandbox, "/business-details") == []  # refused before any send

    page = browser.submit(page, action="draft")  # having seen the diff, saving again is deliberate
    assert page.top_errors() == []
    assert stored(app, new_merchant, "business").payload["registeredName"] == \
        "Beta Traders Private Limited"
    assert stored(app, new_merchant, "business").version == draft.version + 1


def test_a_nested_list_difference_names_the_row_and_field(browser, colleague, app, new_merchant):
    url = f"/merchants/{new_merchant}/steps/owners"
    mine, theirs = browser.get(url), colleague.get(url)
    colleague.submit(theirs, typed(scenarios.HAPPY, "owners"), action="draft")
    page = browser.submit(mine, typed(scenarios.HAPPY, "owners", **{"owners-0-name": "Ravi"}),
                          action="draft")
    changes = [li.get_text(" ", strip=True) for li in page.soup.select(".draft-conflict li")]
    assert changes == ["Beneficial owners 1 > Full name: theirs 'Asha Rao' / yours 'Ravi'"]
