"""The merchant emails' subject and body: built-in defaults that admins may replace.

Placeholders use ``string.Template``'s ``$name`` syntax: the standard library's substitution,
which reads no attributes and runs no code, so an admin's text cannot reach the portal's data.
"""

from __future__ import annotations

from dataclasses import dataclass
from string import Template

from sqlalchemy import select

from portal.audit.service import Actor, record
from portal.core import clock
from portal.core.db import db
from portal.core.models import MailTemplate

#: What each placeholder stands for, as the editing page explains it.
PLACEHOLDERS = {
    "business_name": "The merchant's business name",
    "signatory_name": "The authorised signatory's name",
    "link": "The merchant's verification link (valid 24 hours)",
    "expires_at": "When the link stops working (UTC)",
}


@dataclass(frozen=True)
class EmailText:
    """One email's subject and body, placeholders not yet filled in."""

    key: str
    title: str
    subject: str
    body: str
    customised: bool = False


_BODY_END = ("The link opens your verification page and nothing else; it works until "
             "$expires_at.\n\nIf you did not expect this email, you can ignore it.\n")

DEFAULTS = {
    "merchant_link": EmailText(
        "merchant_link", "Verification link sent on request",
        "Complete the verification of $business_name",
        "Dear $signatory_name,\n\nTo finish onboarding $business_name, please accept the "
        "terms, share your documents through DigiLocker and complete a short video call:\n\n"
        "$link\n\n" + _BODY_END),
    "verification_reminder": EmailText(
        "verification_reminder", "Daily reminder while verification waits",
        "Reminder: $business_name still needs your verification",
        "Dear $signatory_name,\n\nThe onboarding of $business_name is waiting for your "
        "verification. It takes a few minutes:\n\n$link\n\n" + _BODY_END),
}


class TemplateRefused(ValueError):
    """A template an admin typed cannot be used, naming the field at fault."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


def current(key: str) -> EmailText:
    """The text in force for ``key``: the admin's version, else the default."""
    default = DEFAULTS[key]
    stored = db.session.get(MailTemplate, key)
    if stored is None:
        return default
    return EmailText(key, default.title, stored.subject, stored.body, customised=True)


def all_current() -> list[EmailText]:
    """Every merchant email's text in force."""
    stored = {t.key: t for t in db.session.scalars(select(MailTemplate))}
    return [EmailText(key, d.title, stored[key].subject, stored[key].body, True)
            if key in stored else d for key, d in DEFAULTS.items()]


def check(field: str, text: str) -> str:
    """``text`` if its placeholders are all known and well written, else TemplateRefused."""
    template = Template(text)
    if not template.is_valid():
        raise TemplateRefused(field, "A $ sign must start a placeholder such as $business_name; "
                                     "write $$ for a dollar sign.")
    unknown = sorted(set(template.get_identifiers()) - set(PLACEHOLDERS))
    if unknown:
        raise TemplateRefused(field, f"Unknown placeholder ${unknown[0]}. Use one of: "
                                     + ", ".join("$" + name for name in PLACEHOLDERS) + ".")
    return text


def save(key: str, subject: str, body: str, actor: Actor) -> None:
    """Store an admin's subject and body for ``key`` after checking them; audited (caller commits).

    The body must contain $link: a merchant email without its link is no use.
    """
    check("subject", subject)
    check("body", body)
    if "link" not in Template(body).get_identifiers():
        raise TemplateRefused("body", "The body must contain $link, or the merchant cannot "
                                      "open the verification page.")
    stored = db.session.get(MailTemplate, key) or MailTemplate(key=key)
    stored.subject, stored.body = subject, body
    stored.updated_at, stored.updated_by = clock.utcnow(), actor.label
    db.session.add(stored)
    record("mail_template.update", actor=actor, detail={"template": key})


def restore_default(key: str, actor: Actor) -> None:
    """Drop the admin's version of ``key`` so the default applies again (caller commits)."""
    stored = db.session.get(MailTemplate, key)
    if stored is not None:
        db.session.delete(stored)
    record("mail_template.restore", actor=actor, detail={"template": key})


def render(key: str, values: dict[str, str]) -> tuple[str, str]:
    """The subject and body for ``key`` with ``values`` filled in."""
    text = current(key)
    subject = Template(text.subject).safe_substitute(values).replace("\n", " ")
    return subject, Template(text.body).safe_substitute(values)

