"""The one clock design: a ``Clock`` that tests freeze and advance, read by the portal's
``utcnow`` (through ``portal.core.clock.current``) and given to each sandbox."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from portal.core import clock
from portal.core.clock import Clock
from portal.sandbox.app import create_sandbox_app, state_of
from portal.sandbox.common.config import config_from
from tests.support.sleeps import SleepRecorder

START = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)


def test_a_frozen_clock_stands_still_until_advanced():
    frozen = Clock(START)
    assert frozen.now() == frozen.now() == START
    assert frozen.advance(90) == START + timedelta(seconds=90) == frozen.now()
    assert frozen.now_ms() == int((START + timedelta(seconds=90)).timestamp() * 1000)


def test_a_running_clock_moves_by_its_offset():
    running = Clock()
    before = clock.system_now()
    assert running.advance(3600) >= before + timedelta(hours=1)
    running.freeze(START)
    assert running.now() == START


def test_a_running_clock_waits_out_a_pause_and_a_frozen_one_returns_at_once(monkeypatch):
    waited = SleepRecorder()
    monkeypatch.setattr("portal.core.clock.time.sleep", waited)
    Clock().sleep(0.75)
    frozen = Clock(START)
    frozen.sleep(30)
    assert waited.delays == [0.75]
    assert frozen.now() == START


def test_the_portal_reads_the_clock_the_test_put_in_place(portal_clock):
    assert clock.current is portal_clock
    assert clock.utcnow() == START
    portal_clock.advance(60)
    assert clock.utcnow() == START + timedelta(seconds=60)


def test_the_sandbox_keeps_its_own_clock_of_the_same_class(portal_clock):
    sandbox_clock = Clock(START - timedelta(days=1))
    app = create_sandbox_app(config_from({}), clock=sandbox_clock)
    assert state_of(app).clock is sandbox_clock
    sandbox_clock.advance(86400)
    assert sandbox_clock.now() == clock.utcnow() == START
    answer = app.test_client().post("/_sandbox/clock", json={"advanceSeconds": 60})
    assert answer.status_code == 200
    assert sandbox_clock.now() == START + timedelta(seconds=60) != clock.utcnow()
