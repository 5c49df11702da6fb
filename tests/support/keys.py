"""RSA key pairs for the tests: merchants' signing keys and the sandbox gateway's own key."""

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

