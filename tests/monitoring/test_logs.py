"""LOG_FORMAT: json lines with the request's context, redacted; an unknown format is refused."""

from __future__ import annotations

import io
import json
import logging

import pytest
from flask import g

from portal.core.config import ConfigError, settings_from_env
from portal.core.db import db
from portal.domain.users.accounts import find_user
from portal.features.monitoring.logs import install_log_format
from tests.support.production import production_environment


def test_json_log_lines_carry_the_request_merchant_and_user_redacted(app, auth):
    email = auth.create("ops")
    stream = io.StringIO()
    logger = logging.getLogger("tests.ops.json")
    logger.handlers = [logging.StreamHandler(stream)]
    logger.propagate = False
    install_log_format(logger, "json")

    with app.test_request_context("/merchants/42/verification"):
        app.preprocess_request()  # the before-request hooks choose the id
        user = find_user(email)
        user_id = user.id
        g._login_user = user  # as flask-login keeps the signed-in user
        db.session.expire(user)  # nothing loaded, and no session to load it with: a log line
        db.session.expunge(user)  # written from a failed transaction must not query for it
        logger.warning("looked up PAN ABCPE1234F with token=abc123secret")
        request_id = g.request_id
    entry = json.loads(stream.getvalue())
    assert set(entry) == {"time", "level", "logger", "request_id", "user_id", "merchant_id",
                          "message"}
    assert entry["request_id"] == request_id
    assert (entry["level"], entry["logger"]) == ("WARNING", "tests.ops.json")
    assert (entry["user_id"], entry["merchant_id"]) == (user_id, 42)
    assert "ABCPE1234F" not in entry["message"] and "abc123secret" not in entry["message"]
    assert "[REDACTED]" in entry["message"]


def test_an_unknown_log_format_stops_a_production_start(tmp_path):
    environ = {**production_environment(tmp_path), "LOG_FORMAT": "xml"}
    with pytest.raises(ConfigError, match="LOG_FORMAT must be one of: text, json"):
        settings_from_env(environ).check()
    assert settings_from_env({**environ, "LOG_FORMAT": " JSON "}).check().log_format == "json"
