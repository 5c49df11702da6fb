"""Two ops asking an admin to set up one merchant's payments at the same moment, over real HTTP
to a served portal, on SQLite and PostgreSQL: each request is held just before its first write
until the other reaches its own, so both read "nobody asked yet"; the unique index keeps one
request, the admins are told once, and both pages say an admin was asked."""

from __future__ import annotations

from sqlalchemy import func, select

from portal.core.db import db
from portal.core.models.notice import Notice, NoticeKind
from portal.core.models.payment_setup import PaymentSetupRequest
from tests.support.accounts import TEST_PASSWORD, AuthActions
from tests.support.interleave import post_at_once, writes_held_together
from tests.support.servers import csrf_token, serve, sign_in
from tests.support.team import audited, make_merchant

OPS = ("asha@example.com", "bala@example.com")


def count(app, model, *where) -> int:
    """How many rows of ``model`` match."""
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(model).where(*where))


def test_two_ops_asking_at_once_store_one_request(app, client):
    for email in OPS:
        AuthActions(app, client).create("ops", email)
    AuthActions(app, client).create("admin")
    merchant = make_merchant(app, "Lotus Traders", status="APPROVED")
    page = f"/merchants/{merchant}/payments/credentials"
    with serve(app) as url:
        browsers = [sign_in(url, email, TEST_PASSWORD) for email in OPS]
        tokens = [{"csrf_token": csrf_token(b.get(f"{url}{page}", timeout=10))}
                  for b in browsers]
        with writes_held_together(db.engine(app), len(browsers)):
            ask = f"{url}/merchants/{merchant}/payments/setup-request"
            answers = post_at_once([(b, ask, token) for b, token in zip(browsers, tokens,
                                                                       strict=True)],
                                   allow_redirects=True)
    assert [answer.status_code for answer in answers] == [200, 200]
    assert all("an admin will set it up" in answer.text for answer in answers)
    assert count(app, PaymentSetupRequest) == 1
    assert count(app, Notice, Notice.kind == NoticeKind.PAYMENTS_ASKED) == 1
    assert len(audited(app, "payments.setup_asked")) == 1
    assert sorted("An admin was asked already" in answer.text for answer in answers) == [
        False, True]
