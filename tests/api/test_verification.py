"""The API's step 8 through the verification page's services: the gate, the gateway's
single-use link minted for the partner's own page, the merchant's own link (it opens their
page) and the emailed one (to a loopback SMTP server); refused with the page's words while
steps are missing."""

from __future__ import annotations

import pytest

from portal.core.config import Settings
from tests.api.support import Api, new_merchant_body
from tests.support.mail import link_in, mailing
from tests.verification.support import onboard

CALLBACK = {"callBackUrl": "https://partner.example/verified"}


@pytest.fixture
def settings(settings: Settings, mail_sink) -> Settings:
    """The API's settings, mailing to the loopback sink."""
    return mailing(settings, mail_sink)


@pytest.fixture
def ready(app) -> int:
    """A merchant whose steps 1 to 7 were sent: its verification may start."""
    return onboard(app)


def test_the_gate_is_open_and_the_gateway_link_is_minted(api: Api, ready):
    assert api.get(f"/merchants/{ready}/verification").json == {
        "open": True, "done": False, "missing": []}
    minted = api.post(f"/merchants/{ready}/verification/gateway-link", CALLBACK)
    assert minted.status_code == 201, minted.json
    assert minted.json["url"].startswith("http")
    again = api.post(f"/merchants/{ready}/verification/gateway-link", CALLBACK)
    assert again.json["url"] != minted.json["url"]  # single-use: a fresh one each time


def test_the_merchants_own_link_opens_their_page(app, api: Api, ready):
    issued = api.post(f"/merchants/{ready}/verification/merchant-link")
    assert issued.status_code == 201, issued.json
    path = issued.json["url"].split("://", 1)[1].partition("/")[2]
    assert app.test_client().get("/" + path).status_code == 200


def test_the_link_is_emailed_and_emailed_again(api: Api, ready, mail_sink):
    for count in (1, 2):
        sent = api.post(f"/merchants/{ready}/verification/email")
        assert sent.status_code == 200, sent.json
        assert "@" in sent.json["sentTo"] and len(mail_sink.messages()) == count
    assert f"/verify/{ready}?token=" in link_in(mail_sink.messages()[-1])


def test_missing_steps_refuse_every_link_in_words(api: Api):
    merchant = api.post("/merchants", new_merchant_body()).json["id"]
    gate = api.get(f"/merchants/{merchant}/verification").json
    assert gate["open"] is False and gate["missing"]
    for path, body in (("gateway-link", CALLBACK), ("merchant-link", None), ("email", None)):
        answer = api.post(f"/merchants/{merchant}/verification/{path}", body)
        assert answer.status_code == 409, (path, answer.json)
        assert "missing" in answer.json["detail"].lower(), answer.json


def test_a_bad_callback_is_refused_at_its_field(api: Api, ready):
    answer = api.post(f"/merchants/{ready}/verification/gateway-link", {"callBackUrl": "nope"})
    assert answer.status_code == 422
    assert [e["field"] for e in answer.json["errors"]] == ["callBackUrl"]
