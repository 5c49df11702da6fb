"""The pool the portal's generated RSA keys come from in tests (a plugin of
``tests/conftest.py``, so its fixture is every test's)."""

from __future__ import annotations

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa


class KeyPool:
    """RSA-2048 private keys made once per process and handed out in turn, from the first again
    at each test (:meth:`restart`): distinct within a test, the same ones across tests. A test
    has its own database and a reset sandbox, so no test meets another's key; generating one
    (about 60 ms of CPU) and importing it to sign (about 35 ms) was paid for every credentials
    page a test sent."""

    def __init__(self) -> None:
        self._keys: list[rsa.RSAPrivateKey] = []
        self._given = 0

    def restart(self) -> None:
        """Hand out the first key next."""
        self._given = 0

    def __call__(self) -> rsa.RSAPrivateKey:
        """The next key (made now if the pool has no more)."""
        if self._given == len(self._keys):
            self._keys.append(rsa.generate_private_key(public_exponent=65537, key_size=2048))
        self._given += 1
        return self._keys[self._given - 1]


#: The keys the portal generates for merchants' credentials in this process's tests.
GENERATED_KEYS = KeyPool()


@pytest.fixture(autouse=True)
def pooled_generated_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    """The portal's generated RSA keys come from ``GENERATED_KEYS`` (distinct within a test;
    a fixture of every test, as ``tests/conftest.py`` loads this module as a plugin)."""
    GENERATED_KEYS.restart()
    monkeypatch.setattr("portal.domain.payments.credentials.generate_key", GENERATED_KEYS)
