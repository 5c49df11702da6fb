"""The portal's emails' subject and body: built-in defaults that admins may replace. Most go to
a merchant's signatory, in the merchant's language, and an admin writes their own version per
language; the notices (``portal.features.notifications``) go to the team, in English only.

Placeholders use ``string.Template``'s ``$name`` syntax: the standard library's substitution,
which reads no attributes and runs no code, so an admin's text cannot reach the portal's data.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from string import Template

from flask_babel import force_locale
from flask_babel import lazy_gettext as _l
from sqlalchemy import select

from portal.core import clock
from portal.core.db import db
from portal.core.languages import BY_CODE, DEFAULT, LANGUAGES, Language
from portal.core.models import MailTemplate
from portal.domain.audit.service import Actor, record

#: What each placeholder of a merchant email stands for, as the editing page explains it.
PLACEHOLDERS = {
    "business_name": "The merchant's business name",
    "signatory_name": "The authorised signatory's name",
    "link": "The merchant's verification link (valid 24 hours)",
    "expires_at": "When the link stops working (UTC)",
    "partner_name": "Your name as merchants read it (the branding page's)",
}
#: Who an email goes to.
MERCHANTS, TEAM = "merchants", "team"
#: Why a body without the placeholder it cannot do without is refused: by the placeholder,
#: and who reads the email.
WITHOUT_REQUIRED = {
    ("link", MERCHANTS): "The body must contain $link, or the merchant cannot open the "
                         "verification page.",
    ("link", TEAM): "The body must contain $link, or the reader cannot open the page it is about.",
    ("needs", MERCHANTS): "The body must contain $needs, or the merchant does not learn what to "
                          "gather.",
    ("reason", MERCHANTS): "The body must contain $reason, or the merchant does not learn why.",
}


@dataclass(frozen=True)
class EmailText:
    """One email's subject and body in one language, placeholders not yet filled in."""

    key: str
    title: str
    subject: str
    body: str
    customised: bool = False
    audience: str = MERCHANTS
    #: The placeholders it may use, and what each stands for.
    placeholders: Mapping[str, str] = field(default_factory=lambda: PLACEHOLDERS)
    #: The placeholder its body cannot do without.
    required: str = "link"
    #: The language it is written in.
    language: str = DEFAULT
    #: Who saved the admin's version, and when (a built-in text: nobody).
    updated_by: str = ""
    updated_at: datetime | None = None


#: The rejection's placeholders: no link, the gateway's reason instead.
REJECTION_PLACEHOLDERS = {
    "business_name": "The merchant's business name",
    "signatory_name": "The authorised signatory's name",
    "reason": "The gateway's reason, in a sentence (or that it gave none)",
    "partner_name": "Your name as merchants read it (the branding page's)",
}
#: The notices' placeholders (``portal.features.notifications``), and the digest's.
NOTICE_PLACEHOLDERS = {
    "business_name": "The merchant's name in the portal",
    "headline": "What happened, in a few words (\u201capproved\u201d)",
    "details": "What happened, in a sentence or two, and what to do",
    "link": "The merchant's page in the portal",
}
#: The placeholders of "what you'll need" (``portal.domain.requirements.mail``).
NEEDS_PLACEHOLDERS = {
    "business_name": "The merchant's business name, if known",
    "signatory_name": "The name of the person the email is addressed to",
    "needs": "The documents and facts the merchant will need, one per line",
    "partner_name": PLACEHOLDERS["partner_name"],
}
DIGEST_PLACEHOLDERS = {
    "count": "How many notices the digest holds, in words (\u201c2 notices\u201d)",
    "notices": "Each notice on its own lines, with its merchant's page",
    "link": "The reader's notices in the portal",
}
_TEAM_END = ("You can choose to be emailed each notice at once or a daily digest on your "
             "account page in the portal.\n")
