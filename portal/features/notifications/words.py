"""What a notice says, in words: a headline, a sentence or two, and the page to open; for a
list of notices in a fixed number of statements (their merchants, the people who handed them
over, the notes left, the pendencies reported), however many there are."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import select

from portal.core.db import db
from portal.core.label_tables import Kind
from portal.core.labels import label
from portal.core.models.merchant import Merchant
from portal.core.models.merchant_stop import MerchantStop, StopKind
from portal.core.models.note import MerchantNote
from portal.core.models.notice import MailState, Notice, NoticeKind
from portal.core.models.payment import Payment
from portal.core.models.pendency import MerchantPendency
from portal.core.models.user import User
from portal.domain.onboarding.pendencies import in_words
from portal.domain.onboarding.product_approvals import APPROVAL_WORDS
from portal.domain.pausing.reasons import KIND_WORDS, reason_words
from portal.domain.payments.wording import money
from portal.gateway.onboarding.product_events import ApprovalProduct
from portal.gateway.onboarding.vocabulary import OnboardingStatus

#: Where each email state leaves the reader, in words.
MAIL_WORDS = {
    MailState.PENDING: "Not emailed yet",
    MailState.SENDING: "Being emailed",
    MailState.SENT: "Emailed",
    MailState.FAILED: "The email could not be sent",
    MailState.INTERRUPTED: "The email may not have gone (the sending was interrupted)",
    MailState.SKIPPED: "Not emailed",
}


@dataclass(frozen=True)
class NoticeWords:
    """One notice as the pages and emails say it."""

    notice: Notice
    merchant_name: str
    headline: str
    details: str
    #: The page it is about: an endpoint and its values (a page or an email builds the URL).
    endpoint: str
    values: dict[str, Any] = field(default_factory=dict)

    @property
    def created_at(self) -> datetime:
        """When it happened."""
        return self.notice.created_at

    @property
    def mail(self) -> str:
        """Where its email stands, in words."""
        return MAIL_WORDS.get(MailState(self.notice.mail_state), "")


@dataclass(frozen=True)
class _Facts:
    """What a list of notices refers to, read in one statement each."""

    merchants: dict[int, Merchant]
    people: dict[int, User]
    notes: dict[int, MerchantNote]
    pendencies: dict[int, MerchantPendency]
    payments: dict[int, Payment]
    stops: dict[int, MerchantStop] = field(default_factory=dict)


def _by_id(model: Any, column: Any, ids: Iterable[int | None]) -> dict[int, Any]:
    wanted = {i for i in ids if i is not None}
    if not wanted:
        return {}
    return {getattr(row, column.key): row
            for row in db.session.scalars(select(model).where(column.in_(wanted)))}


def words_for(notices: list[Notice]) -> list[NoticeWords]:
    """Each notice in words, in the order given (four statements at most)."""
    facts = _Facts(_by_id(Merchant, Merchant.id, (n.merchant_id for n in notices)),
                   _by_id(User, User.id, (n.by_user_id for n in notices)),
                   _by_id(MerchantNote, MerchantNote.id, (n.note_id for n in notices)),
                   _by_id(MerchantPendency, MerchantPendency.webhook_event_id,
                          (n.webhook_event_id for n in notices)),
                   _by_id(Payment, Payment.id, (n.payment_id for n in notices)),
                   _by_id(MerchantStop, MerchantStop.id, (n.stop_id for n in notices)))
    return [_words(notice, facts) for notice in notices]


def _words(notice: Notice, facts: _Facts) -> NoticeWords:
    merchant = facts.merchants.get(notice.merchant_id)
    name = merchant.name if merchant else "A merchant"
    status_page = ("status.page", {"merchant_id": notice.merchant_id})
    if notice.kind == NoticeKind.HANDOVER:
        by = facts.people.get(notice.by_user_id or 0)
        note = facts.notes.get(notice.note_id or 0)
        details = f"{by.email if by else 'An admin'} handed {name} to you: you own it now."
        if note is not None:
            details += f" Their note: \u201c{note.text}\u201d"
        return NoticeWords(notice, name, "handed to you", details, "merchants.detail",
                           {"merchant_id": notice.merchant_id, "_anchor": "owner"})
    if notice.kind == NoticeKind.LATE_HOLD:
        payment = facts.payments.get(notice.payment_id or 0)
        what = (f"A payment of {money(payment.amount, payment.currency)} (order reference "
                f"{payment.merchant_txn_id})" if payment else "A payment")
        return NoticeWords(notice, name, "a late authorisation",
                           f"{what} for {name} was declined for now, then authorised after "
                           "all: the amount is held. Capture it or release it.",
                           "payments.detail", {"payment_id": notice.payment_id or 0})
    if notice.kind == NoticeKind.STOP:
        return _stop(notice, name, facts.stops.get(notice.stop_id or 0))
    if notice.kind == NoticeKind.PRODUCT:
        product = next((words for approval, words in APPROVAL_WORDS.items()
                        if approval == notice.status), "a product")
        return NoticeWords(notice, name, "a product accepted",
                           f"The gateway accepted {name} for {product}. Its health on its "
                           "summary says what it can take now.", "merchants.detail",
                           {"merchant_id": notice.merchant_id, "_anchor": "health-heading"})
    if notice.kind == NoticeKind.LINK_RENEWED:
        return NoticeWords(notice, name, "asked for a new link",
                           f"{name}'s verification link had expired or was withdrawn. The "
                           "merchant asked for a new one from its page, and it was emailed to "
                           "the authorised signatory.", "verification.page",
                           {"merchant_id": notice.merchant_id})
    if notice.kind == NoticeKind.MERCHANT_UPLOAD:
        return NoticeWords(notice, name, "a document from the merchant",
                           f"{name} uploaded a document asked of them on their link. Review it "
                           "on the merchant's page, then send it to the gateway or refuse it "
                           "with a reason they read.", "merchants.detail",
                           {"merchant_id": notice.merchant_id, "_anchor": "asks-heading"})
    if notice.kind in (NoticeKind.PAYMENTS_ASKED, NoticeKind.PAYMENTS_SET_UP):
        return _payments_setup(notice, name, facts.people.get(notice.by_user_id or 0))
    if notice.kind == NoticeKind.CHANGE_ANSWERED:
        return NoticeWords(notice, name, "a change answered", _CHANGE_ANSWERS.get(
            notice.status or "", _CHANGE_ANSWERS["refused"]).format(name=name),
            "merchants.detail", {"merchant_id": notice.merchant_id,
                                 "_anchor": "changes-heading"})
    if notice.kind in _PENDENCY_HEADLINES:
        row = facts.pendencies.get(notice.webhook_event_id or 0)
        return NoticeWords(notice, name, _PENDENCY_HEADLINES[NoticeKind(notice.kind)],
                           _pendency(name, row, notice), *status_page)
    return NoticeWords(notice, name, label(notice.status).lower(),
                       _status(name, notice.status, merchant), *status_page)


#: What the gateway's support answered to a change request, by answer.
_CHANGE_ANSWERS = {
    "reset": ("The gateway's support reset {name}'s record for the change you asked: send the "
              "step again with the new values."),
    "refused": "The gateway's support refused the change asked for {name}; its page says why.",
}


def _stop(notice: Notice, name: str, stop: MerchantStop | None) -> NoticeWords:
    """A pause or a deactivation: who, why, and that an admin lifts it."""
    place = ("pausing.page", {"merchant_id": notice.merchant_id})
    if stop is None:
        return NoticeWords(notice, name, "paused", f"{name} was paused or deactivated; its "
                           "Pause or deactivate page says why.", *place)
    done = KIND_WORDS[StopKind(stop.kind)]
    note = f" Their note: \u201c{stop.note}\u201d" if stop.note else ""
    return NoticeWords(notice, name, done,
                       f"{stop.by_name} {done} {name}: {reason_words(stop.kind, stop.reason)}. "
                       f"New holds and payment links are refused until an admin lifts it.{note}",
                       *place)


def _payments_setup(notice: Notice, name: str, by: User | None) -> NoticeWords:
    """An ops user's request to set up payments, and its being done."""
    place = ("payments.credentials", {"merchant_id": notice.merchant_id})
    if notice.kind == NoticeKind.PAYMENTS_SET_UP:
        return NoticeWords(notice, name, "payments set up",
                           f"Payments are set up for {name}: "
                           f"{by.email if by else 'an admin'} saved its payment credentials, "
                           "so it can take holds now.", *place)
    return NoticeWords(notice, name, "payments to set up",
                       f"{by.email if by else 'A colleague'} asks an admin to set up payments "
                       f"for {name}: save its payment credentials.", *place)


