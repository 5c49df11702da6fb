"""Owners: admins give any merchant to anyone (or nobody), ops take one nobody owns and hand
their own to a colleague with a note; everyone else is refused in words; each change audited,
the new owner told."""

from __future__ import annotations

from portal.core.db import db
from portal.domain.users.accounts import find_user
from tests.support.rows import stored
from tests.support.team import (
    audited,
    errors_beside,
    make_merchant,
    notices_of,
    page,
    user_id,
    words,
)

ASHA, BALA = "asha@example.com", "bala@example.com"


def test_a_merchant_nobody_owns_is_taken_by_the_ops_who_asks(app, auth, client):
    merchant = make_merchant(app, "Lotus Traders")
    auth.login("ops", ASHA)
    summary = page(client.get(f"/merchants/{merchant}"))
    assert "Nobody owns this merchant yet." in words(summary.select_one("#owner"))
    assert summary.select_one("form.take-form button").get_text(" ", strip=True).startswith(
        "Take it")
    answer = client.post(f"/merchants/{merchant}/owner/take")
    assert answer.headers["Location"].endswith(f"/merchants/{merchant}#owner")
    assert stored(app, merchant).owner_id == user_id(app, ASHA)
    shown = page(client.get(f"/merchants/{merchant}"))
    assert "Owner: asha@example.com (you)" in words(shown.select_one("#owner"))
    assert "You own Lotus Traders now." in words(shown)
    assert shown.select_one("form.take-form") is None
    [event] = audited(app, "merchant.owner")
    assert (event.actor_label, event.detail["email"], event.detail["from"]) == (
        ASHA, ASHA, "")
    assert notices_of(app, ASHA) == []  # nobody tells you what you did yourself


def test_a_merchant_someone_owns_cannot_be_taken(app, auth, client):
    auth.create("ops", BALA)
    merchant = make_merchant(app, "Lotus Traders", owner=BALA)
    auth.login("ops", ASHA)
    assert page(client.get(f"/merchants/{merchant}")).select_one("form.take-form") is None
    client.post(f"/merchants/{merchant}/owner/take")
    shown = words(page(client.get(f"/merchants/{merchant}")))
    assert "Only an admin can give a merchant nobody owns" not in shown
    assert "Someone changed the owner of this merchant while you were looking: " \
           "bala@example.com owns it now." in shown
    assert stored(app, merchant).owner_id == user_id(app, BALA)


def test_an_owner_hands_the_merchant_to_a_colleague_with_a_note(app, auth, client):
    auth.create("ops", BALA)
    auth.create("ops", ASHA)
    merchant = make_merchant(app, "Lotus Traders", owner=ASHA)
    auth.login("ops", ASHA)
    form = page(client.get(f"/merchants/{merchant}/owner"))
    offered = [o.get_text() for o in form.select("#owner option")]
    assert offered == [BALA]  # not herself, not "Nobody"
    answer = client.post(f"/merchants/{merchant}/owner", data={
        "owner": str(user_id(app, BALA)), "expected": str(user_id(app, ASHA)),
        "note": "The cancelled cheque is on its way by courier; chase it on Monday."})
    assert answer.status_code == 302
    assert stored(app, merchant).owner_id == user_id(app, BALA)
    summary = page(client.get(f"/merchants/{merchant}"))
    assert "bala@example.com owns Lotus Traders now." in words(summary)
    note = summary.select_one("#owner .note")
    assert "chase it on Monday" in note.select_one(".note__text").get_text()
    assert note.select_one(".note__meta").get_text().startswith(ASHA)
    [told] = notices_of(app, BALA)
    assert (told.kind, told.by_user_id, told.mail_state) == ("handover", user_id(app, ASHA),
                                                             "pending")
    assert told.note_id is not None
    [event] = audited(app, "merchant.owner")
    assert (event.detail["from"], event.detail["email"], event.detail["note"]) == (
        ASHA, BALA, told.note_id)


def test_ops_cannot_hand_on_a_merchant_they_do_not_own(app, auth, client):
    auth.create("ops", BALA)
    merchant = make_merchant(app, "Lotus Traders", owner=BALA)
    auth.login("ops", ASHA)
    shown = page(client.get(f"/merchants/{merchant}/owner"))
    assert shown.select_one("form select") is None
    assert "Only bala@example.com or an admin can hand it to someone else." in words(shown)
    answer = client.post(f"/merchants/{merchant}/owner", data={
        "owner": str(user_id(app, ASHA)), "expected": str(user_id(app, BALA))})
    assert answer.status_code == 400
    assert stored(app, merchant).owner_id == user_id(app, BALA)
    assert audited(app, "merchant.owner") == []


def test_an_admin_gives_any_merchant_to_anyone_or_nobody(app, auth, client):
    for email in (ASHA, BALA):
        auth.create("ops", email)
    merchant = make_merchant(app, "Lotus Traders", owner=ASHA)
    auth.login("admin")
    form = page(client.get(f"/merchants/{merchant}/owner"))
    offered = [o.get_text() for o in form.select("#owner option")]
    assert offered == ["Nobody", "admin@example.com", BALA]
    client.post(f"/merchants/{merchant}/owner", data={
        "owner": str(user_id(app, BALA)), "expected": str(user_id(app, ASHA))})
    assert stored(app, merchant).owner_id == user_id(app, BALA)
    assert [n.kind for n in notices_of(app, BALA)] == ["handover"]
    client.post(f"/merchants/{merchant}/owner", data={
        "owner": "", "expected": str(user_id(app, BALA))})
    assert stored(app, merchant).owner_id is None
    assert [e.detail["email"] for e in audited(app, "merchant.owner")] == [BALA, "nobody"]


def test_a_change_on_a_stale_page_is_refused_and_says_who_owns_it(app, auth, client):
    for email in (ASHA, BALA):
        auth.create("ops", email)
    merchant = make_merchant(app, "Lotus Traders", owner=BALA)
    auth.login("admin")
    typed = "Please call the signatory before Friday."
    answer = client.post(f"/merchants/{merchant}/owner", data={
        "owner": str(user_id(app, ASHA)), "expected": "", "note": typed})
    assert answer.status_code == 400
    shown = page(answer)
    assert errors_beside(shown, "owner") == [
        "Someone changed the owner of this merchant while you were looking: "
        "bala@example.com owns it now."]
    assert shown.select_one("#note").get_text().strip() == typed  # nothing typed is lost
    assert shown.select_one("#expected")["value"] == str(user_id(app, BALA))
    assert stored(app, merchant).owner_id == user_id(app, BALA)


def test_an_inactive_account_cannot_be_given_a_merchant(app, auth, client):
    auth.create("ops", BALA)
    with app.app_context():
        find_user(BALA).active = False
        db.session.commit()
    merchant = make_merchant(app, "Lotus Traders")
    auth.login("admin")
    answer = client.post(f"/merchants/{merchant}/owner", data={
        "owner": str(user_id(app, BALA)), "expected": ""})
    assert errors_beside(page(answer), "owner") == ["Choose someone whose account is active."]
    assert stored(app, merchant).owner_id is None
