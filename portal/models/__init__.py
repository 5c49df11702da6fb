"""The portal's models; importing this package registers every table on ``Base.metadata``."""

from portal.db import Base
from portal.models.audit import AuditEvent
from portal.models.document import StoredDocument
from portal.models.login_throttle import LoginThrottle
from portal.models.merchant import Merchant
from portal.models.payment import Payment, PaymentCredentials, PaymentRefund
from portal.models.step import StepDraft
from portal.models.user import Role, User

__all__ = ["AuditEvent", "Base", "LoginThrottle", "Merchant", "Payment", "PaymentCredentials",
           "PaymentRefund", "Role", "StepDraft", "StoredDocument", "User"]
