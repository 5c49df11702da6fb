"""What the folder's tests share, for them and other folders' to
import (a test imports no conftest and no other test module)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]


def shared_dir() -> Path:
    """``PORTAL_SHARED_DIR``, or ``shared/`` beside the repository (as CI clones it)."""
    return Path(os.environ.get("PORTAL_SHARED_DIR") or REPO_ROOT.parent / "shared")


def require_shared(relative: Path | str) -> Path:
    """A path under the shared folder; skip when it is absent (fail under ``CI=true``)."""
    path = shared_dir() / relative
    if not path.exists():
        message = f"{path} is absent (set PORTAL_SHARED_DIR to the shared folder)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return path


@dataclass(frozen=True)
class SdkConfig:
    """What goes into the SDK's ``payglocalconfig.ini`` (and the PEM files it names)."""

    mid: str
    kid: str
    private_pem: str
    gateway_public_pem: str
    gateway_kid: str
    parent_mid: str = ""
    #: The SDK sends ``x-gl-enc: "true"`` for any non-empty value and ``"false"`` when empty.
    encrypt_payload: str = "true"

    def ini(self) -> str:
        """The config file's text, keys spelled as the SDK reads them."""
        lines = {
            "glocal.merchant.encryptPayload": self.encrypt_payload,
            "glocal.merchant.sendTransaction": "true",
            "glocalMerchant.parentMid": self.parent_mid,
            "glocalMerchant.mid": self.mid,
            "glocalMerchant.privateKey.pemFilelLocation": "resources/keys/merchant.pem",
            "glocalMerchant.privateKey.kid": self.kid,
            "glocal.publicKey.pemFileLocation": "resources/keys/payglocal.pem",
            "glocal.publicKey.kid": self.gateway_kid,
            "glocalMerchant.status.payload": "/gl/v1/payments/<gid>/status",
            "glocalMerchant.jws.verify.token": "",
            "logging.level": "WARNING",
        }
        return "[Properties]\n" + "".join(f"{k} = {v}\n" for k, v in lines.items())
