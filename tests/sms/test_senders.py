"""The text message senders: the folder sink by default, and the generic HTTP provider with
its body template, credentials and refusals, against a provider served on a loopback port."""

from __future__ import annotations

import json
from collections.abc import Iterator
from urllib.parse import parse_qs

import pytest

from portal.core.sms.http_provider import HttpSender, body_of
from portal.core.sms.message import SmsError, TextMessage
from portal.core.sms.sender import sender_for
from portal.core.sms.sink import FolderSink, read_folder
from tests.support.servers import serve

MESSAGE = TextMessage("+919876543210", 'Partner "A&B": continue at https://p.example/x?a=1&b=2')


class Provider:
    """A WSGI provider that keeps each request and answers ``status``."""

    def __init__(self) -> None:
        self.requests: list[dict[str, str]] = []
        self.status = "200 OK"

    def __call__(self, environ, start_response) -> list[bytes]:
        length = int(environ.get("CONTENT_LENGTH") or 0)
        self.requests.append({"body": environ["wsgi.input"].read(length).decode("utf-8"),
                              "type": environ.get("CONTENT_TYPE", ""),
                              "auth": environ.get("HTTP_AUTHORIZATION", "")})
        start_response(self.status, [("Content-Type", "text/plain")])
        return [b"queued"]


@pytest.fixture
def provider() -> Iterator[tuple[Provider, str]]:
    """A provider on a loopback port and its URL."""
    app = Provider()
    with serve(app) as url:
        yield app, f"{url}/send"


def test_the_default_sender_writes_files_nothing_leaves(settings, tmp_path):
    assert settings.sms_sender == "sink"
    sender_for(settings).send(MESSAGE)
    assert read_folder(settings.sms_sink_folder) == [MESSAGE]
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    with pytest.raises(SmsError, match="folder could not be written"):
        FolderSink(str(blocked / "sms")).send(MESSAGE)


@pytest.mark.parametrize(("content_type", "template", "expected"), [
    ("application/json", '{"to": "$to", "msg": "$text", "from": "$sender"}',
     {"to": "+919876543210", "msg": MESSAGE.text, "from": "PRTNR"}),
    ("application/x-www-form-urlencoded", "mobile=$to&message=$text&sender=$sender&x=$other",
     {"mobile": ["+919876543210"], "message": [MESSAGE.text], "sender": ["PRTNR"],
      "x": ["$other"]}),
])
def test_the_body_template_is_filled_in_escaped_for_its_type(content_type, template, expected):
    body = body_of(template, content_type, {"to": MESSAGE.to, "text": MESSAGE.text,
                                            "sender": "PRTNR"})
    parsed = json.loads(body) if content_type == "application/json" else parse_qs(body)
    assert parsed == expected


def test_the_http_sender_posts_the_template_with_basic_auth(settings, provider):
    app, url = provider
    sender = sender_for(settings.with_changes(
        sms_sender="http", sms_http_url=url, sms_http_username="partner",
        sms_http_password="s3cret", sms_http_sender_id="PRTNR"))
    assert isinstance(sender, HttpSender)
    sender.send(MESSAGE)
    [request] = app.requests
    assert json.loads(request["body"]) == {"to": MESSAGE.to, "text": MESSAGE.text}
    assert request["type"] == "application/json; charset=utf-8"
    assert request["auth"] == "Basic cGFydG5lcjpzM2NyZXQ="


def test_a_bearer_token_replaces_basic_auth(settings, provider):
    app, url = provider
    HttpSender(settings.with_changes(sms_sender="http", sms_http_url=url,
                                     sms_http_username="partner",
                                     sms_http_token="tok-123")).send(MESSAGE)
    assert app.requests[0]["auth"] == "Bearer tok-123"


def test_a_refusal_or_no_answer_is_an_sms_error_in_words(settings, provider, closed_port,
                                                         caplog):
    app, url = provider
    app.status = "500 Internal Server Error"
    with pytest.raises(SmsError, match=r"refused it \(HTTP 500\)"):
        HttpSender(settings.with_changes(sms_http_url=url)).send(MESSAGE)
    with pytest.raises(SmsError, match="could not be reached"):
        HttpSender(settings.with_changes(sms_http_url=closed_port)).send(MESSAGE)
    with pytest.raises(SmsError, match="no provider is configured"):
        HttpSender(settings.with_changes(sms_http_url="")).send(MESSAGE)
    assert MESSAGE.to not in caplog.text and "continue at" not in caplog.text
