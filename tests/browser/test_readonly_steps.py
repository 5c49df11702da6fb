"""A finished merchant's step pages in Chromium, with long values: within a phone's width, no
value squeezed into a column a few letters wide at a desktop's, and nothing axe calls serious."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.browser.support import Axe, Servers, log_in, screenshot
from tests.support.finished import finished_merchant
from tests.wizard.support import FORM_STEPS

pytestmark = pytest.mark.browser

#: The narrowest a value may be at each width: a value column, never a column of letters.
NARROWEST_VALUE = {1280: 300, 375: 250}


def test_read_only_steps_fit_and_read_at_both_widths(page: Page, servers: Servers, axe: Axe,
                                                     auth, csrf_app) -> None:
    merchant_id = finished_merchant(csrf_app)
    log_in(page, auth.create("admin"), app=csrf_app)
    for step in FORM_STEPS:
        page.goto(f"/merchants/{merchant_id}/steps/{step}")
        for width, narrowest in NARROWEST_VALUE.items():
            page.set_viewport_size({"width": width, "height": 900})
            assert page.evaluate("() => document.documentElement.scrollWidth") <= width, \
                (step, width)
            widths = page.locator(".values__row dd").evaluate_all(
                "cells => cells.map(cell => cell.getBoundingClientRect().width)")
            assert widths and min(widths) >= narrowest, (step, width, min(widths))
        axe.check(page)
        screenshot(page, f"readonly-{step}")
