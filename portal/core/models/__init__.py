"""The portal's models; importing this package registers every table on ``Base.metadata``."""

from portal.core.db import Base
from portal.core.models.api_key import ApiKey, ApiRateWindow, IdempotentRequest, KeyState
from portal.core.models.approval import ApprovalKind, ApprovalRequest, ApprovalState
from portal.core.models.audit import AuditEvent
from portal.core.models.branding import PartnerBranding
from portal.core.models.bulk import BulkImport, BulkImportRow
from portal.core.models.change_request import ChangeRequest, ChangeState
from portal.core.models.communication import (
    MailTemplate,
    PasswordResetRequest,
    VerificationReminder,
)
from portal.core.models.document import StoredDocument
from portal.core.models.document_ask import DocumentAsk
from portal.core.models.enrolment import PendingEnrolment
from portal.core.models.handover import PhoneHandover
from portal.core.models.held_form import HeldForm
from portal.core.models.job import Job, JobState
from portal.core.models.login_failure import LoginFailure
from portal.core.models.login_throttle import LoginThrottle
from portal.core.models.merchant import Merchant
from portal.core.models.merchant_stop import MerchantStop, StopKind
from portal.core.models.note import MerchantNote
from portal.core.models.notice import MailState, Notice, NoticeKind
from portal.core.models.outbox import OutboxItem, OutboxState
from portal.core.models.partner_webhook import (
    DeliveryState,
    PartnerDelivery,
    PartnerEndpoint,
    PartnerEvent,
)
from portal.core.models.payment import Payment, PaymentCredentials, PaymentRefund, PortfolioKey
from portal.core.models.payment_link import LinkState, PaymentLink
from portal.core.models.payment_setup import PaymentSetupRequest
from portal.core.models.pendency import MerchantPendency
from portal.core.models.product_acceptance import MerchantProductAcceptance
from portal.core.models.recovery_code import RecoveryCode
from portal.core.models.status_change import StatusChange, StatusSource
from portal.core.models.status_count import MerchantStatusCount
from portal.core.models.step import StepDraft
from portal.core.models.user import Role, User
from portal.core.models.user_session import UserSession
from portal.core.models.verification import GatewayLink, MerchantLink, MerchantLinkCheck
from portal.core.models.webhook_event import Verification, WebhookEvent

__all__ = [
    "ApiKey", "ApiRateWindow", "ApprovalKind", "ApprovalRequest", "ApprovalState", "AuditEvent",
    "Base", "BulkImport", "BulkImportRow", "ChangeRequest", "ChangeState", "DeliveryState",
    "DocumentAsk",
    "GatewayLink", "HeldForm", "IdempotentRequest", "Job",
    "JobState", "KeyState", "LinkState", "LoginFailure", "LoginThrottle", "MailState",
    "MailTemplate", "Merchant", "MerchantLink", "MerchantLinkCheck", "MerchantNote",
    "MerchantPendency", "MerchantProductAcceptance", "MerchantStatusCount", "MerchantStop",
    "Notice", "NoticeKind", "OutboxItem", "OutboxState", "PartnerBranding", "PartnerDelivery",
    "PartnerEndpoint", "PartnerEvent", "PasswordResetRequest", "Payment", "PaymentCredentials",
    "PaymentLink", "PaymentRefund", "PaymentSetupRequest", "PendingEnrolment",
    "PhoneHandover", "PortfolioKey", "RecoveryCode", "Role", "StatusChange", "StatusSource",
    "StepDraft",
    "StopKind", "StoredDocument", "User",
    "UserSession", "Verification", "VerificationReminder", "WebhookEvent",
]
