"""Two ops taking the same merchant nobody owns at the same moment, over real HTTP to a served
portal, on SQLite and PostgreSQL: one owns it, the other is told who does, and only one change
is audited. Each request is held just before its first write until the other reaches its own,
so both read the merchant unowned before either writes."""

from __future__ import annotations

from portal.core.db import db
from tests.support.accounts import TEST_PASSWORD, AuthActions
from tests.support.interleave import post_at_once, writes_held_together
from tests.support.rows import stored
from tests.support.servers import csrf_token, serve, sign_in
from tests.support.team import audited, make_merchant, user_id

OPS = ("asha@example.com", "bala@example.com")


def test_two_ops_taking_one_merchant_at_once_leave_one_owner(app, client):
    for email in OPS:
        AuthActions(app, client).create("ops", email)
    merchant = make_merchant(app, "Lotus Traders")
    with serve(app) as url:
        browsers = [sign_in(url, email, TEST_PASSWORD) for email in OPS]
        tokens = [{"csrf_token": csrf_token(b.get(f"{url}/merchants/{merchant}", timeout=10))}
                  for b in browsers]
        with writes_held_together(db.engine(app), len(browsers)):
            take = f"{url}/merchants/{merchant}/owner/take"
            answers = post_at_once([(b, take, token) for b, token in zip(browsers, tokens,
                                                                        strict=True)],
                                   allow_redirects=True)
        pages = [answer.text for answer in answers]
    owner = stored(app, merchant).owner_id
    assert owner in {user_id(app, email) for email in OPS}
    winner = next(email for email in OPS if user_id(app, email) == owner)
    assert sorted("You own Lotus Traders now." in text for text in pages) == [False, True]
    assert any(f"{winner} owns it now." in text for text in pages)
    assert [event.actor_label for event in audited(app, "merchant.owner")] == [winner]
