"""The people of the load bench, as Locust users (``locust -f bench/load_people.py``, started by
``bench/load.py`` in a process of its own: Locust runs on gevent).

Each person signs in with a password and an authenticator code, creates a merchant through the
wizard, then, pausing between pages as people do, lists and searches merchants and payments,
saves and sends the business details of their merchant, places holds on the sandbox's hosted
checkout, and now and then signs out and in again. Every request is timed and kept with its
outcome, and every draft saved, merchant created and hold placed is noted with what was typed
that makes it recognisable, so the bench can look each one up in the database afterwards.

Read from the environment: ``LOAD_PLAN`` (the plan ``bench/load_setup.py`` wrote), ``LOAD_PHASE``
(``single`` and ``after``: one person without pauses, before and after the crowd; ``load``: the
crowd) and ``LOAD_RESULTS`` (where the
timings and notes are written when Locust quits). Imports nothing of the portal.
"""

from __future__ import annotations

import html
import itertools
import json
import os
import re
import secrets
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

import pyotp
from locust import FastHttpUser, between, constant, events, task

PLAN = json.loads(Path(os.environ["LOAD_PLAN"]).read_text(encoding="utf-8"))
PHASE = os.environ["LOAD_PHASE"]
#: Every request: [page, milliseconds, what went wrong or None].
SAMPLES: list[list[Any]] = []
#: Per merchant, every save of its business details: [what was typed, outcome].
DRAFTS: dict[str, list[list[str]]] = {}
#: Every hold and every new merchant: [what was typed, outcome].
HOLDS: list[list[str]] = []
CREATES: list[list[str]] = []
#: Accounts free to sign in with, and the last code step each was used at.
FREE = list(PLAN["accounts"][PHASE])
LAST_STEP: dict[str, int] = {}
CREATE_BODIES = iter(PLAN["creates"][PHASE])
PEOPLE = itertools.count()
FORM = {"Content-Type": "application/x-www-form-urlencoded"}
INPUT = re.compile(r"<input\b[^>]*>", re.IGNORECASE)
ATTRIBUTE = re.compile(r'([\w-]+)="([^"]*)"')
ERROR = re.compile(r'class="flash flash--error[^"]*"[^>]*>(.*?)</div>', re.DOTALL)
TAG = re.compile(r"<[^>]+>")
#: Where a POST that went through sends the browser; anything else is a refusal.
SAVED, REFUSED, FAILED = "saved", "refused", "failed"


def hidden_fields(page: str) -> dict[str, str]:
    """The page's hidden inputs (CSRF token, draft version, order ids) by name."""
    fields = {}
    for tag in INPUT.findall(page):
        attributes = dict(ATTRIBUTE.findall(tag))
        if attributes.get("type") == "hidden" and "name" in attributes:
            fields[attributes["name"]] = html.unescape(attributes.get("value", ""))
    return fields


def refusal(page: str) -> str:
    """The first error message a page shows, in short (what a refused form said)."""
    found = ERROR.search(page)
    text = " ".join(TAG.sub(" ", html.unescape(found.group(1))).split()) if found else ""
    return f"refused: {text[:90] or 'no message'}"


def failure(answer: Any) -> str:
    """What went wrong with an answer: its status, or the error when there was none."""
    if answer.status_code:
        return f"HTTP {answer.status_code}"
    error = getattr(answer, "error", None) or answer.request_meta.get("exception")
    return f"no answer: {type(error).__name__} {error}"


def _step(account: dict[str, str]) -> int:
    return pyotp.TOTP(account["secret"]).timecode(time.time())


def take_account() -> dict[str, str] | None:
    """A free account whose last code is older than the current step, or None."""
    for account in FREE:
        if LAST_STEP.get(account["email"], -1) < _step(account):
            FREE.remove(account)
            return account
    return None


@events.request.add_listener
def _timed(name: str, response_time: float, exception: Exception | None, **_: Any) -> None:
    SAMPLES.append([name, response_time, None if exception is None else str(exception)[:120]])


@events.quitting.add_listener
def _write(**_: Any) -> None:
    Path(os.environ["LOAD_RESULTS"]).write_text(json.dumps(
        {"samples": SAMPLES, "drafts": DRAFTS, "holds": HOLDS, "creates": CREATES}),
        encoding="utf-8")


