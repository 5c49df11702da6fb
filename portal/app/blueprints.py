"""Every blueprint of the portal: a feature joins the app with one line here.

Each comes from its feature's ``routes`` module (``portal.web.errors`` for the error pages), never
re-exported by the package: a feature's ``__init__`` imports nothing, so importing its services
does not drag in its pages, and no import cycle runs through a blueprint. The authenticator
page (``auth.enrolment_routes``) adds itself to auth's blueprint when imported here, and the
confirmation of a new administrator (``team.confirmation_routes``) to the team's.
"""

from __future__ import annotations

from flask import Flask

from portal.features.admin.routes import bp as admin_bp
from portal.features.api.keys_routes import bp as api_keys_bp
from portal.features.api.routes import bp as api_bp
from portal.features.approvals.routes import bp as approvals_bp
from portal.features.asks.routes import bp as asks_bp
from portal.features.branding.routes import bp as branding_bp
from portal.features.bulk.routes import bp as bulk_bp
from portal.features.change_requests.routes import bp as change_requests_bp
from portal.features.documents.routes import bp as documents_bp
from portal.features.golive.routes import bp as golive_bp
from portal.features.mail.routes import bp as mail_bp
from portal.features.main.routes import bp as main_bp
from portal.features.merchant_mail.routes import bp as merchant_mail_bp
from portal.features.merchants.routes import bp as merchants_bp
from portal.features.monitoring.routes import bp as monitoring_bp
from portal.features.notifications.routes import bp as notifications_bp
from portal.features.ownership.routes import bp as ownership_bp
from portal.features.partner_webhooks.routes import bp as partner_webhooks_bp
from portal.features.pausing.routes import bp as pausing_bp
from portal.features.payments import setup_routes  # noqa: F401  (adds asking to payments' bp)
from portal.features.payments.links.routes import bp as payment_links_bp
from portal.features.payments.routes import bp as payments_bp
from portal.features.requirements.routes import bp as requirements_bp
from portal.features.status.routes import bp as status_bp
from portal.features.team import confirmation_routes  # noqa: F401  (adds its page to the team's bp)
from portal.features.team.routes import bp as team_bp
from portal.features.verification import (
    ask_routes,  # noqa: F401  (the merchant answers what is asked)
    merchant_routes,  # noqa: F401  (the merchant's pages)
    phone_routes,  # noqa: F401  (continue on a phone)
)
from portal.features.verification.routes import bp as verification_bp
from portal.features.webhooks.routes import bp as webhooks_bp
from portal.features.wizard.routes import bp as wizard_bp
from portal.features.worklist.routes import bp as worklist_bp
from portal.web.auth import enrolment_routes  # noqa: F401  (adds the authenticator page to auth's bp)
from portal.web.auth.routes import bp as auth_bp
from portal.web.errors import bp as errors_bp

#: Every feature's blueprint, in registration order.
BLUEPRINTS = (monitoring_bp, errors_bp, main_bp, auth_bp, merchants_bp, wizard_bp, documents_bp,
              verification_bp, status_bp, webhooks_bp, admin_bp, payments_bp, bulk_bp, team_bp,
              merchant_mail_bp, mail_bp, approvals_bp, payment_links_bp, ownership_bp,
              notifications_bp, worklist_bp, golive_bp, pausing_bp, api_bp, api_keys_bp,
              branding_bp, requirements_bp, change_requests_bp, asks_bp,
              partner_webhooks_bp)


def register_blueprints(app: Flask) -> None:
    """Register each feature's blueprint on ``app``."""
    for blueprint in BLUEPRINTS:
        app.register_blueprint(blueprint)
