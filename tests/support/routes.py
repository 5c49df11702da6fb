"""Every route of the portal with real rows to point at: one of each kind of row, and the URL of
every GET route filled with their ids (the hardening and hostile-input tests walk them)."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

from flask import Flask, url_for
from sqlalchemy import select
from werkzeug.routing import Rule

from portal.core import clock
from portal.core.config import Settings
from portal.core.db import db
from portal.core.models.api_key import KeyState
from portal.core.models.branding import PartnerBranding
from portal.core.models.change_request import ChangeRequest
from portal.core.models.document import DocumentStatus, StoredDocument
from portal.core.models.merchant import Merchant
from portal.core.models.payment import Payment
from portal.core.models.payment_link import PaymentLink
from portal.core.models.user import Role
from portal.domain.api import keys as api_keys
from portal.domain.api.scopes import Scope
from portal.domain.asks import service as asks
from portal.domain.audit.service import Actor
from portal.domain.four_eyes.requests import request_admin_role
from portal.domain.onboarding import merchant_links as links
from portal.domain.onboarding.steps import STEPS
from portal.domain.partner_events.catalogue import EventType
from portal.domain.partner_events.endpoints import add_endpoint
from portal.domain.partner_events.merchant_events import status_changed
from portal.domain.payments.links import tokens as payment_tokens
from portal.domain.users.accounts import create_user, find_user
from portal.domain.users.passwords import generate_password
from portal.features.team import admin_confirmation, tokens
from tests.verification.support import onboard

#: A CSV the bulk import refuses: it leaves an import row with its problems behind.
REFUSED_CSV = b"not,a,merchant,file\n1,2,3,4\n"
#: Where the held new administrator's confirmation goes: the settings of a test that wants its
#: page live (not refused) name it as ADMIN_CONFIRMATION_EMAIL.
CONFIRMATION_ADDRESS = "security@partner.example"
#: The document the gateway asks of the seeded merchant.
ASKED_DOCUMENT = "BANK_STATEMENT"
#: A real file for each static route.
STATIC_FILES = {"static": "css/wizard.css"}


def refused_import(client) -> int:
    """Upload a file the bulk import refuses; the import's id from the imports page."""
    client.post("/admin/bulk/", data={"file": (io.BytesIO(REFUSED_CSV), "refused.csv")},
                content_type="multipart/form-data")
    found = re.findall(r"/admin/bulk/(\d+)", client.get("/admin/bulk/").get_data(as_text=True))
    assert found, "the refused import is not listed on the imports page"
    return int(found[0])


def seed_rows(app: Flask, admin_client, settings: Settings) -> dict[str, Any]:
    """With ``admin_client`` signed in as an admin: the ids of a merchant at
    PENDING_VERIFICATION, its document, a payment, a refused bulk import, a live merchant link
    with its token, the partner's branding with a logo, the admin's password reset and
    invitation tokens, an operations user (whom the team page may promote), a new
    administrator held for an emailed confirmation with its link's token, an API key's
    token, a change request emailed to the gateway's support, a partners' webhook
    endpoint with an event queued for it, and the reference of a document asked of the
    merchant with the merchant's upload of it."""
    merchant_id = onboard(app)
    with app.app_context():
        merchant = db.session.get(Merchant, merchant_id)
        document = db.session.scalars(select(StoredDocument).where(
            StoredDocument.merchant_id == merchant_id)).first()
        assert merchant is not None and document is not None
        payment = Payment(merchant_id=merchant_id, merchant_txn_id="HARDENING-TXN-1",
                          merchant_unique_id="HARDENING-UID-1", gid="gl_hardening_1",
                          status="AUTHORIZED", amount="10.00", currency="INR",
                          action_nonce="hardening-nonce")
        db.session.add(payment)
        db.session.commit()
        link, token = links.issue(settings.secret_key, merchant, Actor("admin@example.com"))
        merchant.documents_outstanding = [ASKED_DOCUMENT]  # an ask with its wording page
        upload = _merchant_upload(document, link.id)
        admin = find_user("admin@example.com")
        password_links = {purpose.endpoint: tokens.token_for(settings.secret_key, admin, purpose)
                          for purpose in (tokens.RESET, tokens.INVITE)}
        member = create_user("seeded.ops@example.com", generate_password(), Role.OPS)
        payment_link = _payment_link(merchant_id)
        change = ChangeRequest(merchant_id=merchant_id, section="bank", step="bank",
                               state="sent", old_values={}, new_values={}, reason="Hardening",
                               answer="", send_error="")
        db.session.add(change)
        db.session.add(PartnerBranding(id=1, display_name="Hardening Partner", sender_name="",
                                       accent_colour="", logo=b"\x89PNG\r\n\x1a\n",
                                       logo_type="image/png", updated_at=clock.utcnow(),
                                       updated_by="admin@example.com"))
        db.session.commit()
        held = request_admin_role("held.admin@example.com", None, False, "Night shift",
                                  admin.id, confirm_to=CONFIRMATION_ADDRESS)
        ids = {"merchant_id": merchant_id, "document_id": document.id,
               "payment_id": payment.id, "link_id": link.id, "token": token,
               "payment_link_id": payment_link.id,
               "payment_link_payment_id": payment_link.payment_id,
               "payment_link_token": payment_tokens.token_for(settings.secret_key, payment_link),
               "key": "merchant_link", "password_links": password_links, "user_id": member.id,
               "request_id": held.id,
               "confirmation_token": admin_confirmation.token_for(settings.secret_key, held.id),
               "api_token": _api_token(), "change_id": change.id, "section_key": "bank",
               "endpoint_id": _partner_endpoint(merchant),
               "ref": asks.reference(settings.secret_key, merchant, ASKED_DOCUMENT),
               "merchant_upload_id": upload.id}
    return {**ids, "import_id": refused_import(admin_client)}


