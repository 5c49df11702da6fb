"""Every blueprint of the portal: a feature joins the app with one line here."""

from __future__ import annotations

from flask import Flask

from portal import (
    admin,
    auth,
    documents,
    errors,
    main,
    merchants,
    payments,
    team,
    verification,
    webhooks,
    wizard,
)
from portal.approvals.routes import bp as approvals_bp
from portal.bulk.routes import bp as bulk_bp
from portal.mail.routes import bp as mail_bp
from portal.merchant_mail.routes import bp as merchant_mail_bp
from portal.status.routes import bp as status_bp


def register_blueprints(app: Flask) -> None:
    """Register each feature's blueprint on ``app``."""
    for blueprint in (errors.bp, main.bp, auth.bp, merchants.bp, wizard.bp, documents.bp):
        app.register_blueprint(blueprint)
    for blueprint in (verification.bp, status_bp, webhooks.bp, admin.bp):
        app.register_blueprint(blueprint)
    app.register_blueprint(payments.bp)
    app.register_blueprint(bulk_bp)
    app.register_blueprint(team.bp)
    app.register_blueprint(merchant_mail_bp)
    app.register_blueprint(mail_bp)
    app.register_blueprint(approvals_bp)