class Person(FastHttpUser):
    """One member of the partner's ops team at work."""

    wait_time = between(1, 5) if PHASE == "load" else constant(0)
    network_timeout = 120.0
    connection_timeout = 60.0
    #: A GET whose kept-alive connection the server closed meanwhile is sent again, as a
    #: browser does; a POST is not (it might be carried out twice).
    max_retries = 1

    def on_start(self) -> None:
        """Sign in and start a merchant of one's own."""
        self.tag = f"{PHASE[0]}{next(PEOPLE)}"
        self.typed = itertools.count()
        self.account: dict[str, str] | None = None
        self.merchant: str | None = None
        self.fields: dict[str, str] = {}
        self.sign_in()
        self.new_merchant()

    def get(self, path: str, name: str) -> str:
        """Open a page as a signed-in person; a redirect (to sign-in) is a failure."""
        with self.client.get(path, name=name, allow_redirects=False,
                             catch_response=True) as answer:
            if answer.status_code != 200:
                answer.failure(failure(answer))
                return ""
            page = answer.text or ""
        self.fields = hidden_fields(page)
        return page

    def post(self, path: str, name: str, data: dict[str, Any]) -> tuple[str, str]:
        """Submit a form; the outcome (saved: redirected; refused: the page again, its first
        error kept as the failure; failed) and where it redirected to."""
        body = urlencode({**data, "csrf_token": self.fields.get("csrf_token", "")})
        with self.client.post(path, name=name, data=body, headers=FORM, allow_redirects=False,
                              catch_response=True) as answer:
            if answer.status_code in (302, 303):
                return SAVED, answer.headers.get("Location", "")
            if answer.status_code == 200:
                answer.failure(refusal(answer.text or ""))
                return REFUSED, ""
            answer.failure(failure(answer))
            return FAILED, ""

    def sign_in(self) -> None:
        """Password, then the authenticator's current code, with a fresh account."""
        account = take_account()
        if account is None:
            return
        self.client.cookiejar.clear()
        self.get("/login", "sign-in page")
        outcome, to = self.post("/login", "sign-in: password",
                                {"email": account["email"], "password": PLAN["password"]})
        if outcome != SAVED or not urlsplit(to).path.startswith("/login/code"):
            FREE.append(account)
            return
        self.get(to, "sign-in: code page")
        code = pyotp.TOTP(account["secret"])
        LAST_STEP[account["email"]] = code.timecode(time.time())
        outcome, to = self.post(to, "sign-in: code", {"code": code.now()})
        self.account = account if outcome == SAVED else None
        if self.account is not None:
            self.get(to, "home page, after sign-in")

    @task(1)
    def sign_in_again(self) -> None:
        """Sign out, and in again (with another account while this one's code is spent)."""
        if self.account is None:
            self.sign_in()
            return
        if not any(LAST_STEP.get(a["email"], -1) < _step(a) for a in FREE):
            return
        self.post("/logout", "sign out", {})
        FREE.append(self.account)
        self.account = None
        self.sign_in()

    @task(4)
    def merchants_list(self) -> None:
        """The merchants list, first page."""
        self.get("/merchants", "merchants list")

    @task(2)
    def merchants_search(self) -> None:
        """The merchants list searched by part of a name."""
        query = urlencode({"q": secrets.choice(PLAN["merchant_searches"])})
        self.get(f"/merchants?{query}", "merchants search")

    @task(3)
    def payments_list(self) -> None:
        """The payments list, first page."""
        self.get("/payments", "payments list")

    @task(2)
    def payments_search(self) -> None:
        """The payments list searched by a customer's email."""
        query = urlencode({"q": secrets.choice(PLAN["payment_searches"])})
        self.get(f"/payments?{query}", "payments search")

    @task(3)
    def save_draft(self) -> None:
        """Save the business details as a draft."""
        self.business("draft", "wizard: save draft")

    @task(2)
    def save_and_send(self) -> None:
        """Save and send the business details to the sandbox."""
        self.business("send", "wizard: save and send")

    @task(1)
    def new_merchant(self) -> None:
        """Step 1 of a new merchant, saved and sent; it becomes the one this person edits."""
        body = next(CREATE_BODIES, None)
        if body is None or not self.get("/merchants/new", "new merchant page"):
            return
        name = f"Load {self.tag} merchant {next(self.typed)}"
        note = [name, FAILED]
        CREATES.append(note)
        fields = {**self.fields, **body, "displayName": name, "action": "send"}
        note[1], to = self.post("/merchants/new", "new merchant: save and send", fields)
        if note[1] == SAVED:
            self.merchant = urlsplit(to).path.split("/")[2]
            self.get(to, "wizard step page")

    def business(self, action: str, name: str) -> None:
        """Open the business details of this person's merchant, change the trade name to
        something recognisable, and save or send."""
        if self.merchant is None:
            return
        path = f"/merchants/{self.merchant}/steps/business"
        if not self.get(path, "wizard step page"):
            return
        typed = f"Load {self.tag} save {next(self.typed)}"
        note = [typed, FAILED]
        DRAFTS.setdefault(self.merchant, []).append(note)
        fields = {**self.fields, **PLAN["business"], "tradeName": typed, "action": action}
        note[1], to = self.post(path, name, fields)
        if note[1] == SAVED:
            self.get(to, "wizard step page")

    @task(2)
    def place_hold(self) -> None:
        """A hold on one of the approved merchants, sent to the sandbox: the answer is the
        hosted checkout's address (not followed: it is the gateway's page)."""
        merchant = secrets.choice(PLAN["approved"])
        path = f"/merchants/{merchant}/payments/new"
        if not self.get(path, "new hold page"):
            return
        customer = f"load-{self.tag}-{next(self.typed)}@example.com"
        note = [customer, FAILED]
        HOLDS.append(note)
        fields = {**self.fields, **PLAN["hold"], "paymentData-billingData-emailId": customer,
                  "action": "send"}
        note[1], to = self.post(path, "new hold: place", fields)
        if note[1] == SAVED and urlsplit(to).netloc == urlsplit(self.host).netloc:
            note[1] = f"{REFUSED}: redirected within the portal"
