"""Notes on a merchant: who, when, what; kept, audited (without their text), the newest on the
summary, all on their page and in the merchant's ZIP export; a refused note is kept as typed
with its error beside the box."""

from __future__ import annotations

import io
import json
import zipfile

from tests.support.team import audited, errors_beside, make_merchant, page, words

LONG_NOTE = ("Spoke to the signatory, Ms Lakshmi Venkataraghavan, who confirmed the GST "
             "certificate will be re-issued in the registered name "
             "VENKATARAGHAVAN-SUBRAMANIAM_INTERNATIONAL_TRADING_PRIVATE_LIMITED before the end "
             "of the month; upload it as soon as it arrives. " * 3)


def add(client, merchant: int, text: str):
    return client.post(f"/merchants/{merchant}/notes", data={"text": text})


def test_a_note_is_kept_with_who_and_when_and_shown_newest_first(app, auth, client,
                                                                  portal_clock):
    merchant = make_merchant(app, "Lotus Traders")
    auth.login("ops", "asha@example.com")
    for n in range(1, 5):
        answer = add(client, merchant, f"Note {n}")
        assert answer.headers["Location"].endswith(f"/merchants/{merchant}#notes")
        portal_clock.advance(60)
    summary = page(client.get(f"/merchants/{merchant}"))
    shown = [words(n.select_one(".note__text")) for n in summary.select("#owner .note")]
    assert shown == ["Note 4", "Note 3", "Note 2"]  # the three newest
    assert summary.select_one("#owner a[href$='/notes']").get_text() == "All 4 notes"
    meta = words(summary.select_one("#owner .note .note__meta"))
    assert meta == "asha@example.com, 2026-01-05 09:03 UTC"
    everything = page(client.get(f"/merchants/{merchant}/notes"))
    assert [words(n.select_one(".note__text")) for n in everything.select(".note")] == [
        "Note 4", "Note 3", "Note 2", "Note 1"]
    events = audited(app, "merchant.note")
    assert [e.actor_label for e in events] == ["asha@example.com"] * 4
    assert all("text" not in e.detail for e in events)  # the audit trail keeps no note text


def test_a_refused_note_keeps_what_was_typed_beside_its_error(app, auth, client):
    merchant = make_merchant(app, "Lotus Traders")
    auth.login("ops")
    empty = add(client, merchant, "   ")
    assert empty.status_code == 400
    assert errors_beside(page(empty), "text") == ["Write the note first."]
    too_long = "x" * 2001
    answer = add(client, merchant, too_long)
    assert answer.status_code == 400
    shown = page(answer)
    assert errors_beside(shown, "text") == ["Keep the note under 2,000 characters."]
    assert shown.select_one("#text").get_text().strip() == too_long
    control = add(client, merchant, "call back\x1b[31m")
    assert control.status_code == 400 and errors_beside(page(control), "text")
    assert audited(app, "merchant.note") == []


def test_long_notes_wrap_on_the_summary(app, auth, client):
    merchant = make_merchant(app, "Lotus Traders")
    auth.login("ops")
    add(client, merchant, LONG_NOTE)
    summary = page(client.get(f"/merchants/{merchant}"))
    assert words(summary.select_one("#owner .note__text")) == " ".join(LONG_NOTE.split())


def test_the_export_carries_the_notes(app, auth, client):
    merchant = make_merchant(app, "Lotus Traders")
    auth.login("admin")
    add(client, merchant, "Asked for a clearer copy of the cheque.")
    response = client.post(f"/merchants/{merchant}/export")
    record = json.loads(zipfile.ZipFile(io.BytesIO(response.data)).read("merchant.json"))
    response.close()
    [note] = record["notes"]
    assert (note["text"], note["author_label"]) == ("Asked for a clearer copy of the cheque.",
                                                    "admin@example.com")
    assert record["merchant"]["owner_id"] is None
