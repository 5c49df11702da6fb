"""A ``flask worker`` emailing notices is killed with SIGKILL at each point of a send, on
PostgreSQL; a second worker takes the notices job over when the lease runs out. Three notices
go to three owners; the second one's send is where the first worker dies:

- before its claim is committed (the test holds the notice's row, so the claim waits on it):
  the notice is still pending, and the second worker sends it, once;
- during the SMTP conversation, before the server took the message (the test's mail server
  holds the recipient): it is never delivered, and the notice is ``interrupted`` (may not
  have gone), never called sent;
- after the server took it, before ``sent`` was committed (the test holds the row again): it
  was delivered once, and the notice is ``interrupted``, never sent again.

Every other notice is emailed once; each email is audited with how it went."""

from __future__ import annotations

import asyncio
import signal
import threading
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from sqlalchemy import text
from sqlalchemy.engine import Connection

from portal.core.config import Settings
from portal.core.db import db, make_engine
from portal.core.mail.sink import FolderHandler, read_folder
from portal.core.models.notice import MailState, Notice, NoticeKind
from portal.features.notifications.delivery import BATCH
from tests.jobs.support import wait_for
from tests.support.accounts import AuthActions
from tests.support.mail import PORTAL_URL
from tests.support.servers import free_port
from tests.support.team import audited, make_merchant, user_id
from tests.support.workers import worker_process

pytestmark = pytest.mark.postgres


OWNERS = ("first@example.com", "second@example.com", "third@example.com")
#: Where the first worker dies, in the second notice's send.
BEFORE_CLAIM, IN_SMTP, AFTER_SMTP = "before its claim", "in the SMTP talk", "after the server"


class HoldingHandler(FolderHandler):
    """The portal's sink, holding the second owner's message at RCPT (before the server takes
    it) or at the end of DATA (the message received, not yet answered) until released."""

    def __init__(self, folder: Path, at: str) -> None:
        super().__init__(folder)
        self.at = at
        self.reached = threading.Event()
        self.release = threading.Event()

    async def _hold(self) -> None:
        self.reached.set()
        await asyncio.get_running_loop().run_in_executor(None, self.release.wait, 60)

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str,
                          options: list[str]) -> str:
        """Hold the second owner's recipient when holding at RCPT."""
        if self.at == "RCPT" and address == OWNERS[1]:
            await self._hold()
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        """Store the message; hold the second owner's first when holding at DATA."""
        if self.at == "DATA" and OWNERS[1] in envelope.rcpt_tos:
            await self._hold()
        return await super().handle_DATA(server, session, envelope)


@contextmanager
def holding_sink(folder: Path, at: str) -> Iterator[Controller]:
    controller = Controller(HoldingHandler(folder, at), hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        yield controller
    finally:
        controller.handler.release.set()
        controller.stop()


@pytest.fixture(params=[BEFORE_CLAIM, IN_SMTP, AFTER_SMTP])
def where(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def sink(tmp_path: Path, where: str) -> Iterator[Controller]:
    with holding_sink(tmp_path / "mail", "RCPT" if where == IN_SMTP else "DATA") as running:
        yield running


@pytest.fixture
def settings(settings: Settings, sink: Controller) -> Settings:
    """Mail to the holding sink."""
    return settings.with_changes(mail_host=sink.hostname, mail_port=sink.port,
                                 mail_timeout=5.0, portal_url=PORTAL_URL)


def add_notices(app) -> list[int]:
    """One pending notice for each owner, about an approved merchant (the sync leaves it)."""
    for email in OWNERS:
        AuthActions(app, app.test_client()).create("ops", email)
    owned = [(user_id(app, email), make_merchant(app, f"Shop {n}", owner=email,
                                                 status="APPROVED"))
             for n, email in enumerate(OWNERS)]
    with app.app_context():
        notices = [Notice(user_id=owner, merchant_id=merchant, kind=NoticeKind.STATUS,
                          status="APPROVED", mail_state=MailState.PENDING)
                   for owner, merchant in owned]
        db.session.add_all(notices)
        db.session.commit()
        return [notice.id for notice in notices]


@contextmanager
def row_held(url: str, notice_id: int) -> Iterator[Connection]:
    """The notice's row locked by another transaction until the block ends."""
    engine = make_engine(url)
    with engine.connect() as connection:
        transaction = connection.begin()
        connection.execute(text("SELECT id FROM notices WHERE id = :id FOR UPDATE"),
                           {"id": notice_id})
        try:
            yield connection
        finally:
            transaction.rollback()
    engine.dispose()


def waiting_on_a_lock(url: str) -> bool:
    """Whether some session of the database waits for a row lock."""
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            return bool(connection.scalar(text(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                "AND datname = current_database()")))
    finally:
        engine.dispose()


def states(app, ids: list[int]) -> list[str]:
    with app.app_context():
        return [db.session.get(Notice, i, populate_existing=True).mail_state for i in ids]


def kill_mid_send(where: str, url: str, sink: Controller, ids: list[int], first) -> None:
    """Let the first worker reach ``where`` in the second notice's send, then SIGKILL it."""
    handler: HoldingHandler = sink.handler
    with ExitStack() as held:
        if where == BEFORE_CLAIM:
            held.enter_context(row_held(url, ids[1]))
            wait_for(lambda: waiting_on_a_lock(url), "the claim of the second notice to wait")
        else:
            assert handler.reached.wait(60), "the second email never reached the server"
            if where == AFTER_SMTP:
                held.enter_context(row_held(url, ids[1]))
                handler.release.set()  # the server takes the message and says so
                wait_for(lambda: waiting_on_a_lock(url), "the worker to record it as sent")
        first.send_signal(signal.SIGKILL)
        assert first.wait(timeout=30) == -signal.SIGKILL
    handler.release.set()


def test_a_worker_killed_mid_send_sends_nothing_twice(app, settings, sink, where, tmp_path,
                                                     database_url):
    ids = add_notices(app)
    assert len(ids) < BATCH
    with ExitStack() as stack:
        first = stack.enter_context(worker_process(settings, tmp_path / "first.log"))
        kill_mid_send(where, database_url, sink, ids, first)
        stack.enter_context(worker_process(settings, tmp_path / "second.log"))
        wait_for(lambda: MailState.PENDING not in states(app, ids), "every notice's end",
                 seconds=120)

    delivered = sorted(str(m["To"]) for m in read_folder(sink.handler.folder))
    expected = {BEFORE_CLAIM: list(OWNERS), IN_SMTP: [OWNERS[0], OWNERS[2]],
                AFTER_SMTP: list(OWNERS)}[where]
    assert delivered == sorted(expected)  # nothing twice; the held one delivered or not
    second = MailState.SENT if where == BEFORE_CLAIM else MailState.INTERRUPTED
    assert states(app, ids) == [MailState.SENT, second, MailState.SENT]
    outcomes = {e.detail["notice"]: e.outcome for e in audited(app, "notice.email")}
    assert outcomes == {ids[0]: "ok", ids[1]: "ok" if where == BEFORE_CLAIM else "interrupted",
                        ids[2]: "ok"}
