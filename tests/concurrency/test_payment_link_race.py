"""Several opens of one payment link at once, through a served portal on SQLite and PostgreSQL
(a customer's double click, a mail program's preview, two devices): one checkout is minted, one
browser is sent to it, the others are told the link is being opened or was used."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
import requests

from portal.core.config import Settings
from portal.core.models.payment_link import LinkState
from portal.sandbox.common.fault_plans import Fault, FaultKind
from tests.payments.links.support import counting_initiates, link_row, sent_link
from tests.payments.support import browser, credentials, merchant_id
from tests.support.browser import form_values
from tests.support.mail import mail_sink, mailing
from tests.support.servers import page_of, serve
from tests.support.settings import with_payments

__all__ = ["browser", "credentials", "mail_sink", "merchant_id"]

OPENERS = 6


@pytest.fixture
def settings(settings: Settings, sandbox, tmp_path: Path, mail_sink) -> Settings:
    """The suite's settings (on each kind of database) with payments, mailing to the sink."""
    return mailing(with_payments(settings, sandbox, tmp_path), mail_sink)


@pytest.mark.parametrize("slow_gateway", [False, True], ids=["at-once", "while-minting"])
def test_opens_at_once_mint_one_checkout(app, browser, merchant_id, credentials, mail_sink,
                                         sandbox, monkeypatch, slow_gateway):
    payment_id, link = sent_link(browser, merchant_id, mail_sink)
    initiates = counting_initiates(monkeypatch, sandbox)
    if slow_gateway:  # the others arrive while the first open waits for the gateway
        sandbox.state.faults.set(Fault(FaultKind.LATENCY, operation="initiate", seconds=0.5))
    start = threading.Barrier(OPENERS)
    answers: list[tuple[int, str]] = []
    errors: list[BaseException] = []
    with serve(app) as url:
        def open_link() -> None:
            try:
                http = requests.Session()
                form = page_of(http.get(url + link, timeout=30)).select_one(
                    "form.link-continue")
                start.wait()
                answer = http.post(url + link, data=form_values(form), timeout=30,
                                   allow_redirects=False)
                answers.append((answer.status_code, answer.headers["Location"]
                                if answer.status_code == 303 else page_of(answer).h1.get_text()))
            except BaseException as exc:  # reported below, in the test's thread
                errors.append(exc)

        threads = [threading.Thread(target=open_link) for _ in range(OPENERS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
    assert errors == []
    assert len(initiates) == 1
    sent = [where for status, where in answers if status == 303]
    assert len(sent) == 1 and sent[0].startswith(sandbox.url)
    told = {where for status, where in answers if status != 303}
    assert len(answers) == OPENERS
    assert told <= {"Your payment page is being opened", "This link was already used"}
    assert link_row(app, payment_id).state == LinkState.OPENED
