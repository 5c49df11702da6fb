"""The sandbox served on loopback for a whole run and reset between tests.

Building a sandbox for every test cost an app, its routes and a thread per test; one served
sandbox per session (per xdist worker) is reset instead: every record, log, fault, webhook
registration and registered payments key forgotten, the config's values back (tests change
``webhookUrl`` or the status names) and the clock back to real time or to the start it was
given.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from typing import Any

from portal.clock import Clock
from portal.sandbox.app import create_sandbox_app, state_of
from portal.sandbox.config import SandboxConfig, config_from
from portal.sandbox.onboarding.backend import OnboardingBackend
from portal.sandbox.payments.backend import PaymentsBackend
from portal.sandbox.state import BACKEND_NAME, SandboxState
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
        return self.state.backends[BACKEND_NAME]

    @property
    def payments(self) -> PaymentsBackend:
        """The payments API's backend."""
        return self.state.backends["payments"]

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
                             built_payments=containers_copied(vars(state.backends["payments"])))
