""""Needs my action": each reason a merchant someone owns needs them now, in words, with the page
where to act, most urgent first; the owner's alone (an admin's tab shows everyone's and who
carries what); ops land on it; the navigation counts it."""

from __future__ import annotations

from datetime import timedelta

from portal.core import clock
from portal.core.models import OutboxItem, StepDraft
from tests.support.rows import stored
from tests.support.team import audited, make_merchant, page, words
from tests.worklist.support import add, hold, items, link

ASHA, BALA = "asha@example.com", "bala@example.com"


def test_each_reason_in_words_with_where_to_act_most_urgent_first(app, auth, client,
                                                                   portal_clock):
    auth.create("ops", ASHA)
    rfi = make_merchant(app, "Asked Traders", owner=ASHA, status="RFI",
                        documents_outstanding=["CANCELLED_CHEQUE", "BANK_STATEMENT"])
    refused = make_merchant(app, "Refused Traders", owner=ASHA)
    queued = make_merchant(app, "Queued Traders", owner=ASHA)
    docs = make_merchant(app, "Papers Traders", owner=ASHA, checklist={"documents": "PENDING"},
                         documents_outstanding=["LLP_AGREEMENT"])
    ending = make_merchant(app, "Ending Link", owner=ASHA, status="PENDING_VERIFICATION",
                           checklist={"documents": "COMPLETE", "vkyc": "PENDING"})
    unopened = make_merchant(app, "Unopened Link", owner=ASHA, status="PENDING_VERIFICATION",
                             checklist={"documents": "COMPLETE"})
    rejected = make_merchant(app, "Rejected Traders", owner=ASHA, status="REJECTED")
    approved = make_merchant(app, "Paid Traders", owner=ASHA, status="APPROVED")
    now = clock.utcnow()
    add(app, StepDraft(merchant_id=refused, step="bank", state="needs_attention", payload={}),
        OutboxItem(merchant_id=queued, step="business", draft_version=1, payload={},
                   state="pending", attempts=5, next_attempt_at=now,
                   created_at=now - timedelta(hours=2)),
        link(ending, made_hours_ago=20), link(unopened, made_hours_ago=5),
        hold(approved, authorized_hours_ago=150))
    auth.login("ops", ASHA)
    assert items(client) == [
        ("Paid Traders", "An authorised hold not captured: expires in 18 hours "
         "(2026-01-06 03:00 UTC). Capture or release before the issuer lets the money go.",
         f"/merchants/{approved}/payments?status=expiring"),
        ("Ending Link", "The verification link sent 2026-01-04 13:00 UTC expires in 4 hours "
         "and the merchant has not finished: remind them, or send a new link.",
         f"/merchants/{ending}/verification"),
        ("Asked Traders", "The gateway asks for more information: Cancelled cheque, Bank "
         "statement.", f"/merchants/{rfi}/steps/documents"),
        ("Refused Traders", "The gateway refused Bank details: correct it and send it again.",
         f"/merchants/{refused}/steps/bank"),
        ("Queued Traders", "Business details has waited to be sent since 2026-01-05 07:00 UTC: "
         "the gateway has not taken it yet. Check that it is up, or send it again.",
         f"/merchants/{queued}/steps/business"),
        ("Rejected Traders", "The gateway rejected this merchant: tell them why, then mark "
         "them told.", f"/merchants/{rejected}/status"),
        ("Papers Traders", "Documents outstanding: LLP agreement.",
         f"/merchants/{docs}/steps/documents"),
        ("Unopened Link", "The merchant has not opened the verification link sent 2026-01-05 "
         "04:00 UTC: remind them.", f"/merchants/{unopened}/verification"),
    ]
    shown = page(client.get("/worklist"))
    assert words(shown.select_one(".worklist-summary")) == \
        "8 things need you, the most urgent first."
    assert words(shown.select_one("nav a[href='/worklist']")) == "Needs my action 8 waiting"


