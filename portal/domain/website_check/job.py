"""The website check as a worker job: queued from the merchant's summary, run by the worker,
its result kept on the merchant (``Merchant.website_check``) with its date."""

from __future__ import annotations

from typing import Any

from portal.core import clock
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.domain.audit.service import Actor, record
from portal.domain.jobs.queue import JobEnd, enqueue
from portal.domain.onboarding.drafts import find_draft
from portal.domain.onboarding.steps import BY_KEY
from portal.domain.website_check.acceptance import kept_acceptances
from portal.domain.website_check.fetch import Refused, fetch_page, robots_allow
from portal.domain.website_check.reading import read_page

KIND = "website_check"


def queue_check(merchant: Merchant, *, actor: Actor) -> None:
    """Queue the check of the merchant's website, audited; commits."""
    enqueue(KIND, {"merchant_id": merchant.id})
    record("merchant.website_check", actor=actor, merchant_id=merchant.id)
    db.session.commit()


def check_website(url: str, names: list[str], allow_loopback: bool) -> dict[str, Any]:
    """What the website at ``url`` shows, as ``Merchant.website_check`` keeps it: the pages
    found with their links, the facts found, what is missing in words, or why it could not be
    read."""
    result: dict[str, Any] = {"url": url, "checked_at": clock.utcnow().isoformat(),
                              "links": {}, "facts": [], "missing": [], "error": ""}
    try:
        if not robots_allow(url, allow_loopback):
            raise Refused("The website's robots.txt asks checks like this one not to fetch it.")
        page = fetch_page(url, allow_loopback)
        if page.status != 200:
            raise Refused(f"The website answered with HTTP status {page.status}.")
    except Refused as exc:
        result["error"] = str(exc)
        return result
    reading = read_page(page.text, page.url, names)
    result |= {"links": reading.links, "facts": sorted(reading.facts),
               "missing": reading.missing(), "https": page.url.startswith("https://")}
    return result


def run_check(merchant_id: int, allow_loopback: bool) -> JobEnd:
    """Check the website step 2 names for the merchant and keep the result; commits."""
    merchant = db.session.get(Merchant, merchant_id)
    if merchant is None:
        return JobEnd.DONE  # deleted meanwhile: nothing to check
    business = find_draft(merchant, BY_KEY["business"])
    data = business.payload if business else {}
    url = str(data.get("websiteUrl") or "")
    names = [str(data.get(key) or "") for key in ("tradeName", "registeredName")]
    result = check_website(url, names, allow_loopback) if url else {
        "url": "", "checked_at": clock.utcnow().isoformat(), "links": {}, "facts": [],
        "missing": [], "error": "Step 2 holds no website address yet."}
    merchant.website_check = kept_acceptances(merchant.website_check or {}, result)
    db.session.commit()
    return JobEnd.DONE
