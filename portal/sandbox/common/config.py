"""The sandbox's configuration file: partners with their HMAC keys, merchants with their JWS keys.

```json
{"partners": [{"partnerId": "p1", "keys": [{"apiKey": "...", "apiSecret": "...", "active": true}]}],
 "merchants": [{"mid": "m1", "keys": [{"kid": "...", "publicKeyPem": "..."}]},
               {"mid": "parent", "keys": [...], "subMerchants": ["m2", "m3"]}],
 "webhookUrl": "http://127.0.0.1:5000/webhooks/onboarding",
 "answerDialect": "docs",
 "faults": {"seed": 7, "faults": [{"kind": "error", "operation": "get_status", "rate": 0.1}]}}
```

A merchant with ``subMerchants`` is a portfolio (parent MID): its keys also sign, as the official
Python SDK does with ``glocalMerchant.parentMid``, for each MID listed (docs/gateway-contract.md,
portfolio keys).

``webhookUrl`` is a fallback: onboarding webhooks go to the URLs partners register through
``POST /gcc/v2/partner/{mid}/webhook``, and to ``webhookUrl`` when a partner registered none.

``faults`` is a :class:`~portal.sandbox.faults.FaultPlan`, armed at start and after every reset.

``answerDialect`` (``"contract"``, the default, or ``"docs"``) chooses the shapes of the answers
(``portal.sandbox.common.dialect``).

Unknown keys are refused, so a typo (``apiSecrt``) is an error naming the key, never a setting
silently left at its default.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from portal.gateway.onboarding.vocabulary import MAX_DOCUMENT_BYTES
from portal.sandbox.common.dialect import AnswerDialect
from portal.sandbox.common.fault_plans import FaultPlan


class _Config(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class ConfigError(ValueError):
    """A sandbox config file that cannot be used; the message names every wrong key."""


class PartnerKey(_Config):
    """One onboarding API key of a partner."""

    apiKey: str
    apiSecret: str
    active: bool = True


class Partner(_Config):
    """A technology partner and its keys (several may be active at once)."""

    partnerId: str
    keys: list[PartnerKey] = Field(default_factory=list)


class MerchantKey(_Config):
    """A merchant's registered JWS public key."""

    kid: str
    publicKeyPem: str


class MerchantKeys(_Config):
    """A payments merchant (MID) and its keys; a parent MID lists its sub-merchants."""

    mid: str
    keys: list[MerchantKey] = Field(default_factory=list)
    #: The MIDs this merchant's keys may sign for as a portfolio (parent MID).
    subMerchants: list[str] = Field(default_factory=list)


class SandboxConfig(_Config):
    """Everything the sandbox reads from its config file."""

    partners: list[Partner] = Field(default_factory=list)
    merchants: list[MerchantKeys] = Field(default_factory=list)
    webhookUrl: str | None = None
    #: The gateway's own RSA private key (PEM), signing callbacks and decrypting JWE bodies.
    gatewayPrivateKeyPem: str | None = None
    #: Seconds between webhook delivery attempts (1, 5 and 30 minutes on the real gateway).
    webhookRetrySeconds: list[float] = Field(default_factory=lambda: [60.0, 300.0, 1800.0])
    #: Test fault: queue every webhook event twice (receivers must deduplicate by event_id).
    webhookDuplicate: bool = False
    #: Test fault: send the webhook deliveries due at one tick newest first.
    webhookReverseOrder: bool = False
    #: Seconds the compliance review takes after verification completes.
    reviewSeconds: float = 0.0
    #: Whether the review reads a merchant asking for cards' website (loopback allowed: the
    #: tests' and the bench's sites) and asks for the pages it lacks (off: no site is fetched).
    reviewWebsites: bool = False
    #: Docs dialect: seconds after the MCA acceptance that the cards acceptance follows.
    cardsAcceptedSeconds: float = Field(default=60.0, ge=0)
    #: Hours an authorised hold lasts before it expires.
    holdExpiryHours: float = 24.0 * 7
    #: Minutes of the sandbox's clock after which the "authorised later" card's conditional
    #: decline is authorised after all.
    lateAuthorisationMinutes: float = 30.0
    #: Status names in answers and webhooks instead of the contract's (the variants of
    #: docs/gateway-facts.md A3), e.g. ``{"PENDING_REVIEW": "UNDER_REVIEW", "APPROVED":
    #: "ACCEPTED"}``.
    statusNames: dict[str, str] = Field(default_factory=dict)
    #: The ``merchantInfo`` key that carries the status (``merchantStatus`` on some pages).
    statusKey: Literal["onboardingStatus", "merchantStatus"] = "onboardingStatus"
    #: Faults on the gateway API routes (none by default).
    faults: FaultPlan = Field(default_factory=FaultPlan)
    #: Largest decoded document an upload may carry: the contract's 10 MB; a benchmark raises
    #: it to measure larger uploads.
    maxDocumentBytes: int = Field(default=MAX_DOCUMENT_BYTES, ge=1)
    #: The shapes of the answers: the contract's, or the variants the gateway's docs show
    #: (``portal.sandbox.common.dialect``); the records are the same in both.
    answerDialect: AnswerDialect = AnswerDialect.CONTRACT


#: How pydantic reports a key nobody declared (models, and dataclasses such as the fault plan).
UNKNOWN_KEY_ERRORS = frozenset({"extra_forbidden", "unexpected_keyword_argument"})


def _where(location: tuple[str | int, ...]) -> str:
    """A key's place in the file, as ``partners[0].keys[0].apiKey``."""
    return "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in location
                   ).lstrip(".")


def _problems(error: ValidationError) -> list[str]:
    """One line per problem, each naming its key."""
    return [f"unknown key {_where(e['loc'])}" if e["type"] in UNKNOWN_KEY_ERRORS
            else f"{_where(e['loc'])}: {e['msg']}" for e in error.errors()]


def load_config(path: str | Path) -> SandboxConfig:
    """Read and validate a config file; :class:`ConfigError` names each key that is wrong."""
    try:
        return SandboxConfig.model_validate(json.loads(Path(path).read_text(encoding="utf-8")))
    except ValidationError as error:
        raise ConfigError(f"{path}: " + "; ".join(_problems(error))) from None


def config_from(data: dict[str, Any]) -> SandboxConfig:
    """Validate a config given as a dict (tests build them in code)."""
    return SandboxConfig.model_validate(data)
