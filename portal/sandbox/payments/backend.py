"""The sandbox's payments state: merchant keys, the gateway's key, payments and their rules.

No HTTP here: the routes parse requests and call these methods with plain arguments, so every
rule (who may sign, what a capture or refund may do, when a hold expires) is tested directly.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import Decimal
from enum import StrEnum
from typing import Any

from joserfc.jwk import RSAKey

from portal.clock import Clock
from portal.gateway.jwe import decrypt_body
from portal.gateway.payments_shapes import (
    AMOUNT_MISMATCH,
    GATEWAY_ISSUER,
    INVALID_DATA,
    NOT_FOUND,
    AmountScope,
    AuthReversalRequest,
    CallbackClaims,
    CaptureRequest,
    InitiateRequest,
    PaymentStatus,
    PaymentStatusData,
    RefundData,
    RefundRequest,
)
from portal.gateway.shapes import TIMESTAMP_FORMAT, FieldError, new_gid
from portal.gateway.signing import (
    ISSUER_CLAIM,
    KEY_MID_CLAIM,
    MERCHANT_CLAIM,
    TOKEN_LIFETIME_MS,
    TokenError,
    check_digest_claims,
    load_private_key,
    load_public_key,
    sign_claims,
    verify_claims,
)
from portal.sandbox.config import SandboxConfig
from portal.sandbox.errors import ApiError, unauthorized, validation_error

log = logging.getLogger("portal.sandbox.payments")

#: The ``scope`` claim that keeps the gateway's own tokens to their one use.
CHECKOUT_SCOPE = "checkout"
STATUS_SCOPE = "status"
#: Query parameter (statusUrl, redirectUrl) and callback form field of the gateway's tokens.
TOKEN_PARAM = "x-gl-token"  # noqa: S105  # nosec B105  # a parameter name, not a secret
AMOUNT_FIELD = "paymentData.totalAmount"
#: The errorDetails field named when the body as a whole is wrong.
BODY_FIELD = "body"


def _truthy(flag: Any) -> bool:
    """A header flag sent as the string ``"true"`` or the boolean ``true``."""
    return flag is True or (isinstance(flag, str) and flag.lower() == "true")


def _money(value: Decimal) -> str:
    return format(value, "f")


@dataclass(frozen=True)
class MerchantKey:
    """A registered public key and the MID it is bound to."""

    mid: str
    key: RSAKey


@dataclass(frozen=True)
class Caller:
    """Who signed a request, and whether its body is a JWE."""

    mid: str
    encrypted: bool


@dataclass(frozen=True)
class Outcome:
    """What the hosted page decided for a payment."""

    status: PaymentStatus
    reason_code: str
    message: str
    method: str
    brand: str | None = None


class ActionKind(StrEnum):
    """What a follow-up call did to a payment."""

    CAPTURE = "capture"
    REVERSAL = "reversal"
    REFUND = "refund"


@dataclass(frozen=True)
class Action:
    """One capture, reversal or refund: its own merchantTxnId (if it had one), its amount, and
    the payment's status right after it."""

    kind: ActionKind
    merchant_txn_id: str | None
    amount: Decimal
    status: PaymentStatus
    reason_code: str
    message: str


