"""The checks a step passes before it is sent, one row per rule: what the gateway's review
would otherwise raise as a request for information, weeks later.

Each rule names its step, whether it is advisory (ops may send anyway, audited: the portal's
list or reading may be what is wrong) and its check, which returns errors beside the field
they are about, in words. The PANs and GSTINs themselves are never written into a message.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from portal.core.label_tables import Kind
from portal.core.labels import label
from portal.domain.before_send.bank_codes import bank_of
from portal.domain.before_send.gst_states import gst_state, state_name
from portal.gateway.onboarding.vocabulary import EntityType
from portal.gateway.shapes import FieldError

#: The PAN's fourth letter each entity type's own PAN has (the income tax department's holder
#: types: P a person, F a firm, C a company). A proprietor's business has no PAN of its own:
#: it is the proprietor's. An LLP is assessed as a firm, so its PAN is a firm's.
PAN_LETTER = {
    EntityType.INDIVIDUAL: "P",
    EntityType.PROPRIETOR: "P",
    EntityType.PARTNERSHIP_FIRM: "F",
    EntityType.LLP_FIRM: "F",
    EntityType.PVT_LTD_COMPANY: "C",
    EntityType.PUBLIC_LTD_COMPANY: "C",
}
#: Whose PAN a fourth letter says it is, in words.
HOLDER_WORDS = {"P": "a person's", "F": "a firm's", "C": "a company's", "T": "a trust's",
                "H": "a Hindu undivided family's", "A": "an association of persons'",
                "B": "a body of individuals'", "G": "a government's", "J": "an artificial "
                "juridical person's", "L": "a local authority's"}


@dataclass(frozen=True)
class Facts:
    """What the checks know of the merchant beyond the step sent: its PAN (step 1) and its
    entity type (step 2, as sent or as its draft holds it; None when not chosen yet)."""

    pan: str
    entity_type: str | None = None


@dataclass(frozen=True)
class Finding:
    """One rule's error: the rule's key, the error beside its field, and whether ops may
    send anyway."""

    rule: str
    error: FieldError
    advisory: bool


@dataclass(frozen=True)
class Rule:
    """A check of one step's body (validated) against the merchant's facts."""

    key: str
    step: str
    advisory: bool
    #: What the rule checks, in words (the user guide's list).
    words: str
    check: Callable[[Any, Facts], list[FieldError]]


def _gstin_pan(body: Any, facts: Facts) -> list[FieldError]:
    gstin = body.gstNumber or ""
    if not gstin or not facts.pan or gstin[2:12] == facts.pan.upper():
        return []
    return [FieldError("gstNumber", "This GSTIN was issued to another PAN than the merchant's "
                       "PAN from step 1 (a GSTIN holds its owner's PAN as its 3rd to 12th "
                       "characters). Give the GSTIN of this business, or correct the PAN.")]


def _gstin_state(body: Any, facts: Facts) -> list[FieldError]:
    gstin = body.gstNumber or ""
    state = gst_state(gstin) if gstin else None
    registered = body.address.businessRegisteredAddress.stateCode
    if state is None or registered in state[1]:
        return []
    return [FieldError("gstNumber", f"This GSTIN is registered in {state[0]} (its first two "
                       f"digits, {gstin[:2]}), but the registered address is in "
                       f"{state_name(registered)}. Give the GSTIN of the registered address's "
                       "state.")]


def _entity_pan(body: Any, facts: Facts) -> list[FieldError]:
    return [FieldError("entityType", message)
            for message in _pan_mismatch(facts.pan, body.entityType, "The merchant's PAN "
                                         "from step 1")]


def _create_pan(body: Any, facts: Facts) -> list[FieldError]:
    return [FieldError("panNumber", message)
            for message in _pan_mismatch(body.panNumber, facts.entity_type, "This PAN")]


def _pan_mismatch(pan: str, entity_type: str | None, whose: str) -> list[str]:
    expected = PAN_LETTER.get(entity_type or "")
    letter = pan[3:4].upper()
    if expected is None or not letter or letter == expected:
        return []
    holder = HOLDER_WORDS.get(letter, "another holder's")
    return [f"{whose} is {holder} (4th letter {letter}), but a "
            f"{label(entity_type, Kind.ENTITY_TYPE).lower()} has {HOLDER_WORDS[expected]} PAN "
            f"(4th letter {expected}). Choose the entity type the PAN belongs to, or correct "
            "the PAN."]


def _ifsc_bank(body: Any, facts: Facts) -> list[FieldError]:
    code = body.bankIfscCode[:4]
    bank = bank_of(code)
    if bank is None:
        return [FieldError("bankIfscCode", f"{code}, this IFSC's first four letters, is not "
                           "the code of a bank the portal knows. Check the IFSC on the "
                           "merchant's cheque or bank statement.")]
    if bank.merged_into:
        return [FieldError("bankIfscCode", f"{code} was {bank.name}'s code; it merged into "
                           f"{bank.merged_into}, whose branches have new IFSCs. Ask the "
                           "merchant for the branch's IFSC today.")]
    return []


RULES: tuple[Rule, ...] = (
    Rule("create_pan_entity", "create", False,
         "The PAN's 4th letter fits the entity type, when step 2 already holds one.",
         _create_pan),
    Rule("gstin_pan", "business", False,
         "The GSTIN holds the merchant's own PAN.", _gstin_pan),
    Rule("gstin_state", "business", True,
         "The GSTIN's state (its first two digits) is the registered address's state.",
         _gstin_state),
    Rule("pan_entity", "business", False,
         "The merchant's PAN's 4th letter fits the entity type: P for individuals and "
         "proprietors, F for partnerships and LLPs, C for companies.", _entity_pan),
    Rule("ifsc_bank", "bank", True,
         "The IFSC's first four letters are a bank's code, of a bank not merged away.",
         _ifsc_bank),
)


def findings(step: str, body: Any, facts: Facts) -> list[Finding]:
    """Every rule's errors for ``step``'s validated ``body``, in the table's order."""
    return [Finding(rule.key, error, rule.advisory)
            for rule in RULES if rule.step == step for error in rule.check(body, facts)]