TEAM_TEXTS = {
    "owner_notice": EmailText(
        "owner_notice", "A notice about a merchant the reader owns",
        "$business_name: $headline",
        "Hello,\n\n$details\n\nOpen $business_name in the portal:\n\n$link\n\n" + _TEAM_END,
        audience=TEAM, placeholders=NOTICE_PLACEHOLDERS),
    "owner_digest": EmailText(
        "owner_digest", "The daily digest of notices",
        "$count about the merchants you own",
        "Hello,\n\nWhat happened to the merchants you own since your last digest:\n\n"
        "$notices\n\nRead them in the portal:\n\n$link\n\n" + _TEAM_END,
        audience=TEAM, placeholders=DIGEST_PLACEHOLDERS),
}

#: The built-in texts: a merchant email's in each language (gettext's, read in the language
#: asked for), which an admin's version in that language replaces; a team email's in English.
DEFAULTS = {
    "merchant_link": EmailText(
        "merchant_link", "Verification link sent on request",
        _l("Complete the verification of $business_name"),
        _l("Dear $signatory_name,\n\nTo finish onboarding $business_name with $partner_name, "
           "please accept the terms, share your documents through DigiLocker and complete a "
           "short video call:\n\n$link\n\nThe link opens your verification page and nothing "
           "else; it works until $expires_at.\n\nIf you did not expect this email, you can "
           "ignore it.\n\n$partner_name\n")),
    "verification_reminder": EmailText(
        "verification_reminder", "Daily reminder while verification waits",
        _l("Reminder: $business_name still needs your verification"),
        _l("Dear $signatory_name,\n\nThe onboarding of $business_name with $partner_name is "
           "waiting for your verification. It takes a few minutes:\n\n$link\n\nThe link "
           "opens your verification page and nothing else; it works until $expires_at.\n\n"
           "If you did not expect this email, you can ignore it.\n\n$partner_name\n")),
    "merchant_rejected": EmailText(
        "merchant_rejected", "The gateway rejected the merchant (sent from its status page)",
        _l("The onboarding of $business_name was not approved"),
        _l("Dear $signatory_name,\n\nWe are sorry to tell you that the payment gateway did "
           "not approve the onboarding of $business_name with $partner_name.\n\n$reason\n\n"
           "Nothing more is needed from you for this application. To ask about it, or to apply "
           "again once the cause is fixed, reply to this email.\n\n$partner_name\n"),
        placeholders=REJECTION_PLACEHOLDERS, required="reason"),
    "merchant_needs": EmailText(
        "merchant_needs", "What the merchant will need, sent before onboarding",
        _l("What $business_name will need to onboard with $partner_name"),
        _l("Dear $signatory_name,\n\nTo onboard $business_name with $partner_name, please "
           "have these ready:\n\n$needs\n\nYou do not need to send anything yet: "
           "$partner_name will tell you how and when. The list follows the payment gateway's "
           "requirements; its review may still ask for more.\n\n$partner_name\n"),
        placeholders=NEEDS_PLACEHOLDERS, required="needs"),
    **TEAM_TEXTS,
}