@dataclass
class Payment:
    """One hosted-checkout payment and everything that happened to it."""

    gid: str
    mid: str
    request: InitiateRequest
    amount: Decimal
    created_at: datetime
    status: PaymentStatus = PaymentStatus.INPROGRESS
    reason_code: str | None = None
    message: str | None = None
    method: str | None = None
    brand: str | None = None
    authorized_at: datetime | None = None
    captured: Decimal | None = None
    actions: list[Action] = field(default_factory=list)

    @property
    def currency(self) -> str:
        """The currency of the payment."""
        return self.request.paymentData.txnCurrency

    @property
    def refunds(self) -> list[Action]:
        """Its refunds, oldest first."""
        return [a for a in self.actions if a.kind is ActionKind.REFUND]

    @property
    def refunded(self) -> Decimal:
        """The sum of all refunds so far."""
        return sum((r.amount for r in self.refunds), Decimal(0))

    def action_named(self, merchant_txn_id: str) -> Action | None:
        """The capture, reversal or refund sent with this merchantTxnId, if any."""
        return next((a for a in self.actions if a.merchant_txn_id == merchant_txn_id), None)

    def record(self, action: Action) -> Action:
        """Apply a follow-up call's outcome to the payment and keep it."""
        self.status, self.reason_code, self.message = (action.status, action.reason_code,
                                                       action.message)
        self.actions.append(action)
        return action

    def status_data(self, action: Action | None = None) -> dict[str, Any]:
        """The payment as the status call shows it, read by its gid or its merchantTxnId.

        Read by the merchantTxnId of one of its captures, reversals or refunds, the answer is
        the payment as it stood right after that action (its status, reasonCode and message)
        with that action's merchantTxnId and amount. The real gateway's answer to such a read
        is not documented beyond "Pass PayGlocal gid or your merchantTxnId"; this is the
        sandbox's reading. A merchantTxnId the gateway never got is a 404. No running totals
        (captured or refunded amounts) are shown: the real gateway's status has none.
        """
        data = PaymentStatusData.model_validate({
            "gid": self.gid,
            "status": action.status if action else self.status,
            "merchantTxnId": action.merchant_txn_id if action else self.request.merchantTxnId,
            "merchantUniqueId": self.request.merchantUniqueId,
            "Amount": _money(action.amount) if action else self.request.paymentData.totalAmount,
            "Currency": self.currency,
            "txnCurrency": self.currency,
            "reasonCode": action.reason_code if action else self.reason_code,
            "detailedMessage": action.message if action else self.message,
            "transactionCreationTime": self.created_at.strftime(TIMESTAMP_FORMAT),
            "payment-method": self.method,
            "CardBrand": self.brand,
        })
        return data.model_dump(by_alias=True, exclude_none=True)

    def refund_data(self, refund: Action) -> dict[str, Any]:
        """One of its refunds as the refund call answers it (the shape the PHP SDK recorded)."""
        return RefundData(merchantTxnId=refund.merchant_txn_id, refundCurrency=self.currency,
                          refundAmount=_money(refund.amount)).model_dump()


class GatewayKey:
    """The gateway's own RSA key pair: signs callbacks and tokens, decrypts JWE bodies."""

    def __init__(self, private_pem: str | None) -> None:
        private = load_private_key(private_pem) if private_pem else RSAKey.generate_key(2048)
        self.private = private
        self.public_pem: str = private.as_pem(private=False).decode("ascii")
        self.public = load_public_key(self.public_pem)
        self.kid = private.thumbprint()

    def sign(self, claims: dict[str, Any]) -> str:
        """A compact RS256 JWS with the header the gateway's callbacks carry."""
        header = {"kid": self.kid, "issued-by": GATEWAY_ISSUER, "is-digested": "false"}
        return sign_claims(claims, self.private, header)

    def verify(self, token: str) -> dict[str, Any]:
        """The claims of a token this gateway signed."""
        return verify_claims(token, lambda header: self.public)[1]


