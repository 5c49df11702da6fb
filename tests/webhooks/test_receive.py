"""POST /webhooks/onboarding: signature, storage once, status re-read, never backward, fast."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from sqlalchemy import select, text

from portal.app.factory import create_app
from portal.app.worker.sync import sync_once
from portal.core.clients import onboarding_client
from portal.core.config import SETTINGS_EXTENSION, current_settings
from portal.core.db import db
from portal.core.models.audit import AuditEvent
from portal.core.models.merchant import Merchant
from portal.core.models.status_change import StatusChange, StatusSource
from portal.core.models.webhook_event import WebhookEvent
from portal.domain.audit.service import SYSTEM
from portal.domain.onboarding.status_history import change_status, may_move
from portal.features.webhooks import service
from portal.gateway.onboarding.answers import MerchantData
from portal.gateway.onboarding.hmac import hmac_digest
from portal.gateway.transport import Timeouts
from tests.support.rows import stored
from tests.support.servers import silent_address
from tests.support.settings import API_SECRET
from tests.verification.support import backend_of, onboard
from tests.webhooks.support import _post


def _body(onboarding_id: str, event_id: str | None = "evt_1", **extra: str) -> bytes:
    payload = {"onboarding_id": onboarding_id, "onboarding_status": "APPROVED",
               "event_timestamp": "1767600000000", "status": "MERCHANT_VKYC_COMPLETED",
               "vkyc_completed": "true", **extra}
    if event_id is not None:
        payload["event_id"] = event_id
    return json.dumps(payload, separators=(",", ":")).encode()


def _events(app) -> list[WebhookEvent]:
    with app.app_context():
        return list(db.session.scalars(select(WebhookEvent).order_by(WebhookEvent.id)))


def _changes(app, merchant_id: int) -> list[tuple[str | None, str, str]]:
    with app.app_context():
        return [(c.from_status, c.to_status, c.source) for c in db.session.scalars(
            select(StatusChange).where(StatusChange.merchant_id == merchant_id)
            .order_by(StatusChange.id))]


def _status_reads(sandbox) -> int:
    return sum(1 for r in backend_of(sandbox).received_requests()
               if r.method == "GET" and r.raw_path.endswith("/status"))


@pytest.fixture
def merchant_id(app) -> int:
    """A merchant at PENDING_VERIFICATION."""
    return onboard(app)


# ---------------------------------------------------------------- authentication


@pytest.mark.parametrize(("secret", "digest"), [
    (None, None),
    ("another-secret", None),
    (None, ""),
    (None, "not base64 at all"),
])
def test_a_missing_or_wrong_digest_is_refused_and_nothing_is_stored(app, client, secret,
                                                                     digest):
    response = _post(client, _body("pg_onboard_x"), secret=secret, digest=digest)
    assert response.status_code == 401
    assert _events(app) == []


def test_a_digest_over_other_bytes_is_refused(app, client):
    body = _body("pg_onboard_x")
    reserialized = json.dumps(json.loads(body), indent=1).encode()
    assert _post(client, body, digest=hmac_digest(API_SECRET, reserialized)).status_code == 401
    assert _post(client, body, digest=hmac_digest(API_SECRET, body).encode().hex()) \
        .status_code == 401


def test_any_of_several_secrets_is_accepted(settings):
    app = create_app(settings.with_changes(webhook_secrets=("retiring-secret", API_SECRET)))
    client = app.test_client()
    assert _post(client, _body("pg_onboard_x", "evt_a"), "retiring-secret").status_code == 200
    assert _post(client, _body("pg_onboard_x", "evt_b"), API_SECRET).status_code == 200


def test_without_configured_secrets_no_digest_is_asked_for(settings):
    app = create_app(settings.with_changes(webhook_secrets=()))
    assert _post(app.test_client(), _body("pg_onboard_x"), secret=None).status_code == 200


def test_a_body_that_is_not_a_json_object_is_refused(client):
    for body in (b"not json", b"[1, 2]"):
        assert _post(client, body).status_code == 400
    assert _post(client, b" " * (service.MAX_BODY_BYTES + 1)).status_code == 413


# ---------------------------------------------------------------- a hint, stored once


def test_the_status_comes_from_the_re_read_not_from_the_payload(app, client, sandbox,
                                                                 merchant_id):
    onboarding_id = stored(app, merchant_id).onboarding_id
    backend_of(sandbox).complete_verification(onboarding_id)
    response = _post(client, _body(onboarding_id))  # the payload claims APPROVED
    assert response.status_code == 200
    assert stored(app, merchant_id).status == "PENDING_REVIEW"
    assert _changes(app, merchant_id)[-1] == ("PENDING_VERIFICATION", "PENDING_REVIEW",
                                              "webhook")
    event = _events(app)[0]
    assert event.processed_at is not None
    assert event.dedup_key == "id:evt_1"
    assert json.loads(event.body)["status"] == "MERCHANT_VKYC_COMPLETED"


def test_a_repeated_event_is_answered_200_without_effect(app, client, sandbox, merchant_id):
    onboarding_id = stored(app, merchant_id).onboarding_id
    before = _status_reads(sandbox)
    assert _post(client, _body(onboarding_id)).status_code == 200
    repeated = _post(client, _body(onboarding_id))
    assert repeated.status_code == 200 and repeated.json == {"outcome": "duplicate"}
    assert len(_events(app)) == 1
    assert _status_reads(sandbox) == before + 1


def test_events_without_an_id_are_deduplicated_by_their_body(app, client, merchant_id):
    onboarding_id = stored(app, merchant_id).onboarding_id
    body = _body(onboarding_id, event_id=None)
    assert _post(client, body).status_code == 200
    assert _post(client, body).json == {"outcome": "duplicate"}
    assert _post(client, _body(onboarding_id, event_id=None, extra="x")).status_code == 200
    assert [e.dedup_key.split(":")[0] for e in _events(app)] == ["sha256", "sha256"]


def test_an_unknown_onboarding_id_is_stored_and_harmless(app, client, sandbox, merchant_id):
    before = _status_reads(sandbox)
    response = _post(client, _body("pg_onboard_nobody"))
    assert response.status_code == 200
    event = _events(app)[0]
    assert (event.onboarding_id, event.outcome) == ("pg_onboard_nobody", "unknown onboarding id")
    assert event.processed_at is not None
    assert _status_reads(sandbox) == before
    assert stored(app, merchant_id).status == "PENDING_VERIFICATION"


# ---------------------------------------------------------------- never backward


@pytest.mark.parametrize(("current", "new", "allowed"), [
    (None, "INITIATED", True),
    ("INITIATED", "IN_PROGRESS", True),
    ("IN_PROGRESS", "PENDING_VERIFICATION", True),
    ("PENDING_VERIFICATION", "APPROVED", True),
    ("PENDING_REVIEW", "RFI", True),
    ("RFI", "PENDING_REVIEW", True),
    ("RFI", "APPROVED", True),
    ("RFI", "REJECTED", True),
    ("PENDING_REVIEW", "PENDING_VERIFICATION", False),
    ("PENDING_REVIEW", "PENDING_REVIEW", False),
    ("IN_PROGRESS", "INITIATED", False),
    ("RFI", "IN_PROGRESS", False),
    ("APPROVED", "REJECTED", False),
    ("APPROVED", "PENDING_REVIEW", False),
    ("REJECTED", "APPROVED", False),
    ("PENDING_REVIEW", "UNDER_REVIEW", False),
])
def test_status_moves_only_forward(current, new, allowed):
    assert may_move(current, new) is allowed


class StaleGateway:
    """A client whose status read lags behind (a slow replica, an old answer)."""

    def __init__(self, onboarding_id: str, status: str) -> None:
        self.answer = MerchantData.from_answer({"merchantInfo": {
            "onboardingId": onboarding_id, "onboardingStatus": status}}, "gid-stale")

    def get_status(self, _onboarding_id: str) -> MerchantData:
        """The stale answer."""
        return self.answer


def test_a_stale_read_after_a_webhook_never_moves_the_status_back(app, merchant_id):
    with app.app_context():
        merchant = db.session.get(Merchant, merchant_id)
        change_status(merchant, "PENDING_REVIEW", StatusSource.POLL, actor=SYSTEM)
        db.session.commit()
        body = _body(merchant.onboarding_id, "evt_old")
        gateway = StaleGateway(merchant.onboarding_id, "PENDING_VERIFICATION")
        receipt = service.receive(body, hmac_digest(API_SECRET, body), current_settings(),
                                  gateway)  # type: ignore[arg-type]
        assert receipt.status == 200
        stale = db.session.scalars(select(AuditEvent).where(
            AuditEvent.outcome == "stale")).one()
        assert stale.detail["read"] == "PENDING_VERIFICATION"
    assert stored(app, merchant_id).status == "PENDING_REVIEW"
    assert _changes(app, merchant_id)[-1] == ("PENDING_VERIFICATION", "PENDING_REVIEW", "poll")


def test_webhooks_repeated_and_in_reverse_order_end_at_the_right_status(
        app, client, auth, sandbox, merchant_id, portal_server):
    from portal.sandbox.webhooks.dispatcher import WebhookFaults

    backend = backend_of(sandbox)
    backend.webhooks.set_faults(WebhookFaults(duplicate=True, reverse_order=True))
    backend.complete_verification(stored(app, merchant_id).onboarding_id)
    backend.tick()
    assert stored(app, merchant_id).status == "APPROVED"
    assert [to for _f, to, _s in _changes(app, merchant_id)][-1] == "APPROVED"
    events = _events(app)
    assert len(events) == len({d.event_id for d in backend.webhooks.deliveries()})
    assert all(e.processed_at is not None for e in events)


def test_a_status_change_is_a_compare_and_set(app, merchant_id):
    with app.app_context():
        merchant = db.session.get(Merchant, merchant_id)  # read PENDING_VERIFICATION
        with db.engine().begin() as other:  # meanwhile another process moved it on
            other.execute(text("UPDATE merchants SET status = 'APPROVED' WHERE id = :id"),
                          {"id": merchant_id})
        assert change_status(merchant, "PENDING_REVIEW", StatusSource.WEBHOOK,
                             actor=SYSTEM) is False
        assert merchant.status == "APPROVED"
        db.session.commit()
    assert stored(app, merchant_id).status == "APPROVED"
    assert ("PENDING_VERIFICATION", "PENDING_REVIEW", "webhook") not in _changes(app, merchant_id)


# ---------------------------------------------------------------- fast, even when the gateway hangs


@pytest.fixture
def hanging_gateway() -> Iterator[str]:
    """A loopback port that accepts connections and never answers."""
    with silent_address() as url:
        yield url


def test_the_re_read_gives_up_well_within_the_gateways_10_seconds(settings, monkeypatch):
    built = []
    monkeypatch.setattr(service, "onboarding_client",
                        lambda _settings, **options: built.append(options))
    service.webhook_client(settings)
    [options] = built
    timeouts, retry = options["timeouts"], options["retry"]
    assert retry.attempts == 1  # one try: no backoff adds to the wait
    assert timeouts.connect + timeouts.read < 8


def test_answered_when_the_gateway_hangs_then_the_sync_finishes(
        app, client, sandbox, settings, merchant_id, hanging_gateway, monkeypatch):
    # the re-read's own timeouts (checked above) cut to a tenth of a second: nothing waits
    monkeypatch.setattr(service, "TIMEOUTS", Timeouts(connect=0.1, read=0.1))
    onboarding_id = stored(app, merchant_id).onboarding_id
    backend_of(sandbox).complete_verification(onboarding_id)
    app.extensions[SETTINGS_EXTENSION] = settings.with_changes(onboarding_url=hanging_gateway)
    response = _post(client, _body(onboarding_id))
    assert response.status_code == 200
    event = _events(app)[0]
    assert event.processed_at is None
    assert event.outcome.startswith("re-read failed, left for the sync")
    assert stored(app, merchant_id).status == "PENDING_VERIFICATION"

    app.extensions[SETTINGS_EXTENSION] = settings  # the gateway is back
    with app.app_context():
        report = sync_once(onboarding_client(current_settings()))
    assert (report.read, report.moved, report.events) == (1, 1, 1)
    event = _events(app)[0]
    assert event.processed_at is not None and event.outcome == "status read by the sync"
    assert stored(app, merchant_id).status == "PENDING_REVIEW"
