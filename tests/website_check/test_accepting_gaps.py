"""Ops accepting a website check's gap with a note: audited, shown on the summary as accepted
by whom with the note, and no longer among what the gateway will likely ask for."""

from __future__ import annotations

from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.domain.website_check.acceptance import kept_acceptances, open_gaps
from tests.support.browser import Browser
from tests.support.team import audited
from tests.wizard.support import send_through_pages

REFUND, SHIPPING = "a refund policy page", "a shipping or delivery policy page"
CHECKED = {"url": "https://chai.example.com", "checked_at": "2026-12-02T10:00:00",
           "links": {"privacy": "https://chai.example.com/privacy"}, "facts": ["prices"],
           "missing": [REFUND, SHIPPING], "error": "", "https": True}


def checked_merchant(app, browser: Browser) -> int:
    """A merchant whose last website check found no refund and no shipping page."""
    merchant_id = send_through_pages(browser)
    with app.app_context():
        db.session.get(Merchant, merchant_id).website_check = dict(CHECKED)
        db.session.commit()
    return merchant_id


def test_an_accepted_gap_shows_who_and_why_and_is_no_longer_likely_asked(auth, client, app):
    auth.login("ops")
    browser = Browser(client)
    merchant = checked_merchant(app, browser)
    summary = browser.get(f"/merchants/{merchant}")
    summary = browser.submit(summary, {"note": "Sells services only: nothing is shipped."},
                             action="",
                             selector=f"form:has(input[name='gap'][value='{SHIPPING}'])")
    assert f"Accepted: {SHIPPING}" in summary.text()
    accepted = summary.soup.select_one(f".website-accepted li[data-gap='{SHIPPING}']")
    assert "by ops@example.com" in accepted.get_text(" ", strip=True)
    assert "Sells services only: nothing is shipped." in accepted.get_text(" ", strip=True)
    gaps = browser.get(f"/merchants/{merchant}/verification").soup.select_one(".website-gaps")
    told = " ".join(gaps.get_text(" ", strip=True).split())
    assert f"The gateway will likely ask for: {REFUND} (the website check" in told
    assert SHIPPING not in told
    entry = audited(app, "merchant.website_gap_accepted")[0]
    assert entry.merchant_id == merchant
    assert entry.detail == {"gap": SHIPPING, "note": "Sells services only: nothing is shipped."}


def test_a_gap_without_a_note_is_not_accepted(auth, client, app):
    auth.login("ops")
    browser = Browser(client)
    merchant = checked_merchant(app, browser)
    summary = browser.submit(browser.get(f"/merchants/{merchant}"), {"note": "  "}, action="",
                             selector=f"form:has(input[name='gap'][value='{REFUND}'])")
    assert "Say why this gap is acceptable" in summary.text()
    assert not audited(app, "merchant.website_gap_accepted")


def test_a_new_check_keeps_the_acceptances_of_the_gaps_it_still_finds():
    previous = CHECKED | {"accepted": {SHIPPING: {"by": "ops", "note": "n", "at": "x"},
                                       REFUND: {"by": "ops", "note": "n", "at": "x"}}}
    again = kept_acceptances(previous, CHECKED | {"missing": [SHIPPING]})
    assert again["accepted"] == {SHIPPING: {"by": "ops", "note": "n", "at": "x"}}
    assert open_gaps(again) == []
    assert open_gaps(CHECKED) == [REFUND, SHIPPING]
