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
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any

from portal.sandbox.app import SandboxState, create_sandbox_app, state_of
from portal.sandbox.clock import Clock
from portal.sandbox.config import SandboxConfig, config_from
from portal.sandbox.install import BACKEND_NAME
from portal.sandbox.onboarding_backend import OnboardingBackend
from portal.sandbox.payments_backend import PaymentsBackend
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
        # a test may register a fixed kid or portfolio: its backend is built again, in place
        # (its routes hold it), from the config, whose gateway key is fixed at serve time.
        PaymentsBackend.__init__(self.payments, config, self.clock)
        Clock.__init__(self.clock, self.start)
        return self


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
    with serve(app, host=host) as url:
        yield RunningSandbox(url=url, state=state_of(app), clock=clock,
                             pristine=built.model_copy(deep=True), start=start)
