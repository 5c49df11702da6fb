"""'Save and send' of business details through the portal (gunicorn, 2 workers, over HTTP)
vs the same PUT made directly with OnboardingClient against the same sandbox, and vs the
physical floor of a send: that PUT plus the durable commits the design cannot do without (the
body is stored before it is sent, the answer after), each of a bare row in a scratch SQLite
file opened by the portal's own ``make_engine`` (WAL, synchronous as the portal has it)."""

from __future__ import annotations

import time
from collections.abc import Callable
from http.cookiejar import DefaultCookiePolicy

from sqlalchemy import Column, Engine, Float, Integer, MetaData, Table, insert, text

from bench.measure import Row, info_row, paired, percentile, ratio_row
from bench.stack import Bench, app_for, csrf_token, gunicorn, signed_in
from portal.core.db import db, make_engine
from portal.core.models.merchant import CreateState, Merchant
from portal.domain.onboarding import scenarios
from portal.domain.onboarding.steps import BY_KEY
from tests.support.browser import flatten

SAMPLES = 80
WARMUP = 10
#: Commits a send cannot do without (the floor makes them): the body before the call
#: (nothing is lost if the process dies during it), the answer after it (known only then).
DURABLE_COMMITS = 2
SYNCHRONOUS = {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}


class FrozenCookies(DefaultCookiePolicy):
    """Take no cookie from answers: every post carries the signed-in session as it was, as a
    browser's does once the page it was sent to has shown (and dropped) the flashed outcome;
    otherwise each unread flash would ride along in the cookie and the run would time a
    session growing by one message per post."""

    def set_ok(self, cookie, request) -> bool:
        """Refuse every cookie."""
        return False


def synchronous_of(engine: Engine) -> str:
    """SQLite's ``synchronous`` setting on a connection of ``engine``, by name."""
    with engine.connect() as connection:
        return SYNCHRONOUS[connection.execute(text("PRAGMA synchronous")).scalar_one()]


def bare_commit(engine: Engine) -> Callable[[], None]:
    """A callable that inserts one bare row and commits it, on a table of its own."""
    table = Table("floor_rows", MetaData(), Column("id", Integer, primary_key=True),
                  Column("at", Float, nullable=False))
    table.create(engine)

    def commit() -> None:
        with engine.begin() as connection:
            connection.execute(insert(table).values(at=time.time()))

    return commit


def run(bench: Bench) -> list[Row]:
    """Time the portal and the floor in alternation and compare their p50 (and the portal's
    p50 and p95 with the direct call's, timed inside the floor)."""
    client = bench.client()
    env = bench.portal_env("save-and-send")
    created = client.create_onboarding(
        BY_KEY["create"].request(scenarios.form_data(scenarios.HAPPY, "create")))  # type: ignore[misc]
    onboarding_id = created.onboarding_id
    app = app_for(env)
    with app.app_context():
        merchant_id = db.session.execute(insert(Merchant).values(
            external_onboarding_id=(created.record.merchantInfo.partnerOnboardingId
                                    if created.record else None) or "bench-send",
            onboarding_id=onboarding_id, pan="AAACB0001C", display_name="Bench",
            legal_name="", create_state=CreateState.CREATED, checklist={},
            documents_outstanding=[])).inserted_primary_key[0]
        db.session.commit()
        synchronous = synchronous_of(db.engine(app))
    floor_engine = make_engine(f"sqlite:///{bench.workdir / 'send-floor.db'}")
    assert synchronous_of(floor_engine) == synchronous
    commit = bare_commit(floor_engine)
    form = scenarios.form_data(scenarios.HAPPY, "business")
    body = BY_KEY["business"].request(form)  # type: ignore[misc]
    direct_times: list[float] = []
    with gunicorn(env) as url:
        browser = signed_in(url)
        page = f"{url}/merchants/{merchant_id}/steps/business"
        fields = {**flatten(form), "action": "send",
                  "csrf_token": csrf_token(browser.get(page, timeout=10).content)}
        browser.cookies.set_policy(FrozenCookies())

        def through_portal() -> None:
            answer = browser.post(page, data=fields, allow_redirects=False, timeout=30)
            assert answer.status_code == 302, answer.status_code

        def floor() -> None:
            commit()  # the body, stored before it is sent
            started = time.perf_counter()
            client.update_business_details(onboarding_id, body)
            direct_times.append(time.perf_counter() - started)
            commit()  # the answer

        paired(through_portal, floor, WARMUP)
        direct_times.clear()
        portal, floors = paired(through_portal, floor, SAMPLES)
    floor_engine.dispose()
    ms = 1000
    name = "Save and send business details"
    floor_name = (f"direct client + {DURABLE_COMMITS} commits "
                  f"(SQLite WAL, synchronous={synchronous})")
    return [ratio_row(f"{name}: p50, portal over HTTP vs floor ({floor_name})",
                      percentile(portal, 50) * ms, percentile(floors, 50) * ms, "ms", 1.25),
            ratio_row(f"{name}: p50, portal over HTTP vs direct client",
                      percentile(portal, 50) * ms, percentile(direct_times, 50) * ms, "ms", 1.5),
            info_row(f"{name}: p95, portal over HTTP vs direct client",
                     percentile(portal, 95) * ms, percentile(direct_times, 95) * ms, "ms"),
            info_row(f"{name}: p50, floor vs direct client",
                     percentile(floors, 50) * ms, percentile(direct_times, 50) * ms, "ms")]
