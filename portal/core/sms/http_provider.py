"""The real sender: one POST per message to a generic HTTP provider (SMS_HTTP_URL).

India's SMS gateways each take a POST with the number, the words and a registered sender id,
in JSON or as a form; SMS_HTTP_BODY is that body with ``$to``, ``$text`` and ``$sender`` in
it, so any of them fits without code. Credentials: basic authentication or a bearer token.
A message is sent at most once (never retried): a repeated POST would be a second SMS.
"""

from __future__ import annotations

import json
import logging
from string import Template
from urllib.parse import quote_plus

import requests

from portal.core.config import Settings
from portal.core.sms.message import SmsError, TextMessage

log = logging.getLogger("portal.sms")
JSON = "application/json"


def body_of(template: str, content_type: str, values: dict[str, str]) -> str:
    """``template`` with each ``$name`` filled in, escaped for ``content_type`` (a JSON
    string's inside, or form-encoded); an unknown ``$name`` is left as written."""
    if content_type == JSON:
        escaped = {k: json.dumps(v, ensure_ascii=False)[1:-1] for k, v in values.items()}
    else:
        escaped = {k: quote_plus(v) for k, v in values.items()}
    return Template(template).safe_substitute(escaped)


class HttpSender:
    """Post messages to the provider the settings name."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    def send(self, message: TextMessage) -> None:
        """POST ``message``; SmsError when the provider is not set, cannot be reached or
        answers other than 2xx (the number and the words are never logged)."""
        settings = self.settings
        if not settings.sms_http_url:
            raise SmsError("no provider is configured (SMS_HTTP_URL)")
        headers = {"Content-Type": f"{settings.sms_http_content_type}; charset=utf-8"}
        if settings.sms_http_token:
            headers["Authorization"] = f"Bearer {settings.sms_http_token}"
        auth = ((settings.sms_http_username, settings.sms_http_password)
                if settings.sms_http_username and not settings.sms_http_token else None)
        body = body_of(settings.sms_http_body, settings.sms_http_content_type,
                       {"to": message.to, "text": message.text,
                        "sender": settings.sms_http_sender_id})
        try:
            answer = requests.post(settings.sms_http_url, data=body.encode("utf-8"),
                                   headers=headers, auth=auth, timeout=settings.sms_timeout)
        except requests.RequestException as exc:
            log.warning("sms: the provider could not be reached: %s", type(exc).__name__)
            raise SmsError("the text message provider could not be reached") from exc
        if not answer.ok:
            log.warning("sms: the provider answered HTTP %s", answer.status_code)
            raise SmsError(f"the text message provider refused it (HTTP {answer.status_code})")
        log.info("sms: sent")
