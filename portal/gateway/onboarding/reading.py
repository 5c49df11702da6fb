"""The onboarding API's answers, read in every shape a source shows (docs/gateway-contract.md,
"Reading answers").

The clients SEND the contract's one shape and READ every shape a source shows; an answer is
judged by what it says, never by its HTTP code alone. Every 2xx answer of the onboarding API
passes through this module on its way to the portal's one typed answer (the payments API's
through :mod:`portal.gateway.payments.reading`).

A record operation (the create, steps 2-7) answers the contract's ``data{merchantInfo,
merchantOnboardingCheckListStatus}``, or in the docs' dialect a short ``data`` of its own: bank
details ``{onboardingId, bankVerificationStatus}`` (the penny drop's outcome), a document
``{onboardingId, merchantDocType, documentStatus}``. Either is read into one
:class:`RecordAnswer`. Checklist values are read onto the portal's states
(:func:`checklist_state`: SUCCESS and ``true`` are COMPLETE, ``false`` PENDING); a penny-drop
word no source shows is left unread instead of failing the whole answer.

A 2xx answer that cannot be read raises :class:`UnexpectedAnswer` (counted ``unknown`` by the
transport): the gateway took the request, so a step counts as sent (its status is read
instead) and a create's outcome is unknown (no onboardingId, no record). The status read and
the other operations (categories, the verification link, webhooks) need their whole shape.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import ValidationError

from portal.gateway.errors import UnexpectedAnswer
from portal.gateway.onboarding.answers import (
    BankVerificationData,
    DocumentStatusData,
    MerchantData,
)
from portal.gateway.onboarding.checklist_words import checklist_state
from portal.gateway.onboarding.vocabulary import PennyDropStatus
from portal.gateway.shapes import ResponseModel
from portal.gateway.transport import Reply

Shape = TypeVar("Shape", bound=ResponseModel)

#: The record's parts in ``data``, and the checklist's list of outstanding documents (every
#: other checklist key is an item's state).
INFO = "merchantInfo"
CHECKLIST = "merchantOnboardingCheckListStatus"
OUTSTANDING = "documentsToBeUploaded"
#: What the review asks for (reference/faq): beside the record, or inside merchantInfo.
RFI_DETAILS = "rfiDetails"
#: merchantInfo's lists, which a gateway may send as null.
_LISTS = ("directorDetails", "beneficialOwnerDetails")


@dataclass(frozen=True)
class RecordAnswer:
    """A record operation's 2xx answer, whatever its shape: the record with its checklist when
    the answer carried them (the contract's shape), else what the short answer said."""

    gid: str
    onboarding_id: str
    #: The merchant's record and checklist; None when the answer was a short one.
    record: MerchantData | None = None
    #: The penny drop's outcome (``settlementDetails.pennyDropStatus`` or
    #: ``bankVerificationStatus``), when the answer said one the portal knows.
    penny_drop: PennyDropStatus | None = None
    name_at_bank: str | None = None
    #: A document upload's own status in the gateway's word (``documentStatus``), if given.
    document_status: str | None = None

    @property
    def answer_gid(self) -> str:
        """The gid of the answer ('' when it carried none)."""
        return self.gid


def penny_drop(word: Any) -> PennyDropStatus | None:
    """A penny-drop outcome the portal knows (VERIFIED, FAILED), else None."""
    key = str(word or "").strip().upper()
    return PennyDropStatus(key) if key in PennyDropStatus.__members__ else None


def _data(body: Any) -> dict[str, Any] | None:
    data = body.get("data") if isinstance(body, dict) else None
    return data if isinstance(data, dict) else None


def _gid(body: Any) -> str:
    gid = body.get("gid") if isinstance(body, dict) else None
    return str(gid) if isinstance(gid, str | int) else ""


def _checklist(raw: Any) -> dict[str, Any]:
    """The checklist with its values as the portal keeps them."""
    if not isinstance(raw, dict):
        return {}
    items = {key: checklist_state(value) for key, value in raw.items() if key != OUTSTANDING}
    outstanding = raw.get(OUTSTANDING)
    if isinstance(outstanding, list):
        items[OUTSTANDING] = [str(key) for key in outstanding if key is not None]
    return items


def _merchant_info(raw: dict[str, Any]) -> dict[str, Any]:
    """merchantInfo with null lists dropped and an unknown penny-drop word unread."""
    info = {key: value for key, value in raw.items()
            if not (key in _LISTS and value is None)}
    settlement = info.get("settlementDetails")
    if isinstance(settlement, dict) and settlement.get("pennyDropStatus") is not None:
        info["settlementDetails"] = {**settlement,
                                     "pennyDropStatus": penny_drop(settlement["pennyDropStatus"])}
    return info


def merchant_data(data: dict[str, Any], gid: str = "") -> MerchantData:
    """The contract's record from ``data`` (of the answer ``gid``), its variants read (the
    ``rfiDetails`` beside the record or in merchantInfo); ValueError when it is not one."""
    info = data.get(INFO)
    if not isinstance(info, dict):
        raise ValueError(f"no {INFO}")
    try:
        return MerchantData.from_answer(
            {**data, INFO: _merchant_info(info), CHECKLIST: _checklist(data.get(CHECKLIST)),
             RFI_DETAILS: data.get(RFI_DETAILS, info.get(RFI_DETAILS))}, gid)
    except ValidationError:
        raise ValueError("the record does not read") from None


def read_record(body: Any) -> RecordAnswer:
    """A record operation's answer in either dialect; ValueError when it names no record."""
    data = _data(body)
    if data is None:
        raise ValueError("no data")
    gid = _gid(body)
    if isinstance(data.get(INFO), dict):
        record = merchant_data(data, gid)
        settlement = record.merchantInfo.settlementDetails
        return RecordAnswer(gid, record.merchantInfo.onboardingId, record,
                            settlement.pennyDropStatus if settlement else None,
                            settlement.nameAtBank if settlement else None)
    try:
        bank = BankVerificationData.model_validate(data)
        document = DocumentStatusData.model_validate(data)
    except ValidationError as exc:
        raise ValueError(f"no {INFO} and no onboardingId") from exc
    return RecordAnswer(gid, bank.onboardingId,
                        penny_drop=penny_drop(bank.bankVerificationStatus),
                        document_status=document.documentStatus)


def _unreadable(operation: str, reply: Reply, why: str) -> UnexpectedAnswer:
    return UnexpectedAnswer(f"{operation}: the gateway's answer could not be read ({why})",
                            http_status=reply.status, gid=_gid(reply.body), body=reply.body)


def record_reader(operation: str) -> Callable[[Reply], RecordAnswer]:
    """How to read a record operation's 2xx reply (steps 2-7): :class:`RecordAnswer`, or
    :class:`UnexpectedAnswer` when it cannot be read."""

    def read(reply: Reply) -> RecordAnswer:
        try:
            return read_record(reply.body)
        except ValueError as exc:
            raise _unreadable(operation, reply, str(exc)) from None

    return read


def create_reader(operation: str) -> Callable[[Reply], RecordAnswer]:
    """How to read the create's 2xx reply: it must name the new record's onboardingId, else
    the create's outcome is unknown (:class:`UnexpectedAnswer`)."""
    read_any = record_reader(operation)

    def read(reply: Reply) -> RecordAnswer:
        answer = read_any(reply)
        if not answer.onboarding_id.strip():
            raise _unreadable(operation, reply, "no onboardingId")
        return answer

    return read


def status_reader(operation: str) -> Callable[[Reply], MerchantData]:
    """How to read the status answer: the whole record with its checklist, its variants read;
    :class:`UnexpectedAnswer` when it is not one (nothing changes then)."""

    def read(reply: Reply) -> MerchantData:
        try:
            return merchant_data(_data(reply.body) or {}, _gid(reply.body))
        except ValueError as exc:
            raise _unreadable(operation, reply, str(exc)) from None

    return read


def shape_reader(operation: str, shape: type[Shape]) -> Callable[[Reply], Shape]:
    """How to read another operation's 2xx reply: its ``data`` as ``shape`` with the answer's
    gid; :class:`UnexpectedAnswer` when it does not read."""

    def read(reply: Reply) -> Shape:
        try:
            return shape.from_answer(_data(reply.body) or {}, _gid(reply.body))
        except ValidationError:
            raise _unreadable(operation, reply, f"not a {shape.__name__}") from None

    return read
