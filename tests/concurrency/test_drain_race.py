"""Drains racing each other, each with its own engine, send every queued step exactly once."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterator

import pytest
from flask import Flask

from portal.app.factory import create_app
from portal.core.clients import onboarding_client
from portal.core.config import Settings, current_settings
from portal.core.db import db
from portal.core.models.outbox import OutboxState
from portal.domain.audit.service import SYSTEM
from portal.domain.onboarding import scenarios
from portal.domain.onboarding.create import start_merchant
from portal.domain.onboarding.outbox.drain import drain
from portal.domain.onboarding.outbox.queue import claim
from portal.domain.onboarding.service import send_step
from portal.domain.onboarding.steps import BY_KEY
from portal.gateway.retry import NO_RETRY
from portal.sandbox.common.fault_plans import Fault, FaultKind
from tests.outbox.support import items, run_drain

QUEUED = 8
DRAINS = 3


def queue_business_steps(app: Flask, sandbox, count: int) -> None:
    """``count`` merchants created at the sandbox whose business step was queued (503)."""
    with app.app_context():
        client = onboarding_client(current_settings(), retry=NO_RETRY)
        for _ in range(count):
            data = scenarios.form_data(scenarios.HAPPY, "create")
            merchant, _errors = start_merchant(data, actor=SYSTEM)
            assert merchant is not None
            assert send_step(client, merchant, BY_KEY["create"], data, actor=SYSTEM).ok
            sandbox.state.faults.set(Fault(FaultKind.ERROR, operation="update_business_details"))
            result = send_step(client, merchant, BY_KEY["business"],
                               scenarios.form_data(scenarios.HAPPY, "business"), actor=SYSTEM)
            assert result.queued_until is not None
            sandbox.state.faults.clear()


@pytest.fixture
def engines(settings: Settings) -> Iterator[list[Flask]]:
    """One portal per drain, each with its own engine and connection pool."""
    apps = [create_app(settings) for _ in range(DRAINS)]
    yield apps
    for each in apps:
        db.engine(each).dispose()


def business_puts(sandbox) -> Counter[str]:
    """How many business-details PUTs the sandbox applied, by path."""
    return Counter(r.raw_path for r in sandbox.state.onboarding.received_requests()
                   if r.method == "PUT" and r.raw_path.endswith("/business-details"))


def test_racing_drains_send_each_item_exactly_once(portal_clock, app, engines, sandbox):
    queue_business_steps(app, sandbox, QUEUED)
    portal_clock.advance(30)
    # a little latency keeps every drain busy while the others claim
    sandbox.state.faults.set(Fault(FaultKind.LATENCY, operation="update_business_details",
                                   seconds=0.05))
    start = threading.Barrier(DRAINS)
    sent: list[int] = []
    errors: list[BaseException] = []

    def run(each: Flask) -> None:
        try:
            start.wait()
            with each.app_context():
                client = onboarding_client(current_settings())
                while (report := drain(client, limit=2)).sent:
                    sent.append(report.sent)
        except BaseException as exc:  # reported below, in the test's thread
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(each,)) for each in engines]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert errors == []
    assert sum(sent) == QUEUED
    puts = business_puts(sandbox)
    assert len(puts) == QUEUED
    assert set(puts.values()) == {1}  # each merchant's step went out once
    assert {i.state for i in items(app)} == {OutboxState.SENT}


def test_an_item_whose_drain_died_is_claimed_again_after_the_lease(portal_clock, app, sandbox):
    queue_business_steps(app, sandbox, 1)
    portal_clock.advance(30)
    with app.app_context():
        assert len(claim(10)) == 1  # this drain dies before sending
    assert run_drain(app).sent == 0  # the claim holds
    portal_clock.advance(11 * 60)
    assert run_drain(app).sent == 1
    assert list(business_puts(sandbox).values()) == [1]
