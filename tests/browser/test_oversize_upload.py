"""Uploads of any size over the limit end on the documents page with the limit named, in
Chromium with scripts (checked before sending) and without (the server reads and refuses)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from portal.domain.onboarding import scenarios
from tests.browser.support import TIMEOUT_MS, Axe, Servers, log_in, screenshot

pytestmark = pytest.mark.browser

MB = 1024 * 1024
LIMIT_TEXT = "larger than the limit of 5 MB"
#: The context fixture's parameter that turns scripts on.
WITH_SCRIPTS = "with scripts"


@pytest.fixture(params=[WITH_SCRIPTS, "without scripts"])
def context(request: pytest.FixtureRequest, chromium: Browser,
            servers: Servers) -> Iterator[BrowserContext]:
    """A fresh profile, once with scripts and once without (the server's own refusal)."""
    ctx = chromium.new_context(base_url=servers.portal,
                              java_script_enabled=request.param == WITH_SCRIPTS)
    ctx.set_default_timeout(TIMEOUT_MS)
    try:
        yield ctx
    finally:
        ctx.close()


@pytest.fixture
def axe(request: pytest.FixtureRequest, axe: Axe, chromium: Browser,
        context: BrowserContext) -> Iterator[Axe]:
    """The suite's audit; with scripts off, run in a profile with scripts."""
    if request.node.callspec.params["context"] == WITH_SCRIPTS:
        yield axe
        return
    scripted = chromium.new_context()
    scripted.set_default_timeout(TIMEOUT_MS)
    try:
        yield axe.with_scripts(scripted)
    finally:
        scripted.close()


@pytest.fixture
def documents_page(page: Page, sent_merchant, auth) -> str:
    """Signed in as ops; a merchant whose owners each owe an Aadhaar; the documents page's URL."""
    base = sent_merchant("business", "owners")
    log_in(page, auth.create("ops"))
    return f"{base}/steps/documents"


@pytest.mark.parametrize("size", [6 * MB, 50 * MB], ids=["6MB", "50MB"])
def test_an_oversize_upload_is_refused_on_the_documents_page(
        page: Page, documents_page: str, axe: Axe, tmp_path: Path, size: int) -> None:
    big = tmp_path / "scan.pdf"
    with big.open("wb") as out:
        out.write(scenarios.sample_pdf("scan"))
        out.truncate(size)
    page.goto(documents_page)
    form = page.locator("form.upload").nth(1)
    slot = form.get_attribute("data-slot")
    form.locator("input[type=file]").set_input_files(big)
    form.get_by_role("button", name="Upload and send").click()
    page.wait_for_load_state()
    assert page.url.endswith(documents_page)
    form = page.locator(f"form.upload[data-slot='{slot}']")
    expect(form.locator(".field__errors")).to_contain_text(LIMIT_TEXT)
    expect(form.locator("input[type=file]")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("table.documents")).to_have_count(0)  # nothing was stored
    axe.check(page)
    screenshot(page, f"documents-too-large-{size // MB}mb")


def test_every_upload_field_has_its_own_id_and_label(page: Page, documents_page: str,
                                                    axe: Axe) -> None:
    page.goto(documents_page)
    ids = page.locator("[id]").evaluate_all("(all) => all.map(e => e.id)")
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    for form in page.locator("form.upload").all():
        expect(form.get_by_label("File")).to_have_count(1)
    axe.check(page)