class TemplateRefused(ValueError):
    """A template an admin typed cannot be used, naming the field at fault."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


def languages_of(key: str) -> tuple[Language, ...]:
    """The languages ``key`` is written in: each of the table's for a merchant email, English
    alone for a team one."""
    return LANGUAGES if DEFAULTS[key].audience == MERCHANTS else (BY_CODE[DEFAULT],)


def _language(key: str, language: str) -> str:
    """``language`` when ``key`` is written in it, else ValueError (a caller's mistake)."""
    if language not in {known.code for known in languages_of(key)}:
        raise ValueError(f"the email {key} is not written in {language!r}")
    return language


def built_in(key: str, language: str) -> EmailText:
    """The built-in text of ``key`` in ``language`` (gettext's catalogue)."""
    default = DEFAULTS[key]
    with force_locale(_language(key, language)):
        return replace(default, subject=str(default.subject), body=str(default.body),
                       language=language)


def _stored(default: EmailText, stored: MailTemplate) -> EmailText:
    """``default`` as the admin wrote it in ``stored``'s language."""
    return replace(default, subject=stored.subject, body=stored.body, language=stored.language,
                   customised=True, updated_by=stored.updated_by, updated_at=stored.updated_at)


def current(key: str, language: str) -> EmailText:
    """The text in force for ``key`` in ``language``: the admin's version in that language,
    else the built-in text in that language."""
    stored = db.session.get(MailTemplate, {"key": key, "language": _language(key, language)})
    return built_in(key, language) if stored is None else _stored(DEFAULTS[key], stored)


def _versions(key: str, stored: Mapping[tuple[str, str], MailTemplate]) -> tuple[EmailText, ...]:
    """``key``'s text in force in each language it is written in, of the ``stored`` rows."""
    return tuple(_stored(DEFAULTS[key], stored[key, language.code])
                 if (key, language.code) in stored else built_in(key, language.code)
                 for language in languages_of(key))


def versions(key: str) -> tuple[EmailText, ...]:
    """``key``'s text in force in each language it is written in (English first)."""
    rows = db.session.scalars(select(MailTemplate).where(MailTemplate.key == key))
    return _versions(key, {(row.key, row.language): row for row in rows})


def all_current() -> list[tuple[EmailText, ...]]:
    """Every email's texts in force, one per language it is written in (English first)."""
    rows = db.session.scalars(select(MailTemplate))
    stored = {(row.key, row.language): row for row in rows}
    return [_versions(key, stored) for key in DEFAULTS]


def check(field: str, text: str, placeholders: Mapping[str, str] = PLACEHOLDERS) -> str:
    """``text`` if its placeholders are all among ``placeholders`` and well written, else
    TemplateRefused."""
    template = Template(text)
    if not template.is_valid():
        raise TemplateRefused(field, "A $ sign must start a placeholder such as $business_name; "
                                     "write $$ for a dollar sign.")
    unknown = sorted(set(template.get_identifiers()) - set(placeholders))
    if unknown:
        raise TemplateRefused(field, f"Unknown placeholder ${unknown[0]}. Use one of: "
                                     + ", ".join("$" + name for name in placeholders) + ".")
    return text


def save(key: str, language: str, subject: str, body: str, actor: Actor) -> None:
    """Store an admin's subject and body for ``key`` in ``language`` after checking them;
    audited (caller commits). The other languages keep their own text.

    The body must contain the placeholder the email cannot do without (mostly $link: an email
    without its link is no use).
    """
    default, primary = DEFAULTS[key], {"key": key, "language": _language(key, language)}
    check("subject", subject, default.placeholders)
    check("body", body, default.placeholders)
    if default.required not in Template(body).get_identifiers():
        raise TemplateRefused("body", WITHOUT_REQUIRED[default.required, default.audience])
    stored = db.session.get(MailTemplate, primary) or MailTemplate(**primary)
    stored.subject, stored.body = subject, body
    stored.updated_at, stored.updated_by = clock.utcnow(), actor.label
    db.session.add(stored)
    record("mail_template.update", actor=actor, detail={"template": key, "language": language})


def restore_default(key: str, language: str, actor: Actor) -> None:
    """Drop the admin's version of ``key`` in ``language`` so its built-in text applies again
    (caller commits); the other languages keep theirs."""
    stored = db.session.get(MailTemplate, {"key": key, "language": _language(key, language)})
    if stored is not None:
        db.session.delete(stored)
    record("mail_template.restore", actor=actor, detail={"template": key, "language": language})


def render(key: str, values: dict[str, str], language: str) -> tuple[str, str]:
    """The subject and body for ``key`` in ``language`` with ``values`` filled in (the mail
    composer puts the subject on one line, whatever the values hold)."""
    text = current(key, language)
    return (Template(text.subject).safe_substitute(values),
            Template(text.body).safe_substitute(values))
