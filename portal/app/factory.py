"""The portal's app factory."""

from __future__ import annotations

from datetime import timedelta

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

from portal.app.blueprints import register_blueprints
from portal.app.cli import register_commands
from portal.app.extensions import register_extensions
from portal.core import encryption, labels
from portal.core.config import SETTINGS_EXTENSION, Settings
from portal.core.config_fields import INSTANCE, ROOT
from portal.core.db import db
from portal.core.startup import checked_settings
from portal.features.monitoring.logs import configure_logging
from portal.web import (
    body_forms,
    health_banner,
    page_language,
    request_ids,
    request_metrics,
    step_pages,
)
from portal.web.http import RowIdConverter, refuse_json_for_forms
from portal.web.security_headers import add_security_headers
from portal.web.uploads import PortalRequest


def create_app(settings: Settings | None = None) -> Flask:
    """Build the portal for ``settings`` (default: read from the environment); ConfigError
    naming the variable when they cannot start it (``portal.core.startup``)."""
    settings = checked_settings(settings)
    app = Flask("portal", template_folder=str(ROOT / "templates"),
                static_folder=str(ROOT / "static"), instance_path=str(INSTANCE))
    app.request_class = PortalRequest
    app.extensions[SETTINGS_EXTENSION] = settings
    app.config.update(
        SECRET_KEY=settings.secret_key,
        MAX_CONTENT_LENGTH=settings.upload_max_bytes + 1024 * 1024,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_SECURE=not settings.is_development,
        REMEMBER_COOKIE_HTTPONLY=True,
        REMEMBER_COOKIE_SAMESITE="Lax",
        # the cookie outlives the idle timeout, which the server enforces
        # (portal.web.auth.sessions), so a session that went idle is still known to be its user's
        PERMANENT_SESSION_LIFETIME=timedelta(hours=settings.session_max_hours),
        SESSION_REFRESH_EACH_REQUEST=True,
        TESTING=settings.env == "testing",
    )
    configure_logging(settings)
    encryption.install(app, settings)
    db.init_app(app, settings.database_url)
    if settings.trusted_proxies > 0:  # forwarded client address and scheme, from them only
        proxies = settings.trusted_proxies
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies)
    app.url_map.converters["int"] = RowIdConverter
    # first: the request id exists for every later hook and log line, the timer runs round them
    app.before_request(request_ids.start_request)
    app.before_request(request_metrics.start_timer)
    app.after_request(request_metrics.observe_request)
    app.after_request(request_ids.return_request_id)
    app.teardown_request(request_ids.end_request)
    app.context_processor(request_ids.for_templates)
    register_extensions(app)
    register_blueprints(app)
    labels.register(app)
    body_forms.register(app)
    step_pages.register(app)
    health_banner.register(app)
    page_language.register(app)
    register_commands(app)
    app.before_request(refuse_json_for_forms)
    app.after_request(add_security_headers)
    return app

