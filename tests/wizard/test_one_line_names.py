"""Names are typed on one line: a line break in a merchant's, trade or registered name or a
person's name (a crafted post: a browser's text box holds none) is refused beside its field,
and no merchant is made of it; so no name reaches an email's header on two lines."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.typed_text import LINE_BREAK_HELD
from portal.domain.onboarding.scenarios import HAPPY
from tests.wizard.support import typed

BROKEN = "Chai\r\nPoint"


@pytest.mark.parametrize("name", [BROKEN, "Chai\rPoint", "Chai\nPoint", "Chai\u2028Point"])
def test_a_new_merchant_whose_name_holds_a_line_break_is_refused(app, browser, name):
    page = browser.submit(browser.get("/merchants/new"),
                          typed(HAPPY, "create", displayName=name))
    assert page.errors_for("displayName") == [LINE_BREAK_HELD]
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Merchant)) == 0


@pytest.mark.parametrize(("step", "field"), [
    ("business", "registeredName"), ("business", "tradeName"), ("owners", "owners-0-name"),
    ("signatory", "authSignatoryName")])
def test_a_name_with_a_line_break_is_refused_beside_its_field(browser, new_merchant, step,
                                                               field):
    page = browser.submit(browser.get(f"/merchants/{new_merchant}/steps/{step}"),
                          typed(HAPPY, step, **{field: BROKEN}))
    assert LINE_BREAK_HELD in page.errors_for(field)
