"""An individual has no beneficial owners (docs/gateway-contract.md, "Checklist words"): the
sandbox needs none, the docs' checklist says NOT_APPLICABLE, and the portal offers the
verification link without owners ever sent, in both answer dialects."""

from __future__ import annotations

from portal.domain.onboarding import scenarios
from tests.support.rows import stored
from tests.verification.support import backend_of, onboard, page_soup

#: What the checklist says of the owners in each dialect, in words.
OWNERS_IN_WORDS = {"contract": "Complete", "docs": "Not needed for this merchant"}


def test_an_individual_is_offered_verification_without_owners(app, client, auth, sandbox,
                                                             every_answer_dialect):
    auth.login("ops")
    merchant_id = onboard(app, scenarios.INDIVIDUAL)
    merchant = stored(app, merchant_id)
    assert merchant.status == "PENDING_VERIFICATION"
    sent_owners = backend_of(sandbox)._get(merchant.onboarding_id).owners
    assert (sent_owners is None) == (every_answer_dialect == "docs")  # docs: none ever sent
    assert merchant.checklist["beneficialOwners"] == {
        "contract": "COMPLETE", "docs": "NOT_APPLICABLE"}[every_answer_dialect]
    soup = page_soup(client, f"/merchants/{merchant_id}/verification")
    assert soup.select(".missing-items li") == []
    assert not soup.select_one("form.get-link button").has_attr("disabled")
    soup = page_soup(client, f"/merchants/{merchant_id}/verification/session")
    assert soup.select_one("iframe#verification-frame") is not None

    soup = page_soup(client, f"/merchants/{merchant_id}/status")
    assert soup.select_one(".checklist [data-item='beneficialOwners']").get_text(strip=True) \
        == OWNERS_IN_WORDS[every_answer_dialect]
    assert soup.select_one(".checklist [data-item='vkyc']").get_text(strip=True) == "To do"


def test_the_stepper_and_the_owners_step_say_they_are_not_needed(app, client, auth,
                                                                 every_answer_dialect):
    auth.login("ops")
    merchant_id = onboard(app, scenarios.INDIVIDUAL)
    soup = page_soup(client, f"/merchants/{merchant_id}/steps/owners")
    owners = soup.select_one(".stepper__step[data-step='owners']")
    if every_answer_dialect == "docs":
        assert owners["data-state"] == "not_needed"
        assert owners.select_one(".stepper__state").get_text() == "Not needed for this merchant"
        notice = soup.select_one(".not-needed")
        assert "marks this step as not applicable" in notice.get_text()
        assert notice.find("a")["href"] == f"/merchants/{merchant_id}/steps/bank"
        listing = page_soup(client, "/merchants")
        done = listing.select_one(f"tr[data-merchant='{merchant_id}'] .steps-done")
        assert done.get_text(strip=True) == "7 / 9"  # 1-7, the owners not needed
    else:  # the contract's words call the owners complete: the portal sent them as ever
        assert owners["data-state"] == "sent"
        assert soup.select_one(".not-needed") is None