#: The headline of each notice of a pendency: during onboarding, and once live.
_PENDENCY_HEADLINES = {NoticeKind.PENDENCY: "a pendency reported",
                       NoticeKind.LIVE_PENDENCY: "a new pendency after go-live",
                       NoticeKind.BLOCKED: "a product blocked",
                       NoticeKind.UNBLOCKED: "a product unblocked"}


def _pendency(name: str, row: MerchantPendency | None, notice: Notice) -> str:
    """A pendency notice's sentences: what the gateway reported, and for a live merchant
    what it changes."""
    if row is None:
        return f"The gateway reported a pendency on {name}; its status page says what it is."
    pendency = in_words(row)
    text = f"The gateway reported a pendency on {name}: {pendency.what} ({pendency.state})."
    if pendency.reason:
        text += f" The gateway's words: \u201c{pendency.reason}\u201d"
    products = " and ".join(APPROVAL_WORDS[ApprovalProduct(word)]
                            for word in (notice.status or "").split()
                            if word in set(ApprovalProduct)) or "a product"
    if notice.kind == NoticeKind.BLOCKED:
        return (f"{text} It blocks {name}'s approval for {products}: those payments are "
                "refused until the merchant answers it and the gateway resolves it.")
    if notice.kind == NoticeKind.UNBLOCKED:
        return (f"{text} {name}'s approval for {products} is no longer held up: its health on "
                "its summary says what it can take now.")
    if notice.kind == NoticeKind.LIVE_PENDENCY:
        return (f"{text} {name} is live and this blocks none of its products, but the gateway "
                "waits for the merchant's answer.")
    return f"{text} {pendency.holds_up}".rstrip()


def _status(name: str, status: str | None, merchant: Merchant | None) -> str:
    if status == OnboardingStatus.RFI:
        asked = [label(key, Kind.DOCUMENT) for key in
                 (merchant.documents_outstanding if merchant else [])]
        if asked:
            return (f"The gateway asks for more information about {name}: "
                    f"{', '.join(asked)}. Upload {'it' if len(asked) == 1 else 'them'} on its "
                    "documents step.")
        return (f"The gateway asks for more information about {name}; its status page says "
                "what it asks for.")
    if status == OnboardingStatus.REJECTED:
        return (f"The gateway rejected {name}. Tell the merchant: its status page gives the "
                "reason the gateway reported.")
    return (f"The gateway approved {name}: it can take payments once an admin has set up its "
            "payment credentials.")
