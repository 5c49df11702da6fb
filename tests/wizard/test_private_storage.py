"""Uploaded documents are owner-only on disk whatever the umask: the folder 0700, each file 0600."""

from __future__ import annotations

import stat
from pathlib import Path

from portal.core.labels import Kind, label
from portal.domain.onboarding import scenarios
from tests.wizard.support import typed, upload


def test_uploads_folder_and_files_are_owner_only(browser, new_merchant, settings,
                                                 permissive_umask):
    for step in ("business", "owners"):
        browser.submit(browser.get(f"/merchants/{new_merchant}/steps/{step}"),
                       typed(scenarios.HAPPY, step))
    page = browser.get(f"/merchants/{new_merchant}/steps/documents")
    for form in page.soup.select("form.upload"):
        slot = form["data-slot"]
        page = upload(browser, page, slot, scenarios.sample_pdf(slot), "aadhaar.pdf")
        assert f"{label(slot, Kind.DOCUMENT)} sent to the gateway." in page.text()
    folder = Path(settings.upload_folder)
    files = list(folder.iterdir())
    assert len(files) == 2
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert [stat.S_IMODE(path.stat().st_mode) for path in files] == [0o600, 0o600]
