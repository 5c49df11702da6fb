"""The portal's configuration: one object read from the environment (and optional .env files).

Outside development and testing a missing secret stops start-up with a message naming the
variable; there are no literal fallbacks for secrets.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal
from pathlib import Path

from dotenv import load_dotenv
from flask import current_app

from portal.gateway.onboarding_events import origin_of

ROOT = Path(__file__).resolve().parent.parent
INSTANCE = ROOT / "instance"
DEV_ENVS = ("development", "testing")
MAIL_SECURITIES = ("none", "starttls", "ssl")
SETTINGS_EXTENSION = "portal_settings"


class ConfigError(RuntimeError):
    """The configuration is incomplete or contradictory."""


@dataclass(frozen=True)
class Variable:
    """One configuration variable: name, default and meaning (the README table is built from it)."""

    name: str
    default: str | None
    meaning: str
    secret: bool = False


VARIABLES = (
    Variable("PORTAL_ENV", "production", "development, testing or production"),
    Variable("SECRET_KEY", None, "Signs sessions, CSRF tokens and merchant links", secret=True),
    Variable("DATABASE_URL", "sqlite:///instance/portal.db",
             "SQLAlchemy URL; postgresql+psycopg://... for several processes"),
    Variable("GATEWAY_ONBOARDING_URL", None, "Base URL of the onboarding API (the sandbox's in "
             "development)"),
    Variable("GATEWAY_PAYMENTS_URL", None, "Base URL of the payments API"),
    Variable("GATEWAY_API_KEY", None, "Partner API key, sent as x-gl-auth", secret=True),
    Variable("GATEWAY_API_SECRET", None, "Partner API secret, keys the x-gl-digest HMAC",
             secret=True),
    Variable("GATEWAY_PARTNER_MID", "", "The partner's own (reseller) MID at the gateway: "
             "`flask gateway webhooks` registers onboarding webhooks under it"),
    Variable("GATEWAY_WEBHOOK_SECRETS", "", "Comma-separated secrets accepted on webhook "
             "x-gl-digest (empty: webhooks are not signature-checked)", secret=True),
    Variable("GATEWAY_PUBLIC_KEY_FILE", "", "PEM of the gateway's public key, verifies payment "
             "callbacks"),
    Variable("GATEWAY_ORIGIN", "", "Origin of the verification iframe (default: the onboarding "
             "URL's origin)"),
    Variable("GATEWAY_IS_SANDBOX", "false", "true when the gateway is the local sandbox: shows "
             "'Fill with test data'"),
    Variable("GATEWAY_CONNECT_TIMEOUT", "5", "Seconds to connect to the gateway"),
    Variable("GATEWAY_READ_TIMEOUT", "30", "Seconds to wait for the gateway's answer"),
    Variable("UPLOAD_FOLDER", "instance/uploads", "Where uploaded documents are stored (never "
             "under static/)"),
    Variable("UPLOAD_MAX_BYTES", str(5 * 1024 * 1024), "Largest document accepted, in bytes"),
    Variable("SESSION_IDLE_MINUTES", "30", "Idle minutes before a login session ends"),
    Variable("SESSION_MAX_HOURS", "12", "Hours after sign-in when a session ends however busy"),
    Variable("ONE_TIME_PASSWORD_HOURS", "24", "Hours a generated one-time password works"),
    Variable("MFA_FOR_EVERYONE", "false", "true: ops users too must sign in with an "
             "authenticator code (admins always must)"),
    Variable("CREDENTIALS_KEY", None, "Fernet key that encrypts merchants' private keys at rest "
             "(several: comma-separated, newest first)", secret=True),
    Variable("KYC_ENCRYPTION_KEYS", None, "Fernet keys, comma-separated, newest first, that "
             "encrypt PANs, bank account numbers and contacts at rest", secret=True),
    Variable("PAN_INDEX_KEY", None, "HMAC key of the PAN blind index (search by full PAN)",
             secret=True),
    Variable("STALE_AFTER_DAYS", "7", "Days without progress before the dashboard flags a "
             "merchant"),
    Variable("PORTAL_URL", "http://127.0.0.1:5000", "The portal's public address, used in the "
             "links it emails (never taken from the request's Host header)"),
    Variable("MAIL_HOST", "127.0.0.1", "SMTP server the portal sends email through (make run "
             "starts a local sink on 8025)"),
    Variable("MAIL_PORT", "8025", "SMTP port"),
    Variable("MAIL_SECURITY", "none", "none, starttls or ssl"),
    Variable("MAIL_USERNAME", "", "SMTP user name (empty: no login)"),
    Variable("MAIL_PASSWORD", "", "SMTP password", secret=True),
    Variable("MAIL_FROM", "Partner Onboarding Portal <portal@localhost>", "Sender of the "
             "portal's emails"),
    Variable("MAIL_TIMEOUT", "10", "Seconds to wait for the SMTP server"),
    Variable("MAIL_SINK_FOLDER", "instance/mail", "Where the development SMTP sink keeps "
             "messages; admins read them at /admin/mailbox when GATEWAY_IS_SANDBOX"),
    Variable("REMINDER_MAX", "3", "Most verification reminders emailed to one merchant"),
    Variable("FOUR_EYES_REFUND_ABOVE", "10000", "A refund of more than this amount (in the "
             "payment's currency, major units as typed, e.g. 10000.00) waits for a second "
             "admin's approval; empty: no refund does"),
    Variable("TRUSTED_PROXIES", "0", "Number of reverse proxies in front of the portal whose "
             "X-Forwarded-For and X-Forwarded-Proto are believed (0: none)"),
)


@dataclass(frozen=True)
class Settings:
    """Typed view of the configuration variables."""

    env: str = "production"
    secret_key: str = ""
    database_url: str = ""
    onboarding_url: str = ""
    payments_url: str = ""
    api_key: str = ""
    api_secret: str = ""
    partner_mid: str = ""
    webhook_secrets: tuple[str, ...] = ()
    gateway_public_key_file: str = ""
    gateway_origin: str = ""
    gateway_is_sandbox: bool = False
    connect_timeout: float = 5.0
    read_timeout: float = 30.0
    upload_folder: str = ""
    upload_max_bytes: int = 5 * 1024 * 1024
    session_idle_minutes: int = 30
    session_max_hours: int = 12
    one_time_password_hours: int = 24
    mfa_for_everyone: bool = False
    credentials_key: str = ""
    kyc_encryption_keys: str = ""
    pan_index_key: str = ""
    stale_after_days: int = 7
    portal_url: str = "http://127.0.0.1:5000"
    mail_host: str = "127.0.0.1"
    mail_port: int = 8025
    mail_security: str = "none"
    mail_username: str = ""
    mail_password: str = ""
    mail_from: str = "Partner Onboarding Portal <portal@localhost>"
    mail_timeout: float = 10.0
    mail_sink_folder: str = ""
    reminder_max: int = 3
    trusted_proxies: int = 0
    four_eyes_refund_above: Decimal | None = Decimal(10000)
    extra: Mapping[str, object] = field(default_factory=dict)

    @property
    def is_development(self) -> bool:
        """True in development and testing, where missing secrets are tolerated."""
        return self.env in DEV_ENVS

    @property
    def verification_origin(self) -> str:
        """The origin postMessage events and iframes may come from."""
        return self.gateway_origin or origin_of(self.onboarding_url)

    def with_changes(self, **changes: object) -> Settings:
        """A copy with some values replaced (tests use it)."""
        return replace(self, **changes)

    def check(self) -> Settings:
        """Refuse to start production with a missing secret or gateway address."""
        if self.is_development:
            return self
        required = {
            "SECRET_KEY": self.secret_key,
            "GATEWAY_ONBOARDING_URL": self.onboarding_url,
            "GATEWAY_API_KEY": self.api_key,
            "GATEWAY_API_SECRET": self.api_secret,
            "CREDENTIALS_KEY": self.credentials_key,
            "KYC_ENCRYPTION_KEYS": self.kyc_encryption_keys,
            "PAN_INDEX_KEY": self.pan_index_key,
        }
        if self.mail_security not in MAIL_SECURITIES:
            raise ConfigError("MAIL_SECURITY must be one of: " + ", ".join(MAIL_SECURITIES) + ".")
        missing = [name for name, value in required.items() if not value]
        if missing:
            raise ConfigError(
                "Missing configuration: " + ", ".join(missing)
                + ". Set them in the environment or a .env file (see README, Configuration)."
            )
        return self


def _sqlite_under_root(url: str) -> str:
    prefix = "sqlite:///"
    if url.startswith(prefix) and not url.startswith(prefix + "/") and url != prefix + ":memory:":
        return prefix + str(ROOT / url[len(prefix):])
    return url


def _amount(value: str) -> Decimal | None:
    """A decimal amount, or None when empty (the setting is off)."""
    return Decimal(value.strip()) if value.strip() else None


def _flag(value: str) -> bool:
    return value.strip().lower() in ("1", "true", "yes")


#: The env file ``make run`` writes; read when PORTAL_ENV_FILE names no other.
DEV_ENV_FILE = INSTANCE / "portal.env"


def load_environment() -> None:
    """Read ``.env`` and the file named by PORTAL_ENV_FILE, by default ``instance/portal.env``
    when it exists (never overriding real variables), so ``flask --app app ...`` run by hand
    after ``make run`` finds the same configuration."""
    load_dotenv(ROOT / ".env", override=False)
    extra = os.environ.get("PORTAL_ENV_FILE") or DEV_ENV_FILE
    if Path(extra).is_file():
        load_dotenv(extra, override=False)


def settings_from_env(environ: Mapping[str, str] | None = None) -> Settings:
    """Build Settings from environment variables, applying each variable's default."""
    env = os.environ if environ is None else environ
    defaults = {v.name: v.default for v in VARIABLES}

    def get(name: str) -> str:
        return env.get(name, defaults[name] or "")

    onboarding = get("GATEWAY_ONBOARDING_URL").rstrip("/")
    try:
        return Settings(
            env=get("PORTAL_ENV"),
            secret_key=get("SECRET_KEY"),
            database_url=_sqlite_under_root(get("DATABASE_URL")),
            onboarding_url=onboarding,
            payments_url=(get("GATEWAY_PAYMENTS_URL") or onboarding).rstrip("/"),
            api_key=get("GATEWAY_API_KEY"),
            api_secret=get("GATEWAY_API_SECRET"),
            partner_mid=get("GATEWAY_PARTNER_MID"),
            webhook_secrets=tuple(s.strip() for s in get("GATEWAY_WEBHOOK_SECRETS").split(",")
                                  if s.strip()),
            gateway_public_key_file=get("GATEWAY_PUBLIC_KEY_FILE"),
            gateway_origin=get("GATEWAY_ORIGIN"),
            gateway_is_sandbox=_flag(get("GATEWAY_IS_SANDBOX")),
            connect_timeout=float(get("GATEWAY_CONNECT_TIMEOUT")),
            read_timeout=float(get("GATEWAY_READ_TIMEOUT")),
            upload_folder=str(ROOT / get("UPLOAD_FOLDER")),
            upload_max_bytes=int(get("UPLOAD_MAX_BYTES")),
            session_idle_minutes=int(get("SESSION_IDLE_MINUTES")),
            session_max_hours=int(get("SESSION_MAX_HOURS")),
            one_time_password_hours=int(get("ONE_TIME_PASSWORD_HOURS")),
            mfa_for_everyone=_flag(get("MFA_FOR_EVERYONE")),
            credentials_key=get("CREDENTIALS_KEY"),
            kyc_encryption_keys=get("KYC_ENCRYPTION_KEYS"),
            pan_index_key=get("PAN_INDEX_KEY"),
            stale_after_days=int(get("STALE_AFTER_DAYS")),
            portal_url=get("PORTAL_URL").rstrip("/"),
            mail_host=get("MAIL_HOST"),
            mail_port=int(get("MAIL_PORT")),
            mail_security=get("MAIL_SECURITY").lower(),
            mail_username=get("MAIL_USERNAME"),
            mail_password=get("MAIL_PASSWORD"),
            mail_from=get("MAIL_FROM"),
            mail_timeout=float(get("MAIL_TIMEOUT")),
            mail_sink_folder=str(ROOT / get("MAIL_SINK_FOLDER")),
            reminder_max=int(get("REMINDER_MAX")),
            trusted_proxies=int(get("TRUSTED_PROXIES")),
            four_eyes_refund_above=_amount(get("FOUR_EYES_REFUND_ABOVE")),
        )
    except (ValueError, ArithmeticError) as exc:
        raise ConfigError(f"A numeric configuration variable is not a number: {exc}") from exc



def current_settings() -> Settings:
    """The Settings of the app handling the current request or command."""
    return current_app.extensions[SETTINGS_EXTENSION]
