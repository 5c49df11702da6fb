"""Debian's headless Chromium for the Playwright tests (scripts/system-deps.sh installs it): one
browser for the run (per xdist worker), a fresh context for each test."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Browser, FrameLocator, Locator, Page, sync_playwright

#: Debian's Chromium headless shell (package chromium-headless-shell, built from the chromium
#: source package): the Chromium build Playwright itself runs headless. The full browser runs the
#: same engine behind a browser's user interface (a window, an address bar's renderer), which cost
#: the journeys 40% of their time; it serves where the headless shell is not installed.
CHROMIUM_BINARIES = (Path("/usr/bin/chromium-headless-shell"), Path("/usr/bin/chromium"))
#: Flags for a closed network: no background traffic, no sandbox as root, no GPU; and no process
#: per site (the portal's pages and the sandbox's frame in them share a renderer: starting a
#: process per site cost about a fifth of the browser's CPU in the journeys; origins, their
#: storage and postMessage's checks are the web's rules, not the process model's).
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--disable-site-isolation-trials"]


def missing(message: str) -> None:
    """Skip for a missing tool, or fail under CI=true, where everything must be present."""
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


@contextmanager
def headless_chromium() -> Iterator[Browser]:
    """Launch Chromium for a block of tests and close it after them."""
    binary = next((path for path in CHROMIUM_BINARIES if path.exists()), None)
    if binary is None:
        missing(f"Chromium not found at {' or '.join(map(str, CHROMIUM_BINARIES))}"
                " (scripts/system-deps.sh installs it)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(binary), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(scope="session")
def chromium() -> Iterator[Browser]:
    """The run's headless Chromium (Playwright's sync API runs once per process, so every
    browser test shares it); a test opens its own context, never reusing another's."""
    with headless_chromium() as browser:
        yield browser


# ---------------------------------------------------------------- the sandbox's verification page

#: The labels of the sandbox verification page's consent boxes.
TERMS = "I have read and accept the terms and conditions"
DIGILOCKER_CONSENT = "I consent to sharing my documents from DigiLocker"


#: The browser's answer to the page's request for the camera and microphone, as a merchant's tap
#: on Allow or Block gives it. Headless Chromium has no media capture at all (its answer is
#: NotSupportedError), so the test stands in for the person and the device.
CAMERA_ANSWERS = {
    "allow": "() => { navigator.mediaDevices.getUserMedia = () => Promise.resolve("
             "{getTracks: () => [{stop: () => { window.cameraStopped = true; }}]}); }",
    "block": "() => { navigator.mediaDevices.getUserMedia = () => Promise.reject("
             "new DOMException('Permission denied', 'NotAllowedError')); }",
    "missing": "() => { navigator.mediaDevices.getUserMedia = () => Promise.reject("
               "new DOMException('Requested device not found', 'NotFoundError')); }",
}


def answer_camera(page: Page, answer: str) -> None:
    """Tap the merchant page's camera button (in whichever language the page is) and answer its
    request (``allow``, ``block``, or ``missing``: a device without a camera)."""
    page.evaluate(CAMERA_ANSWERS[answer])
    page.locator("button#camera-start").click()


def allow_camera(page: Page) -> None:
    """Pass the merchant page's camera check as a merchant who allows it; the gateway's frame
    loads."""
    answer_camera(page, "allow")
    page.locator("#verification-frame:not([hidden])").wait_for()


def accept_terms(frame: FrameLocator) -> None:
    """Step 1 of the sandbox's verification page, once loaded whole: accept the terms and go
    on (a box ticked while the frame's first page still loads may be lost with it)."""
    posted(frame, frame.get_by_label(TERMS)).check()
    frame.get_by_role("button", name="Accept and continue").click()


def posted(frame: FrameLocator, shown: Locator) -> Locator:
    """``shown``, once its page is there and has posted its messages to the parent (the page's
    script marks its body): leaving sooner, as only a test can, would lose them."""
    shown.wait_for()
    frame.locator("body[data-posted]").wait_for(state="attached")
    return shown


def click_through_verification(frame: FrameLocator, pass_video_kyc: bool = True) -> None:
    """Do what the merchant does on the sandbox's verification page in ``frame``: accept the
    terms, consent to DigiLocker, then pass video KYC (or, without ``pass_video_kyc``, stop
    once its button shows), each page's messages posted before going on."""
    accept_terms(frame)
    posted(frame, frame.get_by_label(DIGILOCKER_CONSENT)).check()
    frame.get_by_role("button", name="Give consent and continue").click()
    video_kyc = posted(frame, frame.get_by_role("button", name="Pass video KYC"))
    if pass_video_kyc:
        video_kyc.click()
