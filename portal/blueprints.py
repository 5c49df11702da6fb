"""Every blueprint of the portal: a feature joins the app with one line here."""

from __future__ import annotations

from flask import Flask

from portal import auth, documents, errors, main, merchants, payments, wizard


def register_blueprints(app: Flask) -> None:
    """Register each feature's blueprint on ``app``."""
    for blueprint in (errors.bp, main.bp, auth.bp, merchants.bp, wizard.bp, documents.bp):
        app.register_blueprint(blueprint)
    app.register_blueprint(payments.bp)
