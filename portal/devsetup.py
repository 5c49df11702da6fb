"""Write the development configuration on first run: fresh random secrets under ``instance/``.

``instance/portal.env`` configures the portal; ``instance/sandbox.json`` configures the sandbox
with the same partner key and secret, so the two talk to each other out of the box. Existing
files are left alone, so secrets stay stable across runs.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import secrets
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from portal.config import INSTANCE


def _rsa_pair() -> tuple[str, str]:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption()).decode()
    public = key.public_key().public_bytes(serialization.Encoding.PEM,
                                           serialization.PublicFormat.SubjectPublicKeyInfo).decode()
    return private, public


def _write_private(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")
    os.chmod(path, 0o600)


def write_dev_config(instance: Path, portal_port: int, sandbox_port: int) -> bool:
    """Create the portal's env file and the sandbox's config if missing; True when created."""
    env_file = instance / "portal.env"
    if env_file.exists():
        return False
    instance.mkdir(parents=True, exist_ok=True)
    api_key = "pk_dev_" + secrets.token_hex(8)
    api_secret = secrets.token_urlsafe(32)
    gateway_private, gateway_public = _rsa_pair()
    (instance / "gateway_public.pem").write_text(gateway_public, encoding="utf-8")
    sandbox_url = f"http://127.0.0.1:{sandbox_port}"
    sandbox = {
        "partners": [{"partnerId": "dev-partner",
                      "keys": [{"apiKey": api_key, "apiSecret": api_secret, "active": True}]}],
        "merchants": [],
        "webhookUrl": f"http://127.0.0.1:{portal_port}/webhooks/onboarding",
        "gatewayPrivateKeyPem": gateway_private,
    }
    _write_private(instance / "sandbox.json", json.dumps(sandbox, indent=2))
    env = {
        "PORTAL_ENV": "development",
        "SECRET_KEY": secrets.token_urlsafe(48),
        "GATEWAY_ONBOARDING_URL": sandbox_url,
        "GATEWAY_PAYMENTS_URL": sandbox_url,
        "GATEWAY_API_KEY": api_key,
        "GATEWAY_API_SECRET": api_secret,
        "GATEWAY_WEBHOOK_SECRETS": api_secret,
        "GATEWAY_PUBLIC_KEY_FILE": str(instance / "gateway_public.pem"),
        "GATEWAY_IS_SANDBOX": "true",
        "PORTAL_URL": f"http://127.0.0.1:{portal_port}",
        "CREDENTIALS_KEY": base64.urlsafe_b64encode(secrets.token_bytes(32)).decode(),
    }
    _write_private(env_file, "".join(f"{k}={v}\n" for k, v in env.items()))
    return True


def main(argv: list[str] | None = None) -> None:
    """Command line: ``python -m portal.devsetup --portal-port 5000 --sandbox-port 8100``."""
    parser = argparse.ArgumentParser(prog="python -m portal.devsetup", description=__doc__)
    parser.add_argument("--portal-port", type=int, default=5000)
    parser.add_argument("--sandbox-port", type=int, default=8100)
    args = parser.parse_args(argv)
    created = write_dev_config(INSTANCE, args.portal_port, args.sandbox_port)
    state = "written with fresh secrets" if created else "kept (delete instance/ to start over)"
    print(f"Development configuration {state}: {INSTANCE / 'portal.env'}")


if __name__ == "__main__":
    main()
