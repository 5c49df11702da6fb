"""The payments API's request bodies, defined once: the client validates them before signing, the
sandbox validates what it receives (spec 2.1-2.5, as docs/gateway-contract.md reads them)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import (
    BeforeValidator,
    Field,
)

from portal.gateway.payments.vocabulary import (
    Amount,
    AmountScope,
    CallbackUrl,
    Country,
    Currency,
    DecimalString,
    MerchantTxnId,
    MerchantUniqueId,
    Quantity,
    Refused,
    _strictly_false,
)
from portal.gateway.shapes import (
    CallingCode,
    Email,
    FieldError,
    NationalPhone,
    NonEmpty,
    RequestModel,
)


class BillingData(RequestModel):
    """The payer's billing details (spec 2.3); which are mandatory is not documented."""

    firstName: NonEmpty | None = None
    lastName: NonEmpty | None = None
    emailId: Email | None = None
    callingCode: CallingCode | None = None
    phoneNumber: NationalPhone | None = None
    addressStreet1: NonEmpty | None = None
    addressStreet2: NonEmpty | None = None
    addressCity: NonEmpty | None = None
    addressState: NonEmpty | None = None
    addressStateCode: NonEmpty | None = None
    addressPostalCode: NonEmpty | None = None
    addressCountry: Country | None = None


class PaymentData(RequestModel):
    """What is to be authorised (spec 2.2)."""

    totalAmount: Amount
    txnCurrency: Currency
    billingData: BillingData | None = None


class CustomerData(RequestModel):
    """The customer, for the fraud check."""

    merchantAssignedCustomerId: NonEmpty | None = None
    firstName: NonEmpty | None = None
    lastName: NonEmpty | None = None
    emailId: Email | None = None
    callingCode: CallingCode | None = None
    mobileNumber: NationalPhone | None = None


class ShippingData(RequestModel):
    """Where the order goes, for the fraud check."""

    firstName: NonEmpty | None = None
    lastName: NonEmpty | None = None
    emailId: Email | None = None
    addressStreet1: NonEmpty | None = None
    addressStreet2: NonEmpty | None = None
    addressCity: NonEmpty | None = None
    addressState: NonEmpty | None = None
    addressPostalCode: NonEmpty | None = None
    addressCountry: Country | None = None


class OrderItem(RequestModel):
    """One line of the order."""

    itemId: NonEmpty | None = None
    itemName: NonEmpty | None = None
    itemQuantity: Quantity | None = None
    itemPrice: DecimalString | None = None
    itemCategory: NonEmpty | None = None


class RiskData(RequestModel):
    """Fraud-check data (spec 2.4)."""

    customerData: CustomerData | None = None
    shippingData: ShippingData | None = None
    orderData: Annotated[list[OrderItem], Field(max_length=100)] | None = None


class InitiateRequest(RequestModel):
    """Initiate an authorize-only hosted-checkout payment (spec 2.1)."""

    merchantTxnId: MerchantTxnId
    merchantUniqueId: MerchantUniqueId | None = None
    captureTxn: Annotated[Literal[False], BeforeValidator(_strictly_false)]
    paymentData: PaymentData
    riskData: RiskData | None = None
    merchantCallbackURL: CallbackUrl
    # hosted checkout: the customer gives card details on the gateway's page, never to us
    cardData: Refused = None
    tokenData: Refused = None
    standingInstruction: Refused = None
    authenticationData: Refused = None


# ---------------------------------------------------------------- follow-up operations


def _partial_needs_amount(scope: AmountScope, amount: str | None, kind: str) -> list[FieldError]:
    if scope is AmountScope.PARTIAL and amount is None:
        return [FieldError("paymentData.totalAmount", f"Required for a partial {kind}")]
    return []


class CaptureAmount(RequestModel):
    """How much to capture."""

    totalAmount: Amount


class CaptureRequest(RequestModel):
    """Capture the held amount or part of it; once per authorisation.

    The openapi sample ``{"captureType": "F"}`` is valid: merchantTxnId is optional, though a
    capture that has one can be looked up on its own (status by merchantTxnId).
    """

    merchantTxnId: MerchantTxnId | None = None
    captureType: AmountScope
    paymentData: CaptureAmount | None = None

    def cross_field_errors(self) -> list[FieldError]:
        """A partial capture names its amount."""
        amount = self.paymentData.totalAmount if self.paymentData else None
        return _partial_needs_amount(self.captureType, amount, "capture")


class AuthReversalRequest(RequestModel):
    """Release the hold in full; only before capture. ``{}`` is valid (openapi sample)."""

    merchantTxnId: MerchantTxnId | None = None


class RefundAmount(RequestModel):
    """How much to refund; the currency defaults to the payment's (docs refund-service)."""

    totalAmount: Amount
    txnCurrency: Currency | None = None


class RefundRequest(RequestModel):
    """Refund a captured payment in full or in part; refunds together at most the capture.

    The body of the official PHP SDK (refund.php), with the docs' variant (no txnCurrency).
    """

    merchantTxnId: MerchantTxnId
    merchantUniqueId: MerchantUniqueId | None = None
    refundType: AmountScope
    paymentData: RefundAmount | None = None
    merchantCallbackURL: CallbackUrl | None = None

    def cross_field_errors(self) -> list[FieldError]:
        """A partial refund names its amount."""
        amount = self.paymentData.totalAmount if self.paymentData else None
        return _partial_needs_amount(self.refundType, amount, "refund")
