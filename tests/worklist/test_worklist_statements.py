"""The worklist reads the same few statements however many merchants need action, on SQLite
and PostgreSQL: "Needs my action" 5 for ops (the user and their session, the navigation's
counts in one, the merchants with their facts, their refused and queued steps' names in two);
everyone's tab 9 for an admin (those, plus their approvals for the page, the payments ops
asked them to set up, the owners, each owner's load; the navigation counts the approvals and
those requests in its one statement); and the navigation's
counts are one statement on every page, however many merchants need action."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bench.measure import statements
from portal.core import clock
from portal.core.models import OutboxItem, StepDraft
from tests.outbox.support import migrated_any_database_url as migrated_any_database_url
from tests.outbox.support import migrated_postgres_template
from tests.support.team import make_merchant, page, words
from tests.worklist.support import add, hold, items, link

__all__ = ["migrated_postgres_template"]

ASHA = "asha@example.com"
#: What "Needs my action" runs, as the module's docstring counts them.
MINE = 5
EVERYONE = 9


@pytest.fixture
def database_url(migrated_any_database_url: str) -> str:
    """Each test on SQLite, then on PostgreSQL (its JSON and CASE read alike)."""
    return migrated_any_database_url


def needing_everything(app, n: int) -> None:
    """Merchants number ``n``: one for each reason, owned by Asha."""
    now = clock.utcnow()
    rfi = make_merchant(app, f"Asked {n}", owner=ASHA, status="RFI",
                        documents_outstanding=["CANCELLED_CHEQUE"])
    refused = make_merchant(app, f"Refused {n}", owner=ASHA)
    docs = make_merchant(app, f"Papers {n}", owner=ASHA, checklist={"documents": "PENDING"},
                         documents_outstanding=["LLP_AGREEMENT"])
    ending = make_merchant(app, f"Ending {n}", owner=ASHA, status="PENDING_VERIFICATION")
    make_merchant(app, f"Rejected {n}", owner=ASHA, status="REJECTED")
    approved = make_merchant(app, f"Paid {n}", owner=ASHA, status="APPROVED")
    add(app, StepDraft(merchant_id=refused, step="bank", state="needs_attention", payload={}),
        OutboxItem(merchant_id=docs, step="business", draft_version=1, payload={},
                   state="pending", attempts=5, next_attempt_at=now,
                   created_at=now - timedelta(hours=2)),
        link(ending, made_hours_ago=20), hold(approved, authorized_hours_ago=150))
    assert rfi


def counted(app, client, path: str) -> int:
    with statements(app) as seen:
        answer = client.get(path)
    assert answer.status_code == 200
    return len(seen)


def test_needs_my_action_reads_the_same_few_statements_however_many(app, auth, client):
    auth.create("ops", ASHA)
    needing_everything(app, 1)
    auth.login("ops", ASHA)
    few = counted(app, client, "/worklist")
    assert len(items(client)) == 7
    for n in range(2, 11):
        needing_everything(app, n)
    assert len(items(client)) == 70
    assert counted(app, client, "/worklist") == few == MINE
    navigation = page(client.get("/worklist")).select_one("nav a[href='/worklist']")
    assert words(navigation) == "Needs my action 70 waiting"  # the same count, in one statement


def test_everyones_tab_reads_the_same_few_statements_however_many(app, auth, client):
    auth.create("ops", ASHA)
    needing_everything(app, 1)
    auth.login("admin")
    few = counted(app, client, "/worklist/everyone")
    for n in range(2, 11):
        needing_everything(app, n)
    assert len(items(client, "/worklist/everyone")) == 70
    assert counted(app, client, "/worklist/everyone") == few == EVERYONE


def test_the_navigation_counts_in_one_statement(app, auth, client):
    auth.create("ops", ASHA)
    auth.login("ops", ASHA)
    empty = counted(app, client, "/notices")
    needing_everything(app, 1)
    assert counted(app, client, "/notices") == empty
