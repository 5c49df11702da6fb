"""A draft saved on the way to a link (``static/js/keep-typing.js`` posts it) opens that link;
the fill's question, reopened, goes back to the steps."""

from __future__ import annotations

from tests.wizard.support import step_url


def test_a_draft_saved_on_the_way_opens_the_link_left_for(browser, new_merchant):
    page = browser.get(step_url(new_merchant, "bank"))
    left = browser.submit(page, {"bankAccountNumber": "5556667778",
                                 "leave_to": step_url(new_merchant, "owners")}, action="draft")
    assert left.response.request.path == step_url(new_merchant, "owners")
    assert "Draft saved; nothing was sent to the gateway." in left.text()
    shown = browser.get(step_url(new_merchant, "bank")).soup
    assert shown.find(attrs={"name": "bankAccountNumber"})["value"] == "5556667778"


def test_a_link_off_the_site_goes_home_instead(browser, new_merchant):
    page = browser.get(step_url(new_merchant, "bank"))
    left = browser.submit(page, {"leave_to": "//evil.example/steal"}, action="draft")
    assert left.response.request.path == "/worklist"  # an ops user's home page


def test_without_a_link_a_draft_stays_on_its_step(browser, new_merchant):
    page = browser.get(step_url(new_merchant, "bank"))
    stayed = browser.submit(page, action="draft")
    assert stayed.response.request.path == step_url(new_merchant, "bank")


def test_the_fills_question_reopened_goes_to_the_first_step(browser, new_merchant):
    reopened = browser.get(f"/merchants/{new_merchant}/fill")
    assert reopened.response.status_code == 302
    assert reopened.response.headers["Location"] == step_url(new_merchant, "create")
