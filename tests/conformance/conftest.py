"""The gateway's official Python SDK as an oracle: where it lives, and how to load it.

The SDK (MIT) stays where the project keeps third-party reference code,
``<repo>/../shared/vendor/payglocal-python-sdk`` (``PORTAL_SHARED_DIR`` overrides ``../shared``);
nothing of it is copied here. Where it is absent the tests skip, and under ``CI=true`` they fail.

The SDK reads ``resources/payglocalconfig.ini`` from the working directory when its modules are
imported, so :func:`load_sdk` writes a config and the PEM files into a temporary folder, changes
into it and imports fresh copies of the modules from the shared path.

``payments_sandbox`` is the payments tests' sandbox (a plain merchant ``MID``, ``OTHER_MID``,
the portfolio ``PARENT_MID`` signing for ``MID`` and ``SUB_MID``, the gateway's key), reset for
each test. The suite's own ``sandbox`` fixture (the onboarding partner) is left as it is.
"""

from __future__ import annotations

import importlib.util
import logging
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.conformance.support import SdkConfig, require_shared
from tests.sandbox.payments.support import (
    gateway_keys,
    http,
    merchant_keys,
    other_merchant_keys,
    parent_keys,
    served_payments,
    stranger_keys,
)
from tests.support.sandbox import RunningSandbox

__all__ = [
    "Sdk", "SdkConfig", "gateway_keys", "http", "load_sdk", "merchant_keys",
    "other_merchant_keys", "parent_keys", "payments_sandbox", "served_payments",
    "stranger_keys",
]

SDK_FOLDER = Path("vendor") / "payglocal-python-sdk"


@pytest.fixture
def payments_sandbox(served_payments: RunningSandbox) -> RunningSandbox:
    """The payments sandbox on loopback with every payment forgotten."""
    return served_payments.reset()


@pytest.fixture(scope="session")
def sdk_dir() -> Path:
    """The official Python SDK's folder (skips where absent, fails under CI)."""
    return require_shared(SDK_FOLDER)


@dataclass(frozen=True)
class Sdk:
    """A loaded copy of the SDK: its JwtHelper and the keys its PemFileHelper read."""

    jwt: Any
    private_key: Any
    public_key: Any

    def jwe(self, payload: str) -> str:
        """The SDK's JWE of ``payload`` (to the gateway's public key)."""
        return self.jwt.create_jwe_token(payload, self.public_key)

    def jws(self, signed: str) -> str:
        """The SDK's ``x-gl-token-external`` over ``signed`` (a JWE body, a JSON body or a path)."""
        return self.jwt.create_jws_token_with_rsa(signed, self.private_key)

    def verify(self, token: str) -> bool:
        """The SDK's check of a gateway-signed token against the gateway's public key."""
        return self.jwt.verify_jwt_token(token, self.public_key)


def _import(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def load_sdk(sdk_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
             ) -> Callable[[SdkConfig], Sdk]:
    """Load a fresh copy of the SDK configured with ``SdkConfig`` (one folder per call)."""
    counter = iter(range(1000))

    def load(config: SdkConfig) -> Sdk:
        folder = tmp_path / f"sdk{next(counter)}"
        keys = folder / "resources" / "keys"
        keys.mkdir(parents=True)
        (folder / "resources" / "payglocalconfig.ini").write_text(config.ini(), encoding="utf-8")
        (keys / "merchant.pem").write_text(config.private_pem, encoding="utf-8")
        (keys / "payglocal.pem").write_text(config.gateway_public_pem, encoding="utf-8")
        monkeypatch.chdir(folder)
        root = logging.getLogger()
        level, handlers = root.level, list(root.handlers)
        try:  # its modules read the config at import and call logging.basicConfig
            monkeypatch.setitem(sys.modules, "properties_reader",
                                _import(sdk_dir / "properties_reader.py", "properties_reader"))
            pem = _import(sdk_dir / "pem_file_helper.py", "payglocal_pem_file_helper")
            jwt = _import(sdk_dir / "jwt_helper.py", "payglocal_jwt_helper")
        finally:
            root.setLevel(level)
            root.handlers[:] = handlers
        keys_read = pem.PemFileHelper()
        return Sdk(jwt.JwtHelper(), keys_read.get_private_key(), keys_read.get_public_key())

    return load
