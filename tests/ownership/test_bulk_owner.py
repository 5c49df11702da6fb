"""A bulk import's optional ``owner`` column: the email of an active user, checked with the
rest of the file (a problem of its row and column otherwise, nothing sent), given to each
merchant its row starts or resumes, as the importing admin; never sent to the gateway, never
in a draft."""

from __future__ import annotations

import io

from sqlalchemy import select

from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.step import StepDraft
from tests.bulk.support import csv_text, example_rows, received
from tests.support.team import audited, notices_of, page, user_id
from tests.support.workers import run_worker

ASHA = "zq.owner@example.com"


def upload(client, rows: list[dict[str, str]]):
    return client.post("/admin/bulk/", content_type="multipart/form-data", data={
        "file": (io.BytesIO(csv_text(rows).encode()), "merchants.csv")})


def problems(response) -> list[list[str]]:
    return [[td.get_text(strip=True) for td in tr.select("td")]
            for tr in page(response).select(".bulk-errors__table tbody tr")]


def test_rows_name_their_owner_by_email(app, auth, client, sandbox):
    auth.create("ops", ASHA)
    auth.login("admin")
    rows = example_rows()[:2]
    rows[0]["owner"] = " ZQ.Owner@Example.com "
    rows[1]["owner"] = ""
    answer = upload(client, rows)
    assert answer.status_code == 302, problems(answer)
    run_worker(app)
    with app.app_context():
        owners = dict(db.session.execute(select(Merchant.external_onboarding_id,
                                                Merchant.owner_id)).all())
        drafts = [d.payload for d in db.session.scalars(
            select(StepDraft).where(StepDraft.step == "create"))]
    assert owners == {rows[0]["externalOnboardingId"]: user_id(app, ASHA),
                      rows[1]["externalOnboardingId"]: user_id(app, "admin@example.com")}
    assert all("owner" not in draft for draft in drafts)
    assert not any(b"zq.owner" in r.body.lower() for r in received(sandbox))
    [event] = audited(app, "merchant.owner")
    assert (event.actor_label, event.detail["email"], event.detail["from"]) == (
        "admin@example.com", ASHA, "admin@example.com")  # the importer owned it a moment
    assert [n.kind for n in notices_of(app, ASHA)] == ["handover"]


def test_an_owner_who_is_no_active_user_is_a_problem_of_the_row(app, auth, client, sandbox):
    auth.create("ops", "gone@example.com", active=False)
    auth.login("admin")
    rows = example_rows()[:3]
    rows[0]["owner"] = "nobody@example.com"
    rows[1]["owner"] = "gone@example.com"
    answer = upload(client, rows)
    assert answer.status_code == 422
    assert problems(answer) == [
        ["2", "owner", "No active user of the portal has the email nobody@example.com: add "
                       "them on the Team page"],
        ["3", "owner", "No active user of the portal has the email gone@example.com: add "
                       "them on the Team page"]]
    assert received(sandbox) == []