class PaymentsBackend:
    """Payments held in memory, with the gateway's rules; resettable between tests."""

    def __init__(self, config: SandboxConfig, clock: Clock) -> None:
        self._config = config
        self._clock = clock
        self._lock = threading.RLock()
        self.gateway_key = GatewayKey(config.gatewayPrivateKeyPem)
        self._keys = {
            key.kid: MerchantKey(merchant.mid, load_public_key(key.publicKeyPem))
            for merchant in config.merchants
            for key in merchant.keys
        }
        #: Portfolio (parent) MID -> the sub-merchant MIDs its keys may sign for.
        self._portfolios: dict[str, set[str]] = {
            merchant.mid: set(merchant.subMerchants) for merchant in config.merchants
            if merchant.subMerchants
        }
        self._payments: dict[str, Payment] = {}

    def reset(self) -> None:
        """Forget every payment (keys stay)."""
        with self._lock:
            self._payments.clear()

    def register_key(self, mid: str, kid: str, public_key_pem: str,
                     sub_merchants: Iterable[str] = ()) -> None:
        """Accept JWS signed with this public key under ``kid`` for ``mid`` (replacing ``kid``);
        ``sub_merchants`` join ``mid``'s portfolio, so the key signs for them too."""
        try:
            key = load_public_key(public_key_pem)
        except (ValueError, TypeError):
            raise validation_error([FieldError("publicKeyPem", "Not an RSA public key in PEM")]
                                   ) from None
        with self._lock:
            self._keys[kid] = MerchantKey(mid, key)
            if sub_merchants:
                self._portfolios.setdefault(mid, set()).update(sub_merchants)

    def sub_merchants(self, parent_mid: str) -> frozenset[str]:
        """The MIDs a portfolio (parent MID) key may sign for."""
        with self._lock:
            return frozenset(self._portfolios.get(parent_mid, ()))

    # ------------------------------------------------------------ authentication

    def authenticate(self, token: str | None, merchant_id: str | None, kid: str | None,
                     signed: bytes, key_mid: str | None = None) -> Caller:
        """Check ``x-gl-token-external`` over ``signed`` (body bytes, or the path for GET).

        ``merchant_id`` is the transacting MID (``x-gl-merchantid``); ``key_mid`` the optional
        ``x-gl-kid-mid`` header naming the MID whose key signed.
        """
        if not token:
            raise unauthorized("x-gl-token-external is missing")
        if not merchant_id:
            raise unauthorized("x-gl-merchantid is missing")
        try:
            header, claims = verify_claims(
                token, lambda h: self._merchant_key(h, merchant_id, kid, key_mid))
            if not _truthy(header.get("is-digested")):
                raise TokenError("Only digested tokens (is-digested true) are accepted")
            _check_lifetime(claims)
            check_digest_claims(claims, signed, self._clock.now_ms())
        except TokenError as exc:
            raise unauthorized(str(exc)) from None
        return Caller(merchant_id, _truthy(header.get("x-gl-enc")))

    def _merchant_key(self, header: dict[str, Any], merchant_id: str, kid: str | None,
                      key_mid: str | None) -> RSAKey:
        """The key that must verify the token, once the header's MIDs agree with each other.

        A merchant's own key signs for that merchant. A portfolio key signs for one of the
        parent's sub-merchants, and then the header says so: ``x-gl-kid-mid`` and ``issued-by``
        name the parent, ``x-gl-merchantId`` the sub-merchant (CONTRACT.md, portfolio keys).
        """
        token_kid = header.get("kid")
        with self._lock:
            entry = self._keys.get(token_kid) if isinstance(token_kid, str) else None
            subs = frozenset(self._portfolios.get(entry.mid, ())) if entry else frozenset()
        if entry is None:
            raise TokenError("No key is registered for this kid")
        if kid is not None and kid != token_kid:
            raise TokenError("x-gl-kid differs from the token's kid")
        if header.get(MERCHANT_CLAIM, merchant_id) != merchant_id:
            raise TokenError(f"The token's {MERCHANT_CLAIM} is not x-gl-merchantid")
        portfolio = header.get(KEY_MID_CLAIM)
        if portfolio is not None or key_mid is not None:
            if portfolio != entry.mid or key_mid not in (None, entry.mid):
                raise TokenError(f"{KEY_MID_CLAIM} is not the MID of the signing key")
            if merchant_id not in subs | {entry.mid}:
                raise TokenError("This portfolio key does not sign for this merchant")
        elif entry.mid != merchant_id:
            raise TokenError("This key belongs to another merchant")
        for name in ("iss", ISSUER_CLAIM):
            if name in header and header[name] != entry.mid:
                raise TokenError(f"The token's {name} is not the key's merchant")
        return entry.key

    def decode_body(self, raw: bytes, encrypted: bool) -> Any:
        """The JSON value of a request body, decrypting a JWE first when the token says so."""
        try:
            if encrypted:
                raw = decrypt_body(raw.decode("ascii"), self.gateway_key.private)
            return json.loads(raw)
        except TokenError as exc:
            raise validation_error([FieldError(BODY_FIELD, str(exc))]) from None
        except (ValueError, RecursionError):
            raise validation_error([FieldError(BODY_FIELD, "The body is not valid JSON")]) from None

    # ------------------------------------------------------------ gateway-signed tokens

    def scoped_token(self, gid: str, scope: str) -> str:
        """A gateway-signed token that opens one payment's checkout page or status."""
        return self.gateway_key.sign({"gid": gid, "scope": scope,
                                      "iat": str(self._clock.now_ms())})

    def gid_of(self, token: str | None, scope: str) -> str:
        """The gid a scoped token opens; 401 when it is missing, forged or for another use."""
        try:
            claims = self.gateway_key.verify(token or "")
        except TokenError:
            raise unauthorized("The x-gl-token is not valid") from None
        if claims.get("scope") != scope or not isinstance(claims.get("gid"), str):
            raise unauthorized("The x-gl-token is not valid here")
        return claims["gid"]

    def callback_token(self, payment: Payment, status_url: str) -> str:
        """The ``x-gl-token`` the customer's browser carries back to the merchant: the claims
        the PHP SDK recorded from the real gateway (no merchantTxnId, no reasonCode)."""
        claims = CallbackClaims(
            gid=payment.gid, status=payment.status, statusUrl=status_url,
            merchantUniqueId=payment.request.merchantUniqueId, gidHeader=payment.gid,
            merchantId=payment.mid, iat=str(self._clock.now_ms()), exp=TOKEN_LIFETIME_MS)
        return self.gateway_key.sign(claims.model_dump(by_alias=True, exclude_none=True))

    # ------------------------------------------------------------ payments

    def today(self) -> date:
        """The sandbox clock's date, for card expiry."""
        return self._clock.now().date()

    def initiate(self, mid: str, request: InitiateRequest) -> Payment:
        """Create a payment waiting for the customer on the hosted page."""
        payment = Payment(gid=new_gid("gl_o-"), mid=mid, request=request,
                          amount=Decimal(request.paymentData.totalAmount),
                          created_at=self._clock.now())
        with self._lock:
            self._payments[payment.gid] = payment
        log.info("initiated %s for %s", payment.gid, mid)
        return payment

    def get(self, gid: str, mid: str | None = None) -> Payment:
        """The payment, its hold expiry applied; 404 if unknown or another merchant's."""
        with self._lock:
            payment = self._payments.get(gid)
            if payment is None or (mid is not None and payment.mid != mid):
                raise _not_found()
            self._expire(payment)
            return payment

    def find(self, id_: str, mid: str | None) -> tuple[Payment, Action | None]:
        """The payment known by its gid, its merchantTxnId or that of one of its captures,
        reversals or refunds (with that action); 404 if none of ``mid``'s payments has it."""
        with self._lock:
            if id_ in self._payments:
                return self.get(id_, mid), None
            mine = [p for p in self._payments.values() if mid is None or p.mid == mid]
            # newest first: a merchantTxnId reused across payments names the latest
            for payment in sorted(mine, key=lambda p: p.created_at, reverse=True):
                if payment.request.merchantTxnId == id_:
                    return self.get(payment.gid), None
                action = payment.action_named(id_)
                if action is not None:
                    return self.get(payment.gid), action
            raise _not_found()

    def _expire(self, payment: Payment) -> None:
        hours = self._config.holdExpiryHours
        if (payment.status is PaymentStatus.AUTHORIZED and payment.authorized_at is not None
                and self._clock.now() >= payment.authorized_at + timedelta(hours=hours)):
            payment.status = PaymentStatus.EXPIRED
            payment.message = f"The hold expired after {hours:g} hours; nothing was captured"

    def settle(self, gid: str, outcome: Outcome) -> Payment:
        """Record the hosted page's outcome; a payment is decided once only (409 after)."""
        with self._lock:
            payment = self.get(gid)
            if payment.status is not PaymentStatus.INPROGRESS:
                raise _refused("This payment is already complete")
            payment.status = outcome.status
            payment.reason_code = outcome.reason_code
            payment.message = outcome.message
            payment.method = outcome.method
            payment.brand = outcome.brand
            if outcome.status is PaymentStatus.AUTHORIZED:
                payment.authorized_at = self._clock.now()
        log.info("checkout %s -> %s %s", gid, outcome.status, outcome.reason_code)
        return payment

    def capture(self, mid: str, gid: str, request: CaptureRequest) -> tuple[Payment, Action]:
        """Capture once, at most the authorised amount; the rest of the hold is released."""
        with self._lock:
            payment = self._in_status(mid, gid, {PaymentStatus.AUTHORIZED}, "captured")
            wanted = _requested(request.paymentData)
            if wanted is not None and wanted > payment.amount:
                raise _amount_error(f"At most the authorised {payment.amount} can be captured")
            if request.captureType is AmountScope.FULL and wanted not in (None, payment.amount):
                raise _amount_error("A full capture takes the authorised amount; send P for less")
            payment.captured = wanted if wanted is not None else payment.amount
            return payment, payment.record(Action(
                ActionKind.CAPTURE, request.merchantTxnId, payment.captured,
                PaymentStatus.SENT_FOR_CAPTURE, "GL-201-001", "Sent for capture"))

    def reverse(self, mid: str, gid: str, request: AuthReversalRequest
                ) -> tuple[Payment, Action]:
        """Release the whole hold; only from AUTHORIZED."""
        with self._lock:
            payment = self._in_status(mid, gid, {PaymentStatus.AUTHORIZED}, "reversed")
            return payment, payment.record(Action(
                ActionKind.REVERSAL, request.merchantTxnId, payment.amount,
                PaymentStatus.REVERSED, payment.reason_code or "", "The hold was released"))

    def refund(self, mid: str, gid: str, request: RefundRequest) -> tuple[Payment, Action]:
        """Refund after capture; all refunds together at most the captured amount.

        ``txnCurrency`` may be left out (docs refund-service): it is the payment's.
        """
        with self._lock:
            payment = self._in_status(
                mid, gid, {PaymentStatus.SENT_FOR_CAPTURE, PaymentStatus.SENT_FOR_REFUND},
                "refunded")
            if any(r.merchant_txn_id == request.merchantTxnId for r in payment.refunds):
                raise _refused("A refund with this merchantTxnId was already made")
            currency = request.paymentData.txnCurrency if request.paymentData else None
            if currency not in (None, payment.currency):
                raise validation_error([FieldError("paymentData.txnCurrency",
                                                   f"The payment is in {payment.currency}")])
            remaining = (payment.captured or Decimal(0)) - payment.refunded
            wanted = _requested(request.paymentData)
            if request.refundType is AmountScope.FULL and wanted not in (None, remaining):
                raise _amount_error(f"A full refund is the remaining {remaining}; send P for less")
            amount = wanted if wanted is not None else remaining
            if remaining <= 0 or amount > remaining:
                raise _refused(f"At most {_money(remaining)} is left to refund", AMOUNT_MISMATCH)
            refund = payment.record(Action(ActionKind.REFUND, request.merchantTxnId, amount,
                                           PaymentStatus.SENT_FOR_REFUND, "GL-201-001",
                                           "Refund request sent successfully"))
            return payment, refund

    def _in_status(self, mid: str, gid: str, allowed: set[PaymentStatus], verb: str) -> Payment:
        payment = self.get(gid, mid)
        if payment.status not in allowed:
            raise _refused(f"A payment in status {payment.status} cannot be {verb}")
        return payment


