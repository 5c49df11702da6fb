"""Every API operation declared once: its route, the scope it needs, the typed models its body,
query and answer are validated and written with (the OpenAPI document is built from the same
table), and the one wrapper every call goes through.

A call: the bearer key is checked, then its scope, then its rate; a POST with an
Idempotency-Key is claimed; the query and body are validated; the view runs with the key's
actor; the call is audited with the key's name as who did it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any

from flask import Response, json, request
from pydantic import BaseModel

from portal.core import clock
from portal.core.db import db
from portal.core.models.api_key import ApiKey
from portal.domain.api import idempotency, keys, rate_limit
from portal.domain.api.scopes import Scope
from portal.domain.audit.service import Actor, record
from portal.features.api.blueprint import bp
from portal.features.api.problems import Problem, problem_response
from portal.gateway.shapes import FieldError, validate_payload
from portal.web.auth.access import public
from portal.web.http import reads_raw_body
from portal.web.uploads import reads_oversize_uploads

IDEMPOTENCY_HEADER = "Idempotency-Key"
BEARER = "Bearer "


@dataclass(frozen=True)
class Operation:
    """One API operation, as routed, authorised and documented."""

    endpoint: str
    method: str
    rule: str
    scope: Scope
    summary: str
    answer: type[BaseModel]
    status: int = 200
    body: Any = None
    query: type[BaseModel] | None = None
    #: The body's file fields: the body is multipart/form-data, its other fields ``body``'s.
    files: tuple[str, ...] = ()


@dataclass(frozen=True)
class Call:
    """What a view gets: the key, who it acts as, the validated body and query."""

    key: ApiKey
    actor: Actor
    body: Any = None
    query: Any = None


@dataclass(frozen=True)
class Answer:
    """What a view returns: a typed answer, its status and where the new thing is."""

    model: BaseModel
    status: int = 200
    location: str = ""
    #: What an Idempotency-Key keeps to give again, when it must differ from ``model`` (a
    #: secret shown once is not kept); None: ``model`` itself.
    kept: BaseModel | None = None


#: Every operation, in the order routes were declared.
OPERATIONS: list[Operation] = []


def operation(rule: str, method: str, *, scope: Scope, summary: str,
              answer: type[BaseModel], status: int = 200, body: Any = None,
              query: type[BaseModel] | None = None,
              files: tuple[str, ...] = ()) -> Callable[[Callable[..., Answer]], Any]:
    """Declare and route one operation; the view takes a :class:`Call` and the path's values
    (``files``: the multipart body's file fields, read from ``request.files`` by the view)."""

    def decorator(view: Callable[..., Answer]) -> Any:
        op = Operation(f"api.{view.__name__}", method, rule, scope, summary, answer, status,
                       body, query, files)

        @wraps(view)
        def run(**path: Any) -> Response:
            try:
                return _run(op, view, path)
            except Problem as problem:
                db.session.rollback()
                return problem_response(problem)

        guarded = reads_raw_body(public(run))  # the key, not a session, is checked
        if files:  # an oversize file is cut short and refused in words, as on the page
            guarded = reads_oversize_uploads(guarded)
        bp.add_url_rule(rule, endpoint=view.__name__, view_func=guarded, methods=[method])
        OPERATIONS.append(op)
        return guarded

    return decorator


def _key() -> ApiKey:
    header = request.headers.get("Authorization", "")
    key = keys.authenticate(header[len(BEARER):].strip(), clock.utcnow()) \
        if header.startswith(BEARER) else None
    if key is None:
        raise Problem(401, "Send a valid, unrevoked and unexpired API key as "
                           "'Authorization: Bearer pop_...'.",
                      headers={"WWW-Authenticate": 'Bearer realm="api"'})
    return key


def _check_scope_and_rate(op: Operation, key: ApiKey) -> None:
    if op.scope not in key.scopes:
        raise Problem(403, f"This key lacks the scope '{op.scope}' this operation needs; an "
                           "admin can create a key that has it.")
    wait = rate_limit.count_call(key, clock.utcnow())
    if wait is not None:
        raise Problem(429, f"This key may make {key.per_minute} calls a minute; wait {wait} "
                           "seconds.", headers={"Retry-After": str(wait)})
    return key


def _validated(shape: Any, data: Any) -> Any:
    value, errors = validate_payload(shape, data)
    if errors:
        raise Problem(422, "Please correct the fields named in 'errors'.", errors)
    return value


def _body(op: Operation) -> Any:
    if op.body is None:
        return None
    if op.files:
        return _form_body(op)
    if not request.is_json:
        raise Problem(415, "Send the body as JSON, with 'Content-Type: application/json'.")
    try:
        data = json.loads(request.get_data() or b"null")
    except ValueError:
        raise Problem(400, "The body is not valid JSON.") from None
    _validated(op.body, data)
    return data


def _form_body(op: Operation) -> dict[str, Any]:
    """A multipart body's text fields, validated with the files named as present."""
    if request.mimetype != "multipart/form-data":
        raise Problem(415, "Send the body as multipart/form-data, the file in "
                           f"'{op.files[0]}'.")
    missing = [FieldError(name, "Choose a file to upload.") for name in op.files
               if not (request.files.get(name) and request.files[name].filename)]
    if missing:
        raise Problem(422, "Please correct the fields named in 'errors'.", missing)
    data = {**request.form.to_dict(), **dict.fromkeys(op.files, "")}
    _validated(op.body, data)
    return request.form.to_dict()


def _body_print(op: Operation) -> bytes:
    """What an Idempotency-Key's fingerprint covers of the body: its bytes, or for a
    multipart body its fields and each file's bytes (read as capped, then rewound)."""
    if not op.files:
        return request.get_data()
    digest = hashlib.sha256()
    for name, value in sorted(request.form.items(multi=True)):
        digest.update(f"{name}={value}\n".encode())
    for name, upload in sorted(request.files.items(multi=True)):
        digest.update(f"{name}:{upload.filename}\n".encode())
        digest.update(upload.stream.read())
        upload.stream.seek(0)
    return digest.hexdigest().encode()


def _run(op: Operation, view: Callable[..., Answer], path: dict[str, Any]) -> Response:
    key = _key()
    actor = keys.actor_of_key(key)
    claimed = None
    given = request.headers.get(IDEMPOTENCY_HEADER)
    try:
        _check_scope_and_rate(op, key)
        if op.method == "POST" and given is not None:
            claimed = _claim(key, given, _body_print(op))
            if claimed.row is None:
                _finish(key, actor, op, claimed.replay.status or 200, None, None, "")
                return _replayed(claimed)
        query = _validated(op.query, request.args.to_dict()) if op.query else None
        answer = view(Call(key, actor, _body(op), query), **path)
    except Problem as problem:
        _finish(key, actor, op, problem.status, claimed, problem.body(), "")
        return problem_response(problem)
    except Exception:
        db.session.rollback()
        if claimed is not None and claimed.row is not None:
            idempotency.keep(claimed.row, 500, None, "")
        raise
    document = answer.model.model_dump(mode="json")
    _finish(key, actor, op, answer.status, claimed,
            document if answer.kept is None else answer.kept.model_dump(mode="json"),
            answer.location)
    response = Response(json.dumps(document), status=answer.status, mimetype="application/json")
    if answer.location:
        response.headers["Location"] = answer.location
    return response


def _claim(key: ApiKey, given: str, body: bytes) -> idempotency.Claim:
    if not given.strip() or len(given) > idempotency.KEY_MAX:
        raise Problem(400, f"An Idempotency-Key is 1 to {idempotency.KEY_MAX} characters.")
    print_ = idempotency.fingerprint(request.method, request.full_path, body)
    claimed = idempotency.claim(key.id, given, print_, clock.utcnow())
    if claimed.conflict:
        raise Problem(claimed.status, claimed.conflict)
    return claimed


def _replayed(claimed: idempotency.Claim) -> Response:
    first = claimed.replay
    assert first is not None
    mimetype = "application/json" if first.status < 400 else "application/problem+json"
    response = Response(json.dumps(first.answer), status=first.status, mimetype=mimetype)
    response.headers["Idempotent-Replayed"] = "true"
    if first.location:
        response.headers["Location"] = first.location
    return response


def _finish(key: ApiKey, actor: Actor, op: Operation, status: int,
            claimed: idempotency.Claim | None, document: Any, location: str) -> None:
    """Audit the call as the key's, note its use, keep the answer for its Idempotency-Key."""
    if status >= 400:
        db.session.rollback()  # a refused call leaves nothing of its own half-done
    key = db.session.merge(key)
    keys.note_use(key, clock.utcnow())
    record("api.call", actor=actor, outcome="ok" if status < 400 else "refused",
           detail={"operation": op.endpoint, "method": op.method, "path": request.path,
                   "status": status})
    db.session.commit()
    if claimed is not None and claimed.row is not None:
        idempotency.keep(claimed.row, status, document, location)
