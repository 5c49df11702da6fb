"""The audit trail and log redaction: no secret, full PAN or account number is kept."""

from __future__ import annotations

import io
import json
import logging

import pytest
from flask_login import login_user
from sqlalchemy import select

from portal.app.factory import create_app
from portal.core.db import db
from portal.core.logging_filters import RedactingFilter, install_redaction
from portal.core.models import AuditEvent
from portal.core.redaction import mask_mapping, redact_text
from portal.domain.audit.service import SYSTEM, Actor, record
from portal.domain.users.accounts import find_user

PAN = "ABCPE1234F"
ACCOUNT = "123456789012"
SECRET = "sk_live_9f8e7d6c5b4a"
GID = "gl-b84ff0123456789015b6579d"  # a gateway id holding a run of 12 digits
SENSITIVE = {
    "pan": PAN,
    "business": {"panNumber": PAN, "gstin": "27AAPFU0939F1ZV",
                 "signatories": [{"authSignatoryPan": PAN, "name": "Asha"}]},
    "bankAccountNumber": ACCOUNT,
    "apiSecret": SECRET,
    "token": SECRET,
    "password": "hunter2hunter2",
    "documentContent": "JVBERi0xLjQKJcfsj6IKNSAwIG9iago8PC9MZW5ndGggNiAwIFI",
    "note": f"customer said account {ACCOUNT} and PAN {PAN}",
    "merchantRef": "shop-42",
}


def _stored(app) -> AuditEvent:
    with app.app_context():
        return db.session.scalars(select(AuditEvent)).one()


def test_record_masks_detail_before_storing(app):
    with app.app_context():
        record("merchant.create", actor=SYSTEM, merchant_id=7, gid="gid-1", detail=SENSITIVE)
        db.session.commit()
    event = _stored(app)
    stored = json.dumps(event.detail)
    for secret in (PAN, ACCOUNT, SECRET, "hunter2hunter2", SENSITIVE["documentContent"]):
        assert secret not in stored
    assert event.detail["pan"] == "******234F"
    assert event.detail["bankAccountNumber"] == "********9012"
    assert event.detail["business"]["signatories"][0] == {"authSignatoryPan": "******234F",
                                                          "name": "Asha"}
    assert event.detail["merchantRef"] == "shop-42"
    assert (event.merchant_id, event.gid, event.outcome) == (7, "gid-1", "ok")


def test_record_credits_the_system_when_told(app):
    with app.app_context():
        record("step.send", actor=SYSTEM, outcome="queued")
        db.session.commit()
    event = _stored(app)
    assert (event.actor_id, event.actor_label, event.outcome) == (None, "system", "queued")


def test_record_names_a_non_user_actor(app):
    with app.test_request_context():
        record("merchant.status", actor=Actor("webhook"))
        db.session.commit()
    assert _stored(app).actor_label == "webhook"


def test_record_names_the_user_it_is_given(app, auth):
    email = auth.create(role="admin")
    with app.test_request_context():
        user = find_user(email)
        login_user(user)
        record("merchant.create", actor=Actor.of(user))
        db.session.commit()
    event = _stored(app)
    assert (event.actor_id, event.actor_label) == (user.id, email)


def test_record_needs_to_be_told_who_did_it(app, auth):
    """No actor is read from the request behind the caller's back: a signed-in user must be
    named, as every other actor is."""
    email = auth.create(role="admin")
    with app.test_request_context():
        login_user(find_user(email))
        with pytest.raises(TypeError):
            record("merchant.create")  # type: ignore[call-arg]


def test_record_leaves_the_commit_to_the_caller(app):
    with app.app_context():
        record("merchant.create", actor=SYSTEM)
        db.session.rollback()
        assert db.session.scalars(select(AuditEvent)).all() == []


@pytest.mark.parametrize(("key", "value", "masked"), [
    ("apiKey", "ak_live_abcdef", "[REDACTED]"),
    ("x_api_secret", 12345678901, "[REDACTED]"),
    ("password", "hunter2hunter2", "[REDACTED]"),
    ("cardNumber", "4111111111111111", "************1111"),
    ("token", {"access": "abc"}, "[REDACTED]"),
    ("pan", None, None),
    ("count", 12, 12),
    ("phone", 919876543210, "********3210"),
])
def test_mask_mapping_by_key(key, value, masked):
    assert mask_mapping({key: value}) == {key: masked}


@pytest.mark.parametrize(("text", "redacted"), [
    (f"PAN {PAN} rejected", "PAN ******234F rejected"),
    (f"account={ACCOUNT}", "account=********9012"),
    ("x-gl-digest: 3f9a0b1c2d", "x-gl-digest: [REDACTED]"),
    ("headers {'x-gl-auth': 'ak_live_abcdef'}", "headers {'x-gl-auth': '[REDACTED]'}"),
    ("Authorization: Bearer eyJhbGciOi.abc", "Authorization: [REDACTED]"),
    ("token=abc123&step=2", "token=[REDACTED]&step=2"),
    ("merchant 42 created", "merchant 42 created"),
    (f"-> 200 gid={GID} in 3 ms", f"-> 200 gid={GID} in 3 ms"),  # ids stay whole
    ("gid gl_o-1234567890abcdef", "gid gl_o-1234567890abcdef"),
    ("gid gl_1234567890ABCDEF.", "gid gl_1234567890ABCDEF."),
    ("gl-x 1234567890", "gl-x ******7890"),
    ("notgl-1234567890ab", "notgl-******7890ab"),
    ("onboardingId=pg_onboard_cfc1234567898225cd0ff7bf linked",
     "onboardingId=pg_onboard_cfc1234567898225cd0ff7bf linked"),
    ("id pg_onboard_ABCDE1234FABCDEF1234567890", "id pg_onboard_ABCDE1234FABCDEF1234567890"),
    ("gid gl_ABCDE1234F0a, PAN ABCDE1234F", "gid gl_ABCDE1234F0a, PAN ******234F"),
    ("pg_onboard_x 1234567890", "pg_onboard_x ******7890"),
])
def test_redact_text(text, redacted):
    assert redact_text(text) == redacted


def test_log_filter_redacts_messages_arguments_and_tracebacks():
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    logger = logging.getLogger("tests.redaction")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        install_redaction(logger)
        install_redaction(logger)
        assert sum(isinstance(f, RedactingFilter) for f in handler.filters) == 1
        logger.warning("create failed for %s, account %s, contact %s", PAN, ACCOUNT,
                       "victim@example.com")
        try:
            raise ValueError(f"bad PAN {PAN} in /payments?q=victim%40example.com")
        except ValueError:
            logger.exception("x-gl-auth=%s", SECRET)
    finally:
        logger.removeHandler(handler)
    output = stream.getvalue()
    for secret in (PAN, ACCOUNT, SECRET, "victim"):
        assert secret not in output
    assert "create failed for ******234F, account ********9012, contact v***@example.com" in output
    assert "ValueError: bad PAN ******234F in /payments?q=v***@example.com" in output


def test_create_app_installs_the_filter_on_the_root_handlers(settings):
    handler = logging.NullHandler()
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        create_app(settings)
        assert any(isinstance(f, RedactingFilter) for f in handler.filters)
    finally:
        root.removeHandler(handler)
