"""The hosted verification page as a partner's iframe sees it, without JS: open, press, walk."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import requests
from bs4 import BeautifulSoup, Tag

from portal.gateway.onboarding.client import OnboardingClient
from tests.sandbox.payloads import CALLBACK, business, fill_every_step

PARTNER_ORIGIN = "https://partner.example.com"
TICKED = {"accept": "yes", "consent": "yes"}


def step(name: str, onboarding_id: str) -> dict[str, Any]:
    """A STEP message as the parent should receive it."""
    return {"eventName": "PARTNER_MERCHANT_VERIFICATION_STEP",
            "eventData": {"onboardingId": onboarding_id, "stepName": name}}


def event(name: str, onboarding_id: str) -> dict[str, Any]:
    """A COMPLETE or CLOSED message."""
    return {"eventName": f"PARTNER_MERCHANT_VERIFICATION_{name}",
            "eventData": {"onboardingId": onboarding_id}}


@dataclass
class Page:
    """One answer of the verification page, parsed."""

    response: requests.Response
    soup: BeautifulSoup

    @property
    def body(self) -> Tag:
        """The <body>, which carries the messages."""
        body = self.soup.body
        assert body is not None
        return body

    @property
    def messages(self) -> list[dict[str, Any]]:
        """The messages the page's script posts to its parent."""
        return json.loads(str(self.body["data-messages"]))

    @property
    def target_origin(self) -> str:
        """The targetOrigin the script posts them to."""
        return str(self.body["data-target-origin"])

    @property
    def session(self) -> str:
        """The session id in the page's forms."""
        field = self.soup.find("input", attrs={"name": "session"})
        assert isinstance(field, Tag), "no session field on the page"
        return str(field["value"])

    @property
    def step(self) -> str:
        """The current step: TNC, DIGILOCKER, VKYC, or DONE when none is current."""
        current = self.soup.select_one('.steps li[aria-current="step"]')
        return str(current["data-step"]) if current is not None else "DONE"

    def csp(self) -> dict[str, str]:
        """The Content-Security-Policy header by directive."""
        header = self.response.headers["Content-Security-Policy"]
        return dict(part.strip().split(" ", 1) for part in header.split(";"))

    def text(self) -> str:
        """The page's text, whitespace collapsed."""
        return " ".join(self.soup.get_text(" ").split())


def parsed(response: requests.Response) -> Page:
    """A response as a Page."""
    return Page(response, BeautifulSoup(response.text, "html.parser"))


def open_link(link: str) -> Page:
    """GET the redirect link."""
    return parsed(requests.get(link, timeout=5))


def press(url: str, page: Page, action: str, **fields: str) -> Page:
    """Post one of the page's buttons with the page's session."""
    data = {"session": page.session, "action": action, **fields}
    return parsed(requests.post(url + "/verification", data=data, timeout=5))


def ready_link(partner: OnboardingClient, onboarding_id: str, callback: str = CALLBACK,
               **business_overrides: Any) -> str:
    """Fill every step and ask for a verification link."""
    fill_every_step(partner, onboarding_id)
    if business_overrides:
        partner.update_business_details(onboarding_id, business(**business_overrides))
    return partner.get_verification_redirect(onboarding_id,
                                             {"callBackUrl": callback}).redirectLink


def walk(url: str, link: str) -> Page:
    """Open the link and pass every step; the last page."""
    page = open_link(link)
    for action in ("tnc", "digilocker", "vkyc-pass"):
        page = press(url, page, action, **TICKED)
    return page


def status_of(partner: OnboardingClient, onboarding_id: str) -> str:
    """The record's onboardingStatus."""
    return partner.get_status(onboarding_id).merchantInfo.onboardingStatus