def _merchant_upload(document: StoredDocument, link_id: int) -> StoredDocument:
    """The merchant's upload on their link of the asked document, waiting for ops' review: the
    wizard's ``document``'s file again (committed)."""
    upload = StoredDocument(merchant_id=document.merchant_id, doc_type=ASKED_DOCUMENT,
                            original_filename="statement.pdf",
                            stored_name=f"merchant-{document.stored_name}"[:80],
                            sha256=document.sha256, size=document.size,
                            content_type=document.content_type, link_id=link_id,
                            status=DocumentStatus.FROM_MERCHANT)
    db.session.add(upload)
    db.session.commit()
    return upload


def _api_token() -> str:
    """An active API key with every scope (committed): the API's routes open with it."""
    issued = api_keys.stage_key("Hardening", list(Scope), None, None, Actor("test"))
    issued.key.state = KeyState.ACTIVE
    db.session.commit()
    return issued.token


def _partner_endpoint(merchant: Merchant) -> int:
    """A webhook endpoint for partners with one event queued for it (committed): its
    delivery log has a row."""
    endpoint = add_endpoint("http://127.0.0.1:9/hooks", "Hardening", [
        EventType.MERCHANT_STATUS_CHANGED.value], None, Actor("test"), allow_loopback=True)
    db.session.flush()
    status_changed(merchant, merchant.status, "APPROVED")
    db.session.commit()
    return endpoint.endpoint.id


def headers_for(endpoint: str, ids: dict[str, Any]) -> dict[str, str]:
    """What a GET of ``endpoint`` sends beyond the session: the API's take the seeded key."""
    return {"Authorization": f"Bearer {ids['api_token']}"} if endpoint.startswith("api.") else {}


def _payment_link(merchant_id: int) -> PaymentLink:
    """A hold not sent yet, whose link was emailed to its customer (added, not committed)."""
    hold = Payment(merchant_id=merchant_id, merchant_txn_id="HARDENING-TXN-2",
                   merchant_unique_id="HARDENING-UID-2", status="PENDING", amount="10.00",
                   currency="INR", action_nonce="hardening-nonce-2")
    db.session.add(hold)
    db.session.flush()
    now = clock.utcnow()
    link = PaymentLink(payment_id=hold.id, nonce="hardening-link-nonce", state="waiting",
                       expires_at=now + timedelta(days=1), emailed_at=now, emails_sent=1,
                       failure="")
    db.session.add(link)
    db.session.flush()
    return link


#: GET routes a token opens once (a phone hand-over's code): without a fresh one they answer
#: their refusal page, 410, which must be as hardened as any other.
SINGLE_USE = {"verification.phone_open": 410}


def opened(endpoint: str, status: int) -> bool:
    """Whether a GET of ``endpoint`` answered as it should for these ids."""
    return status < 400 or SINGLE_USE.get(endpoint) == status


def get_urls(app: Flask, ids: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """(endpoint, URL) for every GET route, filled with real ids; every step of the wizard."""
    rules: list[Rule] = [r for r in app.url_map.iter_rules() if "GET" in (r.methods or ())]
    with app.test_request_context():
        for rule in sorted(rules, key=lambda r: r.rule):
            known = {**ids, "filename": STATIC_FILES.get(rule.endpoint)}
            unknown = rule.arguments - {k for k, v in known.items() if v is not None} - {
                "step_key"}
            assert not unknown, f"{rule.rule}: give this test a real value for {unknown}"
            values = {name: known[name] for name in rule.arguments if name != "step_key"}
            if rule.endpoint in ("verification.merchant_page", "verification.phone_page",
                                 "verification.phone_status"):
                values["token"] = ids["token"]  # a path part or ?token=, as the route wants
            if rule.endpoint == "asks.refuse":
                values["document_id"] = ids["merchant_upload_id"]  # one waiting for review
            if rule.endpoint == "payment_links.page":
                values["token"] = ids["payment_link_token"]
            if rule.rule.endswith("/payments/<int:payment_id>/link"):
                values["payment_id"] = ids["payment_link_payment_id"]  # the payment with a link
            if rule.endpoint == admin_confirmation.ENDPOINT:
                values["token"] = ids["confirmation_token"]
            if rule.endpoint in ids["password_links"]:
                values["token"] = ids["password_links"][rule.endpoint]
            for step in (STEPS if "step_key" in rule.arguments else [None]):
                if step is not None and not step.available:
                    continue
                extra = {"step_key": step.key} if step is not None else {}
                yield rule.endpoint, url_for(rule.endpoint, **values, **extra)
