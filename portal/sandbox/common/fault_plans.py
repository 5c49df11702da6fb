"""What the sandbox's faults are: their kinds and the plan a config file or a control arms
(the injector that applies them is ``portal.sandbox.faults``)."""

from __future__ import annotations

import re
from enum import StrEnum
from fnmatch import fnmatchcase
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import AfterValidator, ConfigDict, Field
from pydantic.dataclasses import dataclass as model

from portal.gateway.onboarding import operations as onboarding_shapes
from portal.gateway.payments import operations as payments_shapes

if TYPE_CHECKING:
    pass


#: The longest a fault may hold a request.
MAX_SECONDS = 600.0

#: Each operation of either API as (method, full-match pattern of its path).
_OPERATIONS = {
    op.name: (op.method, re.compile("[^/]+".join(
        re.escape(part) for part in re.split(r"\{[^}]+\}", op.path))))
    for op in (*onboarding_shapes.OPERATIONS.values(), *payments_shapes.OPERATIONS.values())
}


class FaultKind(StrEnum):
    """What a fault does to the request it hits."""

    LATENCY = "latency"
    ERROR = "error"
    RESET = "reset"
    TIMEOUT = "timeout"
    LOST = "lost"


def _known_operation(name: str) -> str:
    if name not in _OPERATIONS:
        raise ValueError("Not an operation of the onboarding or payments API")
    return name


@model(frozen=True, config=ConfigDict(extra="forbid"))
class Fault:
    """One fault: what it does, which requests it hits, and how many of them."""

    kind: FaultKind
    method: Literal["GET", "POST", "PUT", "PATCH", "DELETE"] | None = None
    #: A glob over the request path (``*`` also crosses ``/``).
    path: str | None = None
    #: An operation name of either API's ``OPERATIONS`` (``create_onboarding``, ``capture``).
    operation: Annotated[str, AfterValidator(_known_operation)] | None = None
    #: Hit only the next N matching requests; None: every one.
    times: Annotated[int, Field(ge=1)] | None = None
    #: The chance that a matching request is hit.
    rate: Annotated[float, Field(ge=0, le=1)] = 1.0
    #: The latency, or how long a timeout holds the answer.
    seconds: Annotated[float, Field(ge=0, le=MAX_SECONDS)] = 0.0
    status: Literal[429, 500, 501, 502, 503, 504] = 503
    #: For an error: the seconds its ``Retry-After`` header asks the client to wait (none: no
    #: header).
    retryAfter: Annotated[int, Field(ge=0, le=MAX_SECONDS)] | None = None
    #: For a timeout: drop the connection after holding instead of answering.
    drop: bool = False

    def matches(self, method: str, path: str) -> bool:
        """Whether a request falls under this fault's method, path and operation."""
        if self.method is not None and self.method != method:
            return False
        if self.path is not None and not fnmatchcase(path, self.path):
            return False
        if self.operation is None:
            return True
        op_method, pattern = _OPERATIONS[self.operation]
        return op_method == method and pattern.fullmatch(path) is not None


@model(frozen=True, config=ConfigDict(extra="forbid"))
class FaultPlan:
    """The faults armed together, first match wins, and the seed of their ``rate`` draws."""

    faults: tuple[Fault, ...] = ()
    seed: int = 0
