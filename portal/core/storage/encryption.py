"""Server-side encryption of stored objects: asked for when the store offers it.

How the portal tells, once per process, before its first write:

1. It reads the bucket's default encryption (GetBucketEncryption). A bucket with a default rule
   encrypts every object written to it as its owner chose (SSE-S3 or SSE-KMS): the portal asks
   for nothing more, so it never overrides a KMS key with its own choice.
2. A bucket without one (``ServerSideEncryptionConfigurationNotFoundError``), or a store that
   will not say (no permission, or the call not implemented), gets ``AES256`` (SSE-S3) asked
   for on every object.
3. A store that refuses that request as something it does not offer (MinIO without a KMS,
   some Ceph gateways: ``NotImplemented``, ``InvalidRequest``, ...) gets the object written
   again without it, and the portal logs once, as a warning, that objects are not encrypted
   at rest by the store; it asks no more in that process.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: What the portal asks for on each object when the bucket has no default rule.
ASKED = {"ServerSideEncryption": "AES256"}
#: The bucket has no default encryption.
NO_DEFAULT = "ServerSideEncryptionConfigurationNotFoundError"
#: Error codes of a store refusing server-side encryption as something it does not offer.
NOT_OFFERED = frozenset({"NotImplemented", "InvalidRequest", "InvalidArgument",
                         "InvalidEncryptionAlgorithmError", "KMS.NotConfigured",
                         "KMSNotConfigured", "UnsupportedEncryption"})


@dataclass(frozen=True)
class Encryption:
    """What to send with each object written, and how objects are kept, in words."""

    arguments: dict[str, str]
    words: str


def from_bucket(answer: dict[str, Any] | None, error_code: str = "") -> Encryption:
    """The choice after reading the bucket's default encryption: its ``answer``, or the
    ``error_code`` of a read that failed."""
    rules = (answer or {}).get("ServerSideEncryptionConfiguration", {}).get("Rules", [])
    algorithms = [rule.get("ApplyServerSideEncryptionByDefault", {}).get("SSEAlgorithm", "")
                  for rule in rules]
    named = [algorithm for algorithm in algorithms if algorithm]
    if named and not error_code:
        return Encryption({}, f"encrypted by the store: the bucket's default ({named[0]})")
    reason = ("the bucket has no default encryption" if error_code == NO_DEFAULT
              else "the store did not say how the bucket encrypts")
    return Encryption(dict(ASKED), f"encrypted by the store: AES256 asked for on each object "
                                   f"({reason})")


def refused(error_code: str) -> bool:
    """Whether a write's error says the store does not offer the encryption asked for."""
    return error_code in NOT_OFFERED or error_code.startswith("KMS.")


#: Objects written without encryption: the store refused it.
NONE = Encryption({}, "not encrypted by the store: it refused server-side encryption (AES256)")
