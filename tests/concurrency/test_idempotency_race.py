"""Two POSTs with one Idempotency-Key at the same moment, over real HTTP to a served portal, on
SQLite and PostgreSQL: one merchant is created and sent once; the other request is told the
first is still running (409), or gets its answer. Each request is held just before its first
write until the other reaches its own, so both are in flight together."""

from __future__ import annotations

import threading

import requests
from sqlalchemy import func, select

from portal.core.db import db
from portal.core.models import AuditEvent, Merchant
from portal.core.models.api_key import KeyState
from portal.domain.api import keys
from portal.domain.api.scopes import Scope
from portal.domain.audit.service import SYSTEM
from tests.support.interleave import writes_held_together
from tests.support.servers import serve

BODY = {"externalOnboardingId": "pop-race-1", "panNumber": "ABCCE4321F"}


def a_key(app) -> str:
    """An active key that may create merchants."""
    with app.app_context():
        issued = keys.stage_key("Racing partner", [Scope.WRITE_MERCHANTS], None, None, SYSTEM)
        issued.key.state = KeyState.ACTIVE
        db.session.commit()
        return issued.token


def post_together(url: str, token: str, parties: int = 2) -> list[requests.Response]:
    """The same POST from ``parties`` threads at once."""
    start = threading.Barrier(parties)
    answers: list[requests.Response | None] = [None] * parties

    def post(n: int) -> None:
        start.wait()
        answers[n] = requests.post(f"{url}/api/v1/merchants", json=BODY, timeout=60,
                                   headers={"Authorization": f"Bearer {token}",
                                            "Idempotency-Key": "signup-race"})

    threads = [threading.Thread(target=post, args=(n,)) for n in range(parties)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=90)
    return [answer for answer in answers if answer is not None]


def test_two_posts_with_one_key_at_once_create_one_merchant(app, sandbox):
    token = a_key(app)
    with serve(app) as url, writes_held_together(db.engine(app), 2):
        answers = post_together(url, token)
    statuses = sorted(answer.status_code for answer in answers)
    assert statuses in ([201, 201], [201, 409]), [a.text for a in answers]
    with app.app_context():
        assert db.session.scalar(select(func.count(Merchant.id))) == 1
        assert db.session.scalar(select(func.count(AuditEvent.id)).where(
            AuditEvent.action == "merchant.start")) == 1
