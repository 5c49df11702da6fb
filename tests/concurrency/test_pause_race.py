"""A pause recorded while a hold is being placed, with real threads on SQLite and PostgreSQL:
the hold is either refused (the pause came first) or placed before the pause (its claim
committed first, the pause waiting on the merchant's row), never placed after a pause was
recorded (``portal.domain.pausing.gate``)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from portal.core.config import Settings, current_settings
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.domain.audit.service import Actor
from portal.domain.payments import credentials as creds
from portal.domain.payments.holds import hold_body, start_hold
from portal.domain.payments.service import Result, new_merchant_txn_id
from tests.payments.links.support import counting_initiates
from tests.payments.support import HOLD, browser, credentials, merchant_id
from tests.support.pausing import stop_now
from tests.support.settings import with_payments

__all__ = ["browser", "credentials", "merchant_id"]

GATE = "UPDATE merchants SET payments_stopped_at"
WAIT = 20  # seconds: only a broken test waits this long


@pytest.fixture
def settings(settings: Settings, sandbox, tmp_path: Path) -> Settings:
    """The suite's settings (on each kind of database) with payments."""
    return with_payments(settings, sandbox, tmp_path)


def place_hold(app, merchant_id: int) -> Result:
    """Place a hold for the merchant as a person would, in this thread's own app context."""
    with app.app_context():
        merchant = db.session.get(Merchant, merchant_id)
        assert merchant is not None
        client = creds.client_for(current_settings(), creds.credentials_of(merchant))
        body = hold_body({**HOLD, "merchantTxnId": new_merchant_txn_id()}, "http://x/cb")
        return start_hold(client, merchant, body, None, actor=Actor("ops@example.com"))


@contextmanager
def commits_in_order(app, hooks: dict[str, Callable[[], None]]) -> Iterator[list[str]]:
    """While the block runs: the hold's thread's gate statement runs ``hooks['before_gate']``
    and ``hooks['after_gate']`` around it; each commit is logged as 'claim' (the hold's first
    commit after its gate) or 'pause' (the pausing thread's commit after its UPDATE)."""
    engine = db.engine(app)
    order: list[str] = []
    state: dict[int, str] = {}
    hold_thread: dict[str, int] = {}

    def before(_conn: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        me = threading.get_ident()
        if statement.startswith(GATE) and "coalesce" not in statement.lower():
            hold_thread["id"] = me
            hooks.get("before_gate", lambda: None)()
        elif statement.startswith("UPDATE merchants") and "coalesce" in statement.lower():
            state[me] = "pause"

    def after(_conn: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        me = threading.get_ident()
        if statement.startswith(GATE) and hold_thread.get("id") == me:
            state[me] = "claim"
            hooks.get("after_gate", lambda: None)()

    def committed(_conn: Any) -> None:
        name = state.pop(threading.get_ident(), None)
        if name:
            order.append(name)

    event.listen(engine, "before_cursor_execute", before)
    event.listen(engine, "after_cursor_execute", after)
    event.listen(engine, "commit", committed)
    try:
        yield order
    finally:
        event.remove(engine, "before_cursor_execute", before)
        event.remove(engine, "after_cursor_execute", after)
        event.remove(engine, "commit", committed)


def run_both(app, merchant_id: int, hooks: dict[str, Callable[[], None]],
             pause_after: threading.Event | None) -> tuple[Result, list[str]]:
    """Place a hold in one thread and pause in another (once ``pause_after`` is set, if
    given); the hold's result and the commits' order."""
    results: dict[str, Any] = {}
    errors: list[BaseException] = []

    def hold() -> None:
        try:
            results["hold"] = place_hold(app, merchant_id)
        except BaseException as exc:  # reported below, in the test's thread
            errors.append(exc)

    def pause() -> None:
        try:
            if pause_after is not None:
                assert pause_after.wait(WAIT)
            results["pause"] = stop_now(app, merchant_id)
            hooks.get("paused", lambda: None)()
        except BaseException as exc:
            errors.append(exc)

    with commits_in_order(app, hooks) as order:
        threads = [threading.Thread(target=hold), threading.Thread(target=pause)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
    assert errors == []
    assert results["pause"].ok
    return results["hold"], order


def test_a_pause_recorded_first_refuses_the_hold_at_its_gate(app, merchant_id, credentials,
                                                            sandbox, monkeypatch):
    initiates = counting_initiates(monkeypatch, sandbox)
    at_gate, paused = threading.Event(), threading.Event()
    hooks = {"before_gate": lambda: (at_gate.set(), paused.wait(WAIT)),
             "paused": paused.set}
    result, order = run_both(app, merchant_id, hooks, pause_after=at_gate)
    assert not result.ok and "This merchant was paused" in result.message
    assert order == ["pause"] and initiates == []


def test_a_hold_claimed_first_is_placed_before_the_pause(app, merchant_id, credentials,
                                                        sandbox, monkeypatch):
    initiates = counting_initiates(monkeypatch, sandbox)
    gated = threading.Event()
    result, order = run_both(app, merchant_id, {"after_gate": gated.set}, pause_after=gated)
    assert result.ok and len(initiates) == 1
    assert order == ["claim", "pause"]  # the pause waited for the hold's claim


@pytest.mark.parametrize("round_", range(3))
def test_at_once_the_hold_is_refused_or_claimed_before_the_pause(app, merchant_id, credentials,
                                                                sandbox, monkeypatch, round_):
    initiates = counting_initiates(monkeypatch, sandbox)
    result, order = run_both(app, merchant_id, {}, pause_after=None)
    if result.ok:
        assert order == ["claim", "pause"] and len(initiates) == 1
    else:
        assert order == ["pause"] and initiates == []
