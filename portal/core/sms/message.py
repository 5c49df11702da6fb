"""A text message, the interface every sender keeps, and the error it raises."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class TextMessage:
    """One text message: the number in international form (``+91...``) and its words."""

    to: str
    text: str


class SmsError(RuntimeError):
    """The message was not sent; ``reason`` says why, as a clause (never the provider's
    answer, which may echo the number or the credentials)."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(f"The text message could not be sent: {reason}.")


class SmsSender(Protocol):
    """Something that delivers a text message or raises SmsError."""

    def send(self, message: TextMessage) -> None:
        """Deliver ``message``."""
