"""Who may open the verification page: single-use, expiring links and valid sessions only."""

from __future__ import annotations

from datetime import timedelta

import pytest
import requests

from portal.sandbox.onboarding.backend import TOKEN_LIFETIME
from tests.sandbox.verification_pages import PARTNER_ORIGIN, open_link, parsed, press, ready_link


def test_second_use_of_a_link_is_refused(sandbox_server, partner, onboarding_id):
    link = ready_link(partner, onboarding_id)
    assert open_link(link).response.status_code == 200
    again = open_link(link)
    assert again.response.status_code == 410
    assert "This verification link was already used. Ask the partner for a new verification " \
           "link." in again.text()
    assert again.soup.find("form") is None
    assert again.csp()["frame-ancestors"] == PARTNER_ORIGIN  # the refusal shows in the iframe


def test_a_head_probe_does_not_use_the_link_up(sandbox_server, partner, onboarding_id):
    link = ready_link(partner, onboarding_id)
    assert requests.head(link, timeout=5).status_code == 200
    assert open_link(link).response.status_code == 200


def test_link_expires_after_24_hours(sandbox_server, partner, onboarding_id):
    link = ready_link(partner, onboarding_id)
    sandbox_server.clock.advance((TOKEN_LIFETIME + timedelta(seconds=1)).total_seconds())
    page = open_link(link)
    assert page.response.status_code == 410
    assert "This verification link has expired." in page.text()


def test_link_works_until_its_last_second(sandbox_server, partner, onboarding_id):
    link = ready_link(partner, onboarding_id)
    sandbox_server.clock.advance((TOKEN_LIFETIME - timedelta(seconds=1)).total_seconds())
    assert open_link(link).response.status_code == 200


def test_session_ends_when_the_link_would_have_expired(sandbox_server, partner, onboarding_id):
    page = open_link(ready_link(partner, onboarding_id))
    sandbox_server.clock.advance(TOKEN_LIFETIME.total_seconds())
    late = press(sandbox_server.url, page, "tnc", accept="yes")
    assert late.response.status_code == 410
    assert "session has expired" in late.text()
    assert partner.get_status(onboarding_id).merchantOnboardingCheckListStatus.tncAcknowledged \
        == "PENDING"


@pytest.mark.parametrize("query", ["", "?token=nope&onboardingId=x", "?token=&onboardingId="])
def test_unknown_link_is_refused_and_not_framable(sandbox_server, query):
    page = open_link(sandbox_server.url + "/verification" + query)
    assert page.response.status_code == 404
    assert "This verification link is not valid." in page.text()
    assert page.csp()["frame-ancestors"] == "'none'"


def test_link_for_another_record_is_refused_without_using_it_up(sandbox_server, partner,
                                                                onboarding_id):
    link = ready_link(partner, onboarding_id)
    assert open_link(link.replace(onboarding_id, "pg_onboard_other")).response.status_code \
        == 404
    assert open_link(link).response.status_code == 200


@pytest.mark.parametrize("session", ["", "forged-session-id"])
def test_a_step_needs_a_valid_session(sandbox_server, session):
    response = requests.post(sandbox_server.url + "/verification",
                             data={"session": session, "action": "tnc", "accept": "yes"},
                             timeout=5)
    assert response.status_code == 403
    assert "session is not valid" in parsed(response).text()
