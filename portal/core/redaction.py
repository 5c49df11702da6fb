"""Masking of PANs, account and card numbers, keys and tokens before they are logged or stored,
and of email addresses before they are logged."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from portal.gateway.rules import mask

#: A PAN in capitals anywhere, or in any case standing alone or after a %-escape
#: (``/merchants?q=abcde1234f``, ``next=%2Fmerchants%3Fq%3Dabcde1234f``).
PAN_LIKE = re.compile(r"[A-Z]{5}[0-9]{4}[A-Z]"
                      r"|(?i:(?:(?<![a-z0-9])|(?<=%[0-9a-f]{2}))[a-z]{5}[0-9]{4}[a-z](?![a-z0-9]))")
#: The gateway's ids, kept whole (ops quote them to the gateway's support): a payment's gid
#: (``gl-``, ``gl_`` or ``gl_o-`` then hex; about one in twenty holds a run of 9 digits or more)
#: and an onboarding id (``pg_onboard_`` then hex). No mask below cuts into one.
GATEWAY_ID = re.compile(r"(?<![0-9A-Za-z])(?:gl(?:_o-|[-_])|pg_onboard_)[0-9a-fA-F]+"
                        r"(?![0-9A-Za-z])")
#: A run of 9 digits or more: an account or card number.
LONG_DIGITS = re.compile(r"[0-9]{9,}")
#: ``name=value``, ``name: value``, ``"name": "value"``, or URL-encoded ``name%3Dvalue`` (a link
#: inside another link's query, as in ``/login?next=...``; ``%253D`` a level deeper).
SECRET_ASSIGNMENT = re.compile(
    r"(?i)(x-gl-digest|x-gl-auth|authorization|api[_-]?secret|api[_-]?key|token|password)"
    r"""(["']?\s*[:=]\s*["']?|%(?:25)*3D)(?:bearer\s+)?([^\s"',;&}]+)""")
#: An email address with its ``@`` as typed or %-escaped at any depth: ``q=victim%40example.com``
#: in a search's URL, ``next=%2Fpayments%3Fq%3Dvictim%2540example.com`` once a sign-in redirect
#: has escaped it again. Its first letter follows a boundary or a %-escape (``%3D``, the ``=``);
#: the escapes of ``+ - . _`` belong to it.
EMAIL_LIKE = re.compile(r"(?:(?<![A-Za-z0-9._+%-])|(?<=%[0-9A-Fa-f]{2}))"
                        r"(?P<local>(?:[A-Za-z0-9._+-]|%(?:25)*(?:2[BbDdEe]|5[Ff]))+)"
                        r"(?:@|%(?:25)*40)(?P<domain>[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*)")
#: Key names (lower-case, without '_' and '-') whose values are always masked, at any depth.
SECRET_KEY_ENDINGS = ("pan", "accountnumber", "secret", "token", "password", "apikey",
                      "privatekey", "documentcontent", "cardnumber", "cvv")
#: Of those, the ones where even the last characters must not be kept.
HIDDEN_KEY_ENDINGS = ("secret", "token", "password", "apikey", "privatekey", "documentcontent",
                      "cvv")


def redact_text(text: str) -> str:
    """``text`` with PAN-like values, long digit runs and key/token values masked."""
    text = SECRET_ASSIGNMENT.sub(lambda m: m.group(1) + m.group(2) + "[REDACTED]", text)
    pieces, start = [], 0
    for found in GATEWAY_ID.finditer(text):
        pieces += [_mask_numbers(text[start:found.start()]), found.group()]
        start = found.end()
    return "".join([*pieces, _mask_numbers(text[start:])])


def redact_log_text(text: str) -> str:
    """``text`` as a log line may hold it: every email address masked as the audit masks a
    customer's (:func:`masked_email`), then :func:`redact_text`. Only logs mask addresses: the
    audit keeps staff addresses whole."""
    masked = EMAIL_LIKE.sub(lambda m: masked_email(f"{m.group('local')}@{m.group('domain')}"),
                            text)
    return redact_text(masked)


def _mask_numbers(text: str) -> str:
    """``text`` (holding no gateway id) with PAN-like values and long digit runs masked."""
    return LONG_DIGITS.sub(lambda m: mask(m.group()), mask_pans(text))


def mask_pans(text: str) -> str:
    """``text`` with every PAN masked as pages show one, in a document key too
    (``ABCPR1234K_ASHA_RAO_AADHAR`` becomes ``******234K_ASHA_RAO_AADHAR``); other numbers stay."""
    return PAN_LIKE.sub(lambda m: mask(m.group()), text)


def is_secret_key(key: str) -> bool:
    """True for keys like pan, authSignatoryPan, bankAccountNumber, apiSecret, token."""
    return _normalised(key).endswith(SECRET_KEY_ENDINGS)


def _normalised(key: str) -> str:
    return key.lower().replace("_", "").replace("-", "")


def mask_value(value: Any, text_mask: Callable[[str], str] = redact_text) -> Any:
    """Redact a value under an ordinary key: scan strings and numbers with ``text_mask``,
    recurse into containers."""
    if isinstance(value, Mapping):
        return mask_mapping(value, text_mask)
    if isinstance(value, list | tuple):
        return [mask_value(item, text_mask) for item in value]
    if isinstance(value, str):
        return text_mask(value)
    if isinstance(value, int) and not isinstance(value, bool):
        text = str(value)
        return value if text_mask(text) == text else text_mask(text)
    return value


def mask_mapping(data: Mapping[str, Any],
                 text_mask: Callable[[str], str] = redact_text) -> dict[str, Any]:
    """A copy of ``data`` safe to store: identifiers keep their last 4 characters, secrets none.
    ``text_mask`` scans the other values: :func:`redact_text` for what is stored or logged
    (every long number masked), :func:`mask_pans` for an export (it holds what pages show:
    a phone number whole, a PAN masked wherever it is)."""
    return {str(key): _mask_entry(str(key), value, text_mask) for key, value in data.items()}


def _mask_entry(key: str, value: Any, text_mask: Callable[[str], str]) -> Any:
    if value is None or not is_secret_key(key):
        return mask_value(value, text_mask)
    if isinstance(value, Mapping | list | tuple) or _normalised(key).endswith(HIDDEN_KEY_ENDINGS):
        return "[REDACTED]"
    return mask(str(value))


def masked_email(address: str) -> str:
    """An address as the audit and the pages show it: first letter and domain only."""
    local, _, domain = address.partition("@")
    return f"{local[:1]}***@{domain}"


def last_digits(number: str) -> str:
    """A phone number's last four digits, or '' for a number with fewer."""
    digits = "".join(ch for ch in number if ch.isdigit())
    return digits[-4:] if len(digits) >= 4 else ""


def masked_phone(number: str) -> str:
    """A phone number as the audit and the staff's pages show it: its last four digits only."""
    digits = last_digits(number)
    return f"ending {digits}" if digits else "on file"
