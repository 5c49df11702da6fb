"""Every API route and every scope: each route is an operation of the table and names its
scope (the payments and webhooks routes listed by name); a key without that scope is refused on
it (403), one with it is not."""

from __future__ import annotations

import re

import pytest

from portal.domain.api.scopes import Scope
from portal.features.api.operations import OPERATIONS, Operation
from tests.api.support import Api

#: What the API serves to anyone: its description.
DOCUMENTS = {"api.openapi", "api.reference"}


def url_of(op: Operation) -> str:
    """The operation's path with 1 for every id, and the bank step."""
    return re.sub(r"<any\([^)]*\):step_key>", "bank", re.sub(r"<int:\w+>", "1", op.rule))


def call(api: Api, op: Operation):
    """Call ``op`` with an empty body."""
    if op.method == "PUT":
        return api.client.put("/api/v1" + url_of(op), json={}, headers=api.headers())
    return api.get(url_of(op)) if op.method == "GET" else api.post(url_of(op), {})


def test_every_route_under_the_prefix_is_an_operation_with_a_scope(app):
    routed = {(rule.endpoint, method) for rule in app.url_map.iter_rules()
              if rule.rule.startswith("/api/") for method in rule.methods - {"HEAD", "OPTIONS"}}
    declared = {(op.endpoint, op.method) for op in OPERATIONS}
    assert routed - declared == {(name, "GET") for name in DOCUMENTS}
    assert declared <= routed
    assert all(isinstance(op.scope, Scope) for op in OPERATIONS)
    payments = {op.endpoint for op in OPERATIONS if op.scope == Scope.PAYMENTS}
    assert payments == {"api.list_payments", "api.read_payment", "api.create_hold",
                        "api.capture", "api.release", "api.refund",
                        "api.create_payment_link", "api.read_payment_link",
                        "api.resend_payment_link", "api.cancel_payment_link"}
    webhooks = {op.endpoint for op in OPERATIONS if op.scope == Scope.WEBHOOKS}
    assert webhooks == {"api.list_webhook_endpoints", "api.create_webhook_endpoint",
                        "api.rotate_webhook_secret", "api.disable_webhook_endpoint",
                        "api.list_webhook_deliveries", "api.send_webhook_again"}


@pytest.mark.parametrize("op", OPERATIONS, ids=lambda op: op.endpoint)
def test_a_key_without_the_scope_is_refused(client, issue_key, op: Operation):
    others = [scope for scope in Scope if scope != op.scope]
    answer = call(Api(client, issue_key(*others)), op)
    assert answer.status_code == 403, answer.json
    assert f"'{op.scope}'" in answer.json["detail"]


@pytest.mark.parametrize("op", OPERATIONS, ids=lambda op: op.endpoint)
def test_a_key_with_only_the_scope_gets_past_it(client, issue_key, op: Operation):
    answer = call(Api(client, issue_key(op.scope)), op)
    assert answer.status_code not in (401, 403), answer.json


@pytest.mark.parametrize("op", OPERATIONS, ids=lambda op: op.endpoint)
def test_no_key_is_a_401(client, op: Operation):
    answer = call(Api(client, "pop_nothing_here"), op)
    assert answer.status_code == 401 and answer.mimetype == "application/problem+json"
