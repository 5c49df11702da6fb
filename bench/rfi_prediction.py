"""Requests for information the checks predicted: the sandbox's scenario merchants of every
entity type and regulated category, asking for cards, with a website that has every page the
review asks for or lacks its refund page, each onboarded twice to the end of the review.

Without the checks, a merchant sends what it has. With them, it first does what the portal
told it before step 1 and before the verification: "What you'll need"
(``portal.domain.requirements``) lists its sector's certificate, so it is uploaded; the website
check (``portal.domain.website_check``) reports a missing page, so the site gets it. The
sandbox's review (``reviewWebsites`` on) reads the site itself and asks for what the
requirements page says only the review finds (``portal/sandbox/onboarding/compliance.py``).
A merchant "reached a predicted RFI" when its review ended in RFI for nothing but what the
checks had named. Run alone: ``python -m bench --only rfi_prediction``."""

from __future__ import annotations

from dataclasses import dataclass

from bench.measure import Row
from bench.stack import Bench
from portal.domain.onboarding.scenarios import company_pan
from portal.domain.requirements.table import BY_SECTOR, CARDS, Sector, needed
from portal.domain.website_check.job import check_website
from portal.gateway.onboarding.client import OnboardingClient
from portal.gateway.onboarding.vocabulary import SOLE_PROP_DOCS, EntityType, OnboardingStatus
from portal.sandbox.onboarding.compliance import LOB_DOCUMENT
from tests.sandbox.payloads import business, create_body, document, fill_every_step
from tests.support.sandbox import serve_sandbox
from tests.support.servers import serve
from tests.support.websites import HOME, site

KEY, SECRET = "bench-rfi-key", "bench-rfi-secret-0123456789"  # a local sandbox's key
#: Each category the bench onboards: the requirements' sector and the sandbox's category code.
CATEGORIES: dict[Sector | None, str] = {
    None: "BUS.IT_SERVICES",
    Sector.FOOD_AND_BEVERAGES: "FOOD.RESTAURANTS",
    Sector.JEWELLERY: "RETAIL.JEWELLERY",
    Sector.INSURANCE: "FIN.INSURANCE",
    Sector.INTERNATIONAL_TRAVEL: "TRANS.TRAVEL_AGENCY",
}
COMPLETE = HOME.replace('<a href="mailto:refunds@chai.example">refunds</a>',
                        '<a href="/refunds">Refund policy</a>')
SITES = {"/complete/": ("200 OK", {}, COMPLETE), "/no-refund/": ("200 OK", {}, HOME)}
NAMES = ["Chai Point", "Chai Point Traders"]


@dataclass(frozen=True)
class Outcome:
    """One merchant's review: RFI or not, and whether the checks had named all it asked."""

    rfi: bool
    predicted: bool


def reviewed(client: OnboardingClient, sandbox, entity: str, nature: str, website: str,
             uploads: list[str]) -> tuple[OnboardingStatus, list[str], list[str]]:
    """One merchant onboarded to the review's end: its status, the documents and the website
    pages the review asked for."""
    oid = client.create_onboarding(create_body(company_pan())).onboarding_id
    fill_every_step(client, oid)
    client.update_business_details(oid, business(
        entity, natureOfBusiness=nature, websiteUrl=website, noPartnershipRegistrationCheck=True))
    pending = client.get_status(oid).merchantOnboardingCheckListStatus.documentsToBeUploaded
    proofs = iter(SOLE_PROP_DOCS)  # a proprietor's two pending keys: two distinct proofs
    for doc_type in [*pending, *uploads]:
        client.upload_document(oid, document(
            next(proofs) if doc_type.startswith("SOLE_PROP_DOC_") else doc_type))
    sandbox.backend.complete_verification(oid)
    status = sandbox.backend.finish_review(oid)
    record = sandbox.backend._get(oid)
    return status, list(record.requested_documents), list(record.website_gaps)


def onboard(client: OnboardingClient, sandbox, base: str, with_checks: bool) -> list[Outcome]:
    """Every profile onboarded once, with or without the checks."""
    outcomes = []
    for entity in EntityType:
        for sector, nature in CATEGORIES.items():
            certificate = any(row.source == BY_SECTOR and row.sectors
                              for row in needed(entity, sector, frozenset(CARDS)))
            for path in SITES:
                missing = check_website(f"{base}{path}", NAMES, allow_loopback=True)["missing"]
                told_site = bool({"a refund policy page"} & set(missing))
                website = f"{base}/complete/" if with_checks and told_site else f"{base}{path}"
                uploads = [LOB_DOCUMENT] if with_checks and certificate else []
                status, documents, pages = reviewed(client, sandbox, entity, nature, website,
                                                    uploads)
                named = (not documents or (certificate and documents == [LOB_DOCUMENT])) and \
                    (not pages or set(pages) <= set(missing))
                rfi = status is OnboardingStatus.RFI
                outcomes.append(Outcome(rfi, rfi and named))
    return outcomes


def run(bench: Bench) -> list[Row]:
    """Onboard every profile without and with the checks; the RFIs each way."""
    config = {"partners": [{"partnerId": "partner-rfi", "keys": [
        {"apiKey": KEY, "apiSecret": SECRET, "active": True}]}], "reviewWebsites": True}
    with serve_sandbox(config) as sandbox, serve(site(SITES)) as base:
        client = OnboardingClient(sandbox.url, KEY, SECRET)
        without = onboard(client, sandbox, base, with_checks=False)
        with_checks = onboard(client, sandbox, base, with_checks=True)
    count = len(without)
    predicted = (sum(o.predicted for o in with_checks), sum(o.predicted for o in without))
    reached = (sum(o.rfi for o in with_checks), sum(o.rfi for o in without))
    return [
        Row(f"merchants (of {count}) reaching an RFI the checks predicted, with vs without",
            predicted[0], predicted[1], "merchants", "0 with", predicted[0] == 0),
        Row(f"merchants (of {count}) reaching any RFI, with vs without the checks",
            reached[0], reached[1], "merchants", "-", None),
    ]
