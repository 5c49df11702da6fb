"""RSA key pairs for the tests: merchants' signing keys and the sandbox gateway's own key, and
the pool the portal's generated keys come from in tests."""

from __future__ import annotations

from dataclasses import dataclass

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa


@dataclass(frozen=True)
class KeyPair:
    """An RSA key pair as PEM text."""

    private_pem: str
    public_pem: str


def new_key_pair() -> KeyPair:
    """A fresh 2048-bit RSA key pair."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption())
    public = key.public_key().public_bytes(serialization.Encoding.PEM,
                                           serialization.PublicFormat.SubjectPublicKeyInfo)
    return KeyPair(private.decode("ascii"), public.decode("ascii"))


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
