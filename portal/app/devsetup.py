"""Write the development configuration on first run: fresh random secrets under ``instance/``.

``instance/portal.env`` configures the portal; ``instance/sandbox.json`` configures the sandbox
with the same partner key and secret, so the two talk to each other out of the box (``make run``
then registers the portal's webhook through the sandbox's webhook API). Existing secrets are kept,
so they stay stable across runs; secrets added by a later version are appended. The folder is
owner-only (0700) and the files holding secrets 0600, whatever the umask.
"""

from __future__ import annotations

import argparse
import base64
import json
import secrets
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from dotenv import dotenv_values
from joserfc.jwk import RSAKey

from portal.core.config_fields import DEV_ENV_FILE, INSTANCE
from portal.core.private_files import make_private, private_folder, write_private

#: The development partner's MID: its id in the sandbox, GATEWAY_PARTNER_MID in the portal.
DEV_PARTNER_MID = "dev-partner"
#: The sandbox gateway's public key, beside the env file.
GATEWAY_PUBLIC_PEM = "gateway_public.pem"


def _rsa_pair() -> tuple[str, str]:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption()).decode()
    public = key.public_key().public_bytes(serialization.Encoding.PEM,
                                           serialization.PublicFormat.SubjectPublicKeyInfo).decode()
    return private, public


def _write_private(path: Path, text: str) -> None:
    write_private(path, text.encode("utf-8"))


def _env_text(env: dict[str, str]) -> str:
    return "".join(f"{k}={v}\n" for k, v in env.items())


def _fernet_key() -> str:
    return base64.urlsafe_b64encode(secrets.token_bytes(32)).decode()


def local_secrets() -> dict[str, str]:
    """Fresh secrets only the portal uses (the sandbox shares none of them)."""
    return {"SECRET_KEY": secrets.token_urlsafe(48), "CREDENTIALS_KEY": _fernet_key(),
            "KYC_ENCRYPTION_KEYS": _fernet_key(), "PAN_INDEX_KEY": secrets.token_hex(32)}


def gateway_key_id(public_pem: str) -> str:
    """The key id the sandbox gives its gateway key: the key's RFC 7638 thumbprint."""
    return RSAKey.import_key(public_pem).thumbprint()


def _later_settings(instance: Path) -> dict[str, str]:
    """Settings a later version added that an older env file can be completed with."""
    public = instance / GATEWAY_PUBLIC_PEM
    return {"GATEWAY_KEY_ID": gateway_key_id(public.read_text(encoding="utf-8"))} \
        if public.is_file() else {}


def _complete(env_file: Path) -> None:
    """Append the local secrets (and later settings) an older env file lacks, and make it
    owner-only."""
    text = env_file.read_text(encoding="utf-8")
    present = dotenv_values(env_file)
    added = {**local_secrets(), **_later_settings(env_file.parent)}
    missing = {k: v for k, v in added.items() if k not in present}
    separator = "" if not text or text.endswith("\n") else "\n"
    _write_private(env_file, text + separator + _env_text(missing))


def write_dev_config(instance: Path, portal_port: int, sandbox_port: int,
                     mail_port: int = 8025) -> bool:
    """Create the portal's env file and the sandbox's config if missing; True when created."""
    env_file = instance / "portal.env"
    private_folder(instance)
    if env_file.exists():
        _complete(env_file)
        if (instance / "sandbox.json").exists():
            make_private(instance / "sandbox.json")
        return False
    api_key = "pk_dev_" + secrets.token_hex(8)
    api_secret = secrets.token_urlsafe(32)
    gateway_private, gateway_public = _rsa_pair()
    (instance / GATEWAY_PUBLIC_PEM).write_text(gateway_public, encoding="utf-8")
    sandbox_url = f"http://127.0.0.1:{sandbox_port}"
    sandbox = {
        "partners": [{"partnerId": DEV_PARTNER_MID,
                      "keys": [{"apiKey": api_key, "apiSecret": api_secret, "active": True}]}],
        "merchants": [],
        "gatewayPrivateKeyPem": gateway_private,
    }
    _write_private(instance / "sandbox.json", json.dumps(sandbox, indent=2))
    env = {
        "PORTAL_ENV": "development",
        "GATEWAY_ONBOARDING_URL": sandbox_url,
        "GATEWAY_PAYMENTS_URL": sandbox_url,
        "GATEWAY_API_KEY": api_key,
        "GATEWAY_API_SECRET": api_secret,
        "GATEWAY_PARTNER_MID": DEV_PARTNER_MID,
        "GATEWAY_WEBHOOK_SECRETS": api_secret,
        "GATEWAY_PUBLIC_KEY_FILE": str(instance / GATEWAY_PUBLIC_PEM),
        "GATEWAY_KEY_ID": gateway_key_id(gateway_public),
        "GATEWAY_IS_SANDBOX": "true",
        "PORTAL_URL": f"http://127.0.0.1:{portal_port}",
        "MAIL_PORT": str(mail_port),
        **local_secrets(),
    }
    _write_private(env_file, _env_text(env))
    return True


def main(argv: list[str] | None = None) -> None:
    """Command line: ``python -m portal.app.devsetup --portal-port 5000 --sandbox-port 8100
    --mail-port 8025``."""
    parser = argparse.ArgumentParser(prog="python -m portal.app.devsetup", description=__doc__)
    parser.add_argument("--portal-port", type=int, default=5000)
    parser.add_argument("--sandbox-port", type=int, default=8100)
    parser.add_argument("--mail-port", type=int, default=8025,
                        help="The development SMTP sink's port (MAIL_PORT)")
    args = parser.parse_args(argv)
    created = write_dev_config(INSTANCE, args.portal_port, args.sandbox_port, args.mail_port)
    state = "written with fresh secrets" if created else "kept (delete instance/ to start over)"
    print(f"Development configuration {state}: {DEV_ENV_FILE}")


if __name__ == "__main__":
    main()