def _check_lifetime(claims: dict[str, Any]) -> None:
    """``exp`` is a lifetime in ms; a token may not grant itself more than the SDKs' 5 minutes."""
    try:
        lifetime = int(str(claims.get("exp", TOKEN_LIFETIME_MS)))
    except ValueError:
        raise TokenError("exp must be a lifetime in milliseconds") from None
    if not 0 < lifetime <= TOKEN_LIFETIME_MS:
        raise TokenError(f"exp must be a lifetime of at most {TOKEN_LIFETIME_MS} ms")


def _requested(payment_data: Any) -> Decimal | None:
    return Decimal(payment_data.totalAmount) if payment_data is not None else None


def _amount_error(message: str) -> ApiError:
    """400 GL-400-006 (amount mismatch) on the amount field."""
    return ApiError(400, AMOUNT_MISMATCH, message, [FieldError(AMOUNT_FIELD, message)])


def _refused(message: str, reason_code: str = INVALID_DATA) -> ApiError:
    """409 for a call the payment's state refuses (a second capture, an over-refund).

    The real gateway answers 400 with a GL-400 reasonCode; the contract lets the sandbox keep
    409 so a client sees the difference from a bad field, with the same GL-400 reasonCode.
    """
    return ApiError(409, reason_code, message)


def _not_found() -> ApiError:
    """404 with the gateway's "not found" reasonCode (GL-400-999)."""
    return ApiError(404, NOT_FOUND, "No such payment")
