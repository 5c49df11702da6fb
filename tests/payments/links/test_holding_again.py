"""A hold close to its expiry is held again: "Hold again" on its page emails the customer a new
link for the same amount (the unpaid payment's "Send a new link", reused), the two payments
linked both ways; once the customer pays the new one, the worker releases the old hold as a
staff release does, audited with why. One new hold per hold, even for two presses at once; a
new link left unpaid leaves the old hold as it is."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError

from portal.core import clock
from portal.core.config import current_settings
from portal.core.db import db
from portal.core.models.audit import AuditEvent
from portal.core.models.job import Job
from portal.core.models.merchant import Merchant
from portal.core.models.payment import Payment
from portal.core.models.payment_link import PaymentLink
from portal.domain.audit.service import Actor
from portal.domain.payments.links import renewal
from portal.domain.payments.links.holding_again import RELEASE_KIND
from portal.domain.payments.links.release import RETRY_AFTER
from tests.payments.links.support import hold_page, press_continue, standing_on
from tests.payments.support import (
    authorised_payment,
    backend,
    flashes,
    pay,
    payment_row,
    submit,
)
from tests.support.interleave import writes_held_together
from tests.support.mail import link_in
from tests.support.workers import run_worker

#: Past HOLD_WARNING_HOURS before the default HOLD_EXPIRY_HOURS: day 6 of 7.
NEAR_EXPIRY = timedelta(days=6)


def age_hold(app, payment_id: int, by: timedelta = NEAR_EXPIRY) -> None:
    """Move the hold's authorisation back in time, so its expiry is near."""
    with app.app_context():
        db.session.execute(update(Payment).where(Payment.id == payment_id)
                           .values(authorized_at=clock.utcnow() - by))
        db.session.commit()


def near_expiry_hold(app, browser, merchant_id) -> int:
    """An authorised hold on day 6 of its 7: its id."""
    payment_id, _ = authorised_payment(browser, merchant_id)
    age_hold(app, payment_id)
    return payment_id


def hold_again(app, browser, old_id: int):
    """Press "Hold again" on the old hold's page: the new hold's page, and its id."""
    page = submit(browser, hold_page(browser, old_id), "form.hold-again")
    return page, int(page.response.request.path.rsplit("/", 1)[1])


def pay_link(app, mail_sink) -> None:
    """The customer opens the last emailed link and pays it (the return reads its status)."""
    customer = app.test_client()
    returned = pay(press_continue(customer, link_in(mail_sink.messages()[-1])).headers["Location"])
    customer.post(returned.path, data={"x-gl-token": returned.token})


def releases(app) -> list[AuditEvent]:
    """The audit entries of releases made because a hold was held again."""
    with app.app_context():
        found = list(db.session.scalars(select(AuditEvent).where(
            AuditEvent.action == "payment.hold_again_release")))
        db.session.expunge_all()
        return found


def test_a_hold_far_from_expiry_offers_no_hold_again(app, browser, merchant_id, credentials,
                                                     mail_sink):
    payment_id, _ = authorised_payment(browser, merchant_id)
    assert hold_page(browser, payment_id).soup.select_one("form.hold-again") is None
    age_hold(app, payment_id)
    page = hold_page(browser, payment_id)
    assert page.soup.select_one("form.hold-again button").get_text() == "Hold again"
    assert "or hold it again below" in page.soup.select_one(".hold-expiry").get_text()


def test_hold_again_links_both_pages_and_releases_the_old_once_paid(
        app, browser, merchant_id, credentials, mail_sink, sandbox):
    old_id = near_expiry_hold(app, browser, merchant_id)
    emails = len(mail_sink.messages())
    new, new_id = hold_again(app, browser, old_id)
    assert "A payment link was emailed to" in flashes(new)
    assert len(mail_sink.messages()) == emails + 1
    assert new.soup.select_one(".held-again [data-field='replaces']")["href"] == \
        f"/payments/{old_id}"
    assert "once the customer pays this one, that hold is released" in flashes(new)
    assert standing_on(new) == "waiting"
    old_page = hold_page(browser, old_id)
    assert old_page.soup.select_one(".held-again [data-field='replaced-by']")["href"] == \
        f"/payments/{new_id}"
    assert old_page.soup.select_one("form.hold-again") is None
    old, fresh = payment_row(app, old_id), payment_row(app, new_id)
    assert (fresh.amount, fresh.currency, fresh.customer_email) == (
        old.amount, old.currency, old.customer_email)

    pay_link(app, mail_sink)
    assert payment_row(app, old_id).status == "AUTHORIZED"  # the worker releases it
    run_worker(app)
    old = payment_row(app, old_id)
    assert old.status == "REVERSED"
    assert backend(sandbox).get(old.gid).status == "REVERSED"
    assert payment_row(app, new_id).status == "AUTHORIZED"
    [entry] = releases(app)
    assert entry.outcome == "ok" and entry.actor_label == "hold again"
    assert entry.detail["reason"].startswith("The customer authorised the new hold")
    assert entry.detail["heldAgainAs"][-4:] == fresh.merchant_txn_id[-4:]  # masked as ids are
    with app.app_context():  # the staff's own release, credited to the same actor
        assert db.session.scalar(select(func.count(AuditEvent.id)).where(
            AuditEvent.action == "payment.reverse", AuditEvent.actor_label == "hold again")) == 1
    assert "the customer paid it, so this hold was released" in flashes(hold_page(browser,
                                                                                  old_id))
    assert "that hold was released once this one was authorised" in flashes(
        hold_page(browser, new_id))


