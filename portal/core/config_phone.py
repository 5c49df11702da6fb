"""The phone part of the portal's configuration: how long a hand-over to the merchant's phone
lasts, and how text messages are sent (``portal.core.config.Settings`` inherits it)."""

from __future__ import annotations

from pydantic_settings import BaseSettings, SettingsConfigDict

from portal.core.config_fields import Folder, Lowercase, PositiveCount, variable

#: The body the HTTP sender posts when SMS_HTTP_BODY is not set: JSON with the two values.
DEFAULT_SMS_BODY = '{"to": "$to", "text": "$text"}'


class PhoneSettings(BaseSettings):
    """The hand-over and text message variables (see ``portal.core.config.Settings``)."""

    model_config = SettingsConfigDict(frozen=True, validate_by_name=True, validate_default=True,
                                      extra="ignore", case_sensitive=True)

    handover_minutes: PositiveCount = variable(
        "HANDOVER_MINUTES", 10, "Minutes the QR code or text message that hands a merchant's "
        "verification over to their phone can be opened (once)")
    sms_sender: Lowercase = variable(
        "SMS_SENDER", "sink", "`sink`: text messages are written as files to SMS_SINK_FOLDER "
        "(nothing is sent); `http`: posted to the provider at SMS_HTTP_URL")
    sms_sink_folder: Folder = variable(
        "SMS_SINK_FOLDER", "instance/sms", "Where the `sink` sender writes each text message "
        "as a file")
    sms_http_url: str = variable(
        "SMS_HTTP_URL", "", "The `http` sender's provider address (https), which receives one "
        "POST per message")
    sms_http_username: str = variable(
        "SMS_HTTP_USERNAME", "", "User name sent to the provider with HTTP basic "
        "authentication; empty: none")
    sms_http_password: str = variable("SMS_HTTP_PASSWORD", "", "Password for the provider's "
                                      "basic authentication", secret=True)
    sms_http_token: str = variable(
        "SMS_HTTP_TOKEN", "", "A bearer token sent as `Authorization: Bearer ...` instead of "
        "basic authentication; empty: none", secret=True)
    sms_http_body: str = variable(
        "SMS_HTTP_BODY", DEFAULT_SMS_BODY, "The POST body, with `$to` (the number, "
        "`+91...`), `$text` (the message) and `$sender` (SMS_HTTP_SENDER_ID) filled in: "
        "escaped for JSON when SMS_HTTP_CONTENT_TYPE is JSON, form-encoded otherwise")
    sms_http_content_type: Lowercase = variable(
        "SMS_HTTP_CONTENT_TYPE", "application/json", "`application/json` or "
        "`application/x-www-form-urlencoded`")
    sms_http_sender_id: str = variable(
        "SMS_HTTP_SENDER_ID", "", "The sender id the provider registered for the partner "
        "(India's DLT header, such as `PRTNR`), put in for `$sender`")
    sms_timeout: float = variable("SMS_TIMEOUT", 10.0, "Seconds to wait for the provider")
