"""Every change and every gateway call is audited with its gid and outcome; no PAN in full."""

from __future__ import annotations

import json
import logging

from portal.core.db import db
from portal.core.models.audit import AuditEvent
from portal.domain.onboarding import scenarios
from tests.support.browser import Browser
from tests.support.rows import stored
from tests.wizard.support import onboard, typed


def events(app) -> list[AuditEvent]:
    with app.app_context():
        return list(db.session.query(AuditEvent).order_by(AuditEvent.id))


def test_sends_are_audited_with_gid_and_outcome(browser: Browser, app, new_merchant, caplog):
    caplog.set_level(logging.INFO)
    url = f"/merchants/{new_merchant}/steps/signatory"
    browser.submit(browser.get(url), typed(scenarios.HAPPY, "signatory",
                                           authSignatoryPan="ABCPR9999K"))
    browser.submit(browser.get(url), typed(scenarios.HAPPY, "signatory"), action="draft")
    browser.submit(browser.get(url), typed(scenarios.HAPPY, "signatory"))
    trail = [(e.action, e.outcome, bool(e.gid), e.merchant_id, e.actor_label)
             for e in events(app)]
    assert ("merchant.start", "ok", False, new_merchant, "ops@example.com") in trail
    assert ("step.send.create", "ok", True, new_merchant, "ops@example.com") in trail
    assert ("step.send.signatory", "refused", True, new_merchant, "ops@example.com") in trail
    assert ("step.draft", "ok", False, new_merchant, "ops@example.com") in trail
    assert trail[-1] == ("step.send.signatory", "ok", True, new_merchant, "ops@example.com")


def test_no_pan_or_account_number_in_full_in_the_audit_or_the_logs(browser: Browser, app,
                                                                   caplog):
    caplog.set_level(logging.DEBUG)
    merchant_id = onboard(browser, app)
    secrets = [stored(app, merchant_id).pan, "ABCPR1234K", "BCDPM5678L", "1234567890"]
    audit = json.dumps([[e.action, e.gid, e.detail] for e in events(app)])
    logs = "\n".join(r.getMessage() for r in caplog.records)
    for secret in secrets:
        assert secret not in audit
        assert secret not in logs