def test_a_second_hold_again_is_refused_while_the_new_link_is_open(
        app, browser, merchant_id, credentials, mail_sink):
    old_id = near_expiry_hold(app, browser, merchant_id)
    page = hold_page(browser, old_id)
    submit(browser, page, "form.hold-again")
    second = submit(browser, page, "form.hold-again")  # the same page's form, pressed again
    assert "was held again already as order" in flashes(second)
    with app.app_context():
        assert db.session.scalar(select(func.count(Payment.id)).where(
            Payment.replaces_payment_id == old_id)) == 1


def test_two_presses_at_once_make_one_new_hold(app, browser, merchant_id, credentials,
                                               mail_sink):
    old_id = near_expiry_hold(app, browser, merchant_id)
    start, answers = threading.Barrier(2), []

    def press() -> None:
        with app.app_context():
            payment = db.session.get(Payment, old_id)
            merchant = db.session.get(Merchant, merchant_id)
            start.wait()
            sent = renewal.send_new_link(current_settings(), payment, merchant, Actor("ops"))
            answers.append(sent.payment_id)

    threads = [threading.Thread(target=press) for _ in range(2)]
    with writes_held_together(db.engine(app), 2):  # both past every check
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
    assert len(answers) == 2
    with app.app_context():
        assert db.session.scalar(select(func.count(Payment.id)).where(
            Payment.replaces_payment_id == old_id)) == 1
        assert db.session.scalar(select(func.count(PaymentLink.id))) == 1
        assert db.session.scalar(select(func.count(AuditEvent.id)).where(
            AuditEvent.action == "payment.hold_again")) == 1


def test_the_database_keeps_one_new_hold_per_payment(app, browser, merchant_id, credentials,
                                                     mail_sink):
    old_id = near_expiry_hold(app, browser, merchant_id)
    _, new_id = hold_again(app, browser, old_id)
    with app.app_context():
        other = db.session.get(Payment, new_id)
        db.session.add(Payment(merchant_id=merchant_id, merchant_txn_id="OTHER1",
                               merchant_unique_id="OTHERU1", action_nonce="n", amount="1",
                               currency="INR", request_payload={},
                               replaces_payment_id=other.replaces_payment_id))
        with pytest.raises(IntegrityError):
            db.session.commit()
        db.session.rollback()


def test_a_new_link_left_unpaid_leaves_the_old_hold_as_it_is(app, browser, merchant_id,
                                                             credentials, mail_sink):
    old_id = near_expiry_hold(app, browser, merchant_id)
    _, new_id = hold_again(app, browser, old_id)
    with app.app_context():
        db.session.execute(update(PaymentLink).where(PaymentLink.payment_id == new_id)
                           .values(expires_at=clock.utcnow() - timedelta(minutes=1)))
        db.session.commit()
    run_worker(app)
    assert payment_row(app, old_id).status == "AUTHORIZED"
    assert releases(app) == []
    page = hold_page(browser, old_id)
    assert "If its link expires unpaid, this hold stays as it is" in flashes(page)
    assert page.soup.select_one("form.action--reverse") is not None  # a person still chooses


def test_a_new_link_for_a_declined_payment_releases_nothing(app, browser, merchant_id,
                                                            credentials, mail_sink):
    declined_id, _ = authorised_payment(browser, merchant_id, card="4000000000000002")
    submit(browser, hold_page(browser, declined_id), "form.link-renew")
    pay_link(app, mail_sink)
    with app.app_context():
        assert db.session.scalar(select(func.count(Job.id)).where(
            Job.kind == RELEASE_KIND)) == 0
    assert releases(app) == []


def test_a_release_waits_while_a_call_on_the_old_hold_is_in_doubt(app, browser, merchant_id,
                                                                 credentials, mail_sink):
    old_id = near_expiry_hold(app, browser, merchant_id)
    hold_again(app, browser, old_id)
    with app.app_context():
        db.session.execute(update(Payment).where(Payment.id == old_id)
                           .values(action_state="unknown"))
        db.session.commit()
    pay_link(app, mail_sink)
    run_worker(app)
    assert payment_row(app, old_id).status == "AUTHORIZED"
    assert releases(app) == []  # put off, not given up
    with app.app_context():
        [retry] = db.session.scalars(select(Job).where(Job.kind == RELEASE_KIND,
                                                       Job.state == "pending"))
        assert retry.run_at >= clock.utcnow() + RETRY_AFTER - timedelta(seconds=5)
        retry.run_at = clock.utcnow()  # its minute has passed
        db.session.execute(update(Payment).where(Payment.id == old_id)
                           .values(action_state="idle"))
        db.session.commit()
    run_worker(app)
    assert payment_row(app, old_id).status == "REVERSED"
    assert [entry.outcome for entry in releases(app)] == ["ok"]