def test_only_the_owners_merchants_and_nothing_once_it_is_done(app, auth, client):
    auth.create("ops", BALA)
    make_merchant(app, "Bala's Traders", owner=BALA, status="RFI")
    make_merchant(app, "Nobody's Traders", status="RFI")
    auth.create("ops", ASHA)
    make_merchant(app, "Quiet Traders", owner=ASHA, status="PENDING_REVIEW")
    make_merchant(app, "Told Traders", owner=ASHA, status="REJECTED",
                  rejection_told_at=clock.utcnow())
    make_merchant(app, "Done Traders", owner=ASHA, status="APPROVED")
    auth.login("ops", ASHA)
    assert items(client) == []
    assert "Nothing needs you now" in words(page(client.get("/worklist")))
    assert words(page(client.get("/worklist")).select_one("nav a[href='/worklist']")) == \
        "Needs my action"


def test_ops_land_on_their_work_and_admins_on_the_merchants(app, auth, client):
    assert auth.login("ops").headers["Location"] == "/worklist"
    assert client.get("/").headers["Location"] == "/worklist"
    auth.logout()
    assert auth.login("admin").headers["Location"] == "/merchants"


def test_the_owner_notes_a_rejected_merchant_was_told(app, auth, client):
    auth.create("ops", ASHA)
    rejected = make_merchant(app, "Rejected Traders", owner=ASHA, status="REJECTED")
    auth.login("ops", ASHA)
    answer = client.post(f"/merchants/{rejected}/rejection-told", data={"back": "mine"})
    assert answer.headers["Location"].endswith("/worklist")
    assert stored(app, rejected).rejection_told_at is not None
    assert items(client) == []
    [event] = audited(app, "merchant.rejection_told")
    assert (event.actor_label, event.merchant_id) == (ASHA, rejected)


def test_someone_else_cannot_note_it(app, auth, client):
    auth.create("ops", BALA)
    rejected = make_merchant(app, "Rejected Traders", owner=BALA, status="REJECTED")
    auth.login("ops", ASHA)
    client.post(f"/merchants/{rejected}/rejection-told")
    assert stored(app, rejected).rejection_told_at is None
    assert "Only the owner of Rejected Traders or an admin can tell it of its rejection." in words(
        page(client.get("/worklist")))


def test_an_admin_sees_everyones_work_and_who_carries_what(app, auth, client):
    for email in (ASHA, BALA):
        auth.create("ops", email)
    make_merchant(app, "Asha's RFI", owner=ASHA, status="RFI")
    make_merchant(app, "Asha's quiet one", owner=ASHA, status="PENDING_REVIEW")
    make_merchant(app, "Bala's RFI", owner=BALA, status="RFI")
    make_merchant(app, "Nobody's RFI", status="RFI")
    auth.login("admin")
    assert items(client) == []  # an admin owns none
    everyone = page(client.get("/worklist/everyone"))
    load = [[words(td) for td in tr.select("td")] for tr in everyone.select(".team-load tbody tr")]
    assert load == [[ASHA, "2", "1"], [BALA, "1", "1"], ["Nobody", "1", "1"]]
    owners = [words(li.select_one(".work-item__owner")) for li in everyone.select(".work-item")]
    assert sorted(owners) == sorted([f"· {ASHA}", f"· {BALA}", "· Nobody owns it"])
    assert everyone.select_one(".tabs a[aria-current=page]").get_text() == "Everyone"


def test_ops_cannot_open_everyones_tab(auth, client):
    auth.login("ops")
    assert client.get("/worklist/everyone").status_code == 403


def test_everyones_tab_reads_a_bounded_number_of_merchants(app, auth, client, monkeypatch,
                                                           portal_clock):
    monkeypatch.setattr("portal.domain.worklist.service.EVERYONE_CAP", 2)
    for n in range(3):
        make_merchant(app, f"Asked {n}", status="RFI")
        portal_clock.advance(60)
    auth.login("admin")
    shown = page(client.get("/worklist/everyone"))
    assert [words(a) for a in shown.select(".work-item__merchant a")] == ["Asked 0", "Asked 1"]
    assert "These are what the 2 merchants idle longest need: more merchants may need " \
           "action" in words(shown.select_one(".worklist-summary"))
    assert "idle longest" not in words(page(client.get("/worklist")))
