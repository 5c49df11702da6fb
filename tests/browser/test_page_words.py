"""The pages in words at a desktop and a phone width: badges and the audit trail pass axe-core
(colour contrast included) and nothing overflows the viewport sideways."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.browser.support import Axe, Servers, log_in
from tests.verification.support import onboard

pytestmark = pytest.mark.browser

WIDTHS = (1280, 375)


def pages_in_words(merchant_id: int) -> dict[str, str]:
    """The pages this test looks at, by a short name."""
    return {"merchants": "/merchants", "status": f"/merchants/{merchant_id}/status",
            "audit": "/admin/audit"}


def test_badges_and_the_audit_trail_are_readable_at_both_widths(
        page: Page, servers: Servers, axe: Axe, auth, app) -> None:
    merchant_id = onboard(app)
    log_in(page, auth.create("admin"), app=app)
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        for path in pages_in_words(merchant_id).values():
            page.goto(path)
            axe.check(page)
            assert page.evaluate("() => document.documentElement.scrollWidth") <= width, path
    page.goto("/admin/audit")
    details = page.locator("tr[data-action='step.send.business'] details").first
    assert not details.locator("pre").is_visible()
    details.locator("summary").click()
    assert details.locator("pre").is_visible()
