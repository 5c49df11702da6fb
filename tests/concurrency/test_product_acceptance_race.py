"""Two deliveries of one product's acceptance at the same moment (the gateway retrying while the
first is still being answered, or two events about the same product), through a served portal
on SQLite and PostgreSQL: one acceptance is stored and audited once. Each request is held just
before its first write until the other reaches its own, so both find the product not accepted
yet before either writes. Two pendency reports at once are each kept, audited and told to the
owner once (on PostgreSQL an INSERT's rowcount did not say it was stored: they were kept
silently)."""

from __future__ import annotations

import threading

import requests
from sqlalchemy import select

from portal.core.db import db
from portal.core.models.product_acceptance import MerchantProductAcceptance
from tests.support.interleave import writes_held_together
from tests.support.product_events import CARDS, accepted, ask_for, pendency, signed
from tests.support.rows import stored
from tests.support.servers import serve
from tests.support.team import audited, make_merchant, notices_of


def deliver_together(app, payloads: list[dict[str, str]]) -> list[int]:
    """Post each payload, signed, to a served portal at the same moment, their first writes
    held together; the answers' status codes."""
    bodies = [signed(payload) for payload in payloads]
    start = threading.Barrier(len(bodies))
    answers: list[int] = []
    with serve(app) as url:
        def post(raw: bytes, headers: dict[str, str]) -> None:
            start.wait()
            answers.append(requests.post(f"{url}/webhooks/onboarding", data=raw,
                                         headers=headers, timeout=30).status_code)

        with writes_held_together(db.engine(app), len(bodies)):
            threads = [threading.Thread(target=post, args=body) for body in bodies]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=60)
    return answers


def test_two_acceptances_of_one_product_at_once_store_one(app):
    merchant_id = make_merchant(app, "Lotus Traders", status="APPROVED")
    ask_for(app, merchant_id)
    onboarding_id = stored(app, merchant_id).onboarding_id
    answers = deliver_together(app, [accepted(onboarding_id, CARDS, event_id)
                                     for event_id in ("e1", "e2")])
    assert answers == [200, 200]
    with app.app_context():
        rows = list(db.session.scalars(select(MerchantProductAcceptance)))
        assert [(row.merchant_id, row.product) for row in rows] == [(merchant_id, "CARDS")]
    assert len(audited(app, "merchant.product_accepted")) == 1


def test_two_pendency_reports_at_once_are_each_kept_and_told_once(app, auth):
    owner = auth.create("ops", "owner@example.com")
    merchant_id = make_merchant(app, "Lotus Traders", owner=owner, status="APPROVED")
    onboarding_id = stored(app, merchant_id).onboarding_id
    assert deliver_together(app, [pendency(onboarding_id, event_id)
                                  for event_id in ("p1", "p2")]) == [200, 200]
    assert len(audited(app, "merchant.pendency")) == 2
    kinds = [notice.kind for notice in notices_of(app, owner)]
    # one notice per event; the second may have seen the first's block (test_live_notices)
    assert len(kinds) == 2 and kinds[0] == "blocked" and set(kinds) <= {"blocked",
                                                                        "live_pendency"}
