"""The portal's models; importing this package registers every table on ``Base.metadata``."""

from portal.db import Base
from portal.models.approval import ApprovalKind, ApprovalRequest, ApprovalState
from portal.models.audit import AuditEvent
from portal.models.bulk import BulkImport, BulkImportRow
from portal.models.communication import MailTemplate, PasswordResetRequest, VerificationReminder
from portal.models.document import StoredDocument
from portal.models.enrolment import PendingEnrolment
from portal.models.held_form import HeldForm
from portal.models.job import Job, JobState
from portal.models.login_failure import LoginFailure
from portal.models.login_throttle import LoginThrottle
from portal.models.merchant import Merchant
from portal.models.outbox import OutboxItem, OutboxState
from portal.models.payment import Payment, PaymentCredentials, PaymentRefund, PortfolioKey
from portal.models.payment_link import LinkState, PaymentLink
from portal.models.pendency import MerchantPendency
from portal.models.recovery_code import RecoveryCode
from portal.models.status_change import StatusChange, StatusSource
from portal.models.status_count import MerchantStatusCount
from portal.models.step import StepDraft
from portal.models.user import Role, User
from portal.models.user_session import UserSession
from portal.models.verification import GatewayLink, MerchantLink
from portal.models.webhook_event import WebhookEvent

__all__ = [
    "ApprovalKind", "ApprovalRequest", "ApprovalState", "AuditEvent", "Base", "BulkImport",
    "BulkImportRow", "GatewayLink", "HeldForm", "Job", "JobState", "LinkState",
    "LoginFailure", "LoginThrottle",
    "MailTemplate", "Merchant", "MerchantLink", "MerchantPendency", "MerchantStatusCount",
    "OutboxItem", "OutboxState", "PasswordResetRequest", "Payment", "PaymentCredentials",
    "PaymentLink", "PaymentRefund", "PendingEnrolment", "PortfolioKey", "RecoveryCode", "Role",
    "StatusChange",
    "StatusSource", "StepDraft", "StoredDocument", "User", "UserSession", "VerificationReminder",
    "WebhookEvent",
]
