"""The sender the settings choose (SMS_SENDER).

``sink`` (the default) writes each message as a file under SMS_SINK_FOLDER, as the mail sink
keeps emails; ``http`` posts it to the provider SMS_HTTP_URL names.
"""

from __future__ import annotations

from portal.core.config import Settings
from portal.core.sms.http_provider import HttpSender
from portal.core.sms.message import SmsSender
from portal.core.sms.sink import FolderSink


def sender_for(settings: Settings) -> SmsSender:
    """The sender SMS_SENDER names."""
    if settings.sms_sender == "http":
        return HttpSender(settings)
    return FolderSink(settings.sms_sink_folder)
