"""The sandbox served on loopback for a whole run and reset between tests.

Building a sandbox for every test cost an app, its routes and a thread per test; one served
sandbox per session (per xdist worker) is reset instead: every record, log, fault, webhook
registration and registered payments key forgotten, the config's values back (tests change
``webhookUrl`` or the status names) and the clock back to real time or to the start it was
given.

Answer dialects (``portal.sandbox.common.dialect``): a test that asks for the ``answer_dialect``
fixture runs once per dialect, ``contract`` then ``docs``, with its sandbox speaking it (the
fixture's value is the dialect's name); the reset before the next test puts the config's dialect
back, so tests that do not ask for it are left as they were. ``tests/support/dialects.py`` (a
plugin of ``tests/conftest.py``) makes it over the suite's ``sandbox`` (so the browser tests'
``localhost`` one too, which overrides ``sandbox``); ``tests/sandbox/conftest.py`` over
``sandbox_server``, ``tests/sandbox/payments`` over its own ``sandbox``; another folder makes
its own with :func:`answer_dialect_fixture`. :func:`speak` switches a sandbox by hand.
``SANDBOX_ANSWER_DIALECT=docs`` in the environment makes the suite's sandbox speak the docs by
default (``suite_dialect``), to see which tests depend on the contract's shapes.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from typing import Any

import pytest

from portal.core.clock import Clock
from portal.sandbox.app import create_sandbox_app, state_of
from portal.sandbox.common.config import SandboxConfig, config_from
from portal.sandbox.common.dialect import AnswerDialect
from portal.sandbox.onboarding.backend import OnboardingBackend
from portal.sandbox.payments.backend import PaymentsBackend
from portal.sandbox.state import SandboxState
from tests.support.dialect_reads import READS, keep_proof, proof_for, proofs, skip_if_proven
from tests.support.keys import KeyPair, new_key_pair
from tests.support.servers import serve


@dataclass
class RunningSandbox:
    """The sandbox served on loopback, with its state, backends and clock at hand."""

    url: str
    state: SandboxState
    clock: Clock
    #: The config as it was built: :meth:`reset` puts its values back.
    pristine: SandboxConfig
    #: Where :meth:`reset` stops the clock (None: real time).
    start: datetime | None = None
    #: The payments backend's attributes as built: :meth:`reset` puts copies back.
    built_payments: dict[str, Any] = field(default_factory=dict)

    @property
    def backend(self) -> OnboardingBackend:
        """The onboarding API's backend."""
        return self.state.onboarding

    @property
    def payments(self) -> PaymentsBackend:
        """The payments API's backend."""
        return self.state.payments

    def reset(self) -> RunningSandbox:
        """Back to how it was served: no records, the config's values, the clock at its start."""
        config = self.state.config
        for name in type(config).model_fields:
            setattr(config, name, getattr(self.pristine, name))
        self.pristine = self.pristine.model_copy(deep=True)
        self.state.reset()
        # The payments API's reset keeps registered keys (the portal registers them once), but
        # a test may register a fixed kid or portfolio: the backend's state goes back to how it
        # was built, in place (its routes hold it); building it again would load the gateway's
        # RSA key each time (a tenth of a second).
        vars(self.payments).update(containers_copied(self.built_payments))
        Clock.__init__(self.clock, self.start)
        return self


def containers_copied(attributes: dict[str, Any]) -> dict[str, Any]:
    """``attributes`` with every dict, list and set in them copied (nested in dicts too), so
    a test's changes never reach the originals; anything else (locks, keys) is shared."""
    def copied(value: Any) -> Any:
        if isinstance(value, dict):
            return {key: copied(item) for key, item in value.items()}
        if isinstance(value, list | set):
            return type(value)(value)
        return value
    return {name: copied(value) for name, value in attributes.items()}


@cache
def gateway_key() -> KeyPair:
    """The sandbox gateway's key pair for the run (one RSA key made per process, not per
    sandbox)."""
    return new_key_pair()


@contextmanager
def serve_sandbox(config: dict[str, Any], host: str = "127.0.0.1",
                  start: datetime | None = None) -> Iterator[RunningSandbox]:
    """A sandbox built from ``config`` (the config file's JSON shape), served on a loopback
    port of ``host``, its clock stopped at ``start`` if given."""
    built = config_from({"gatewayPrivateKeyPem": gateway_key().private_pem, **config})
    clock = Clock(start)
    app = create_sandbox_app(built, clock=clock)
    state = state_of(app)
    with serve(app, host=host) as url:
        yield RunningSandbox(url=url, state=state, clock=clock,
                             pristine=built.model_copy(deep=True), start=start,
                             built_payments=containers_copied(vars(state.payments)))


# ---------------------------------------------------------------- answer dialects

#: The answer dialects, in the order a parametrized test runs them.
DIALECTS = tuple(str(dialect) for dialect in AnswerDialect)
#: Names the dialect the suite's sandbox speaks when a test asks for none.
DIALECT_ENV = "SANDBOX_ANSWER_DIALECT"


def suite_dialect() -> dict[str, str]:
    """The config entry of ``SANDBOX_ANSWER_DIALECT`` ({} when unset: the sandbox's default)."""
    dialect = os.environ.get(DIALECT_ENV, "")
    return {"answerDialect": dialect} if dialect else {}


def speak(running: RunningSandbox, dialect: str) -> str:
    """Make ``running`` answer in ``dialect`` until its next reset; return the dialect."""
    running.state.config.answerDialect = AnswerDialect(dialect)
    return dialect


def answer_dialect_fixture(server: str) -> Callable[..., str]:
    """An ``answer_dialect`` fixture over the fixture named ``server`` (a reset
    :class:`RunningSandbox`): the test runs once per dialect, its sandbox speaking it."""

    @pytest.fixture(params=DIALECTS)
    def answer_dialect(request: pytest.FixtureRequest) -> Iterator[str]:
        """The sandbox speaking each answer dialect in turn; the value is its name. A docs run
        whose contract run never read the dialect is skipped (tests/support/dialect_reads.py)."""
        proof = proof_for(proofs(request), request.node.nodeid)
        skip_if_proven(proof, request.param)
        spoken = speak(request.getfixturevalue(server), request.param)
        READS.restart()
        yield spoken
        keep_proof(proof, request.param)

    return answer_dialect
