"""The portal's configuration: one typed model read from the environment and env files.

Each field names its variable, default and meaning once; reading the environment, the production
check and the documented table (``portal.core.config_table``) all come from those
definitions. Outside development and testing a missing secret stops start-up with a message
naming the variable; there are no literal fallbacks for secrets.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from dotenv import dotenv_values
from flask import current_app
from pydantic import ValidationError, field_validator
from pydantic_core.core_schema import ValidationInfo
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from portal.core.config_errors import bad_values_text, production_problem
from portal.core.config_fields import (
    DEV_ENV_FILE,
    DOT_ENV,
    Address,
    BulkConcurrency,
    CommaList,
    DatabaseUrl,
    Flag,
    Folder,
    HourOfDay,
    InitiatePath,
    Lowercase,
    Networks,
    OptionalEmail,
    PositiveCount,
    StorageUrl,
    env_name,
    field_options,
    variable,
)
from portal.core.config_live import LiveMerchantSettings
from portal.core.config_payments import PaymentSettings
from portal.core.config_phone import PhoneSettings
from portal.gateway.onboarding.events import origin_of
from portal.gateway.payments.operations import INITIATE_PATH

DEV_ENVS = ("development", "testing")
SETTINGS_EXTENSION = "portal_settings"


class ConfigError(RuntimeError):
    """The configuration is incomplete or contradictory."""


class Settings(PaymentSettings, PhoneSettings, LiveMerchantSettings):
    """Typed view of the configuration variables. Built with keywords it holds exactly what it
    is given (tests do that); ``settings_from_env`` reads the environment and env files."""

    model_config = SettingsConfigDict(frozen=True, validate_by_name=True, validate_default=True,
                                      extra="ignore", case_sensitive=True)

    env: str = variable("PORTAL_ENV", "production", "`development`, `testing` or `production`")
    secret_key: str = variable("SECRET_KEY", "", "Signs sessions, CSRF tokens and merchant "
                               "links", required=True, secret=True, random=True)
    database_url: DatabaseUrl = variable(
        "DATABASE_URL", "sqlite:///instance/portal.db",
        "SQLAlchemy URL; `postgresql+psycopg://...` for several processes")
    onboarding_url: Address = variable(
        "GATEWAY_ONBOARDING_URL", "", "Base URL of the onboarding API", required=True,
        shown="none (the sandbox's in development)")
    payments_url: str = variable("GATEWAY_PAYMENTS_URL", "", "Base URL of the payments API",
                                 shown="the onboarding URL")
    api_key: str = variable("GATEWAY_API_KEY", "", "Partner API key, sent as `x-gl-auth`",
                            required=True, secret=True)
    api_secret: str = variable("GATEWAY_API_SECRET", "", "Partner API secret, keys the "
                               "`x-gl-digest` HMAC", required=True, secret=True)
    partner_mid: str = variable(
        "GATEWAY_PARTNER_MID", "", "The partner's own (reseller) MID at the gateway; `flask --app "
        "app gateway webhooks register URL` registers the onboarding webhook under it (`make run` "
        "does so with the sandbox)")
    webhook_secrets: CommaList = variable(
        "GATEWAY_WEBHOOK_SECRETS", (), "Comma-separated secrets accepted on a webhook's "
        "`x-gl-digest`; empty: not checked (the real gateway documents no webhook signature)",
        secret=True)
    webhook_sources: Networks = variable("GATEWAY_WEBHOOK_SOURCES", (), "Comma-separated "
                                         "addresses or networks webhooks come from (others: 403)")
    gateway_public_key_file: str = variable(
        "GATEWAY_PUBLIC_KEY_FILE", "", "PEM file of the gateway's public key; verifies payment "
        "callbacks", required=True, shown="none; `make run` writes the sandbox's")
    gateway_key_id: str = variable(
        "GATEWAY_KEY_ID", "", "Key id (`kid`) of the gateway's public key: payment bodies are "
        "encrypted (JWE) to that key, as the gateway's own SDKs send them", required=True,
        shown="none; `make run` sets the sandbox's")
    gateway_initiate_path: InitiatePath = variable(
        "GATEWAY_INITIATE_PATH", INITIATE_PATH, "Path of the payments initiate call: spec 000's "
        "by default; the real gateway's docs and SDKs use `/gl/v1/payments/initiate/paycollect`")
    gateway_origin: str = variable(
        "GATEWAY_ORIGIN", "", "Origin of the verification iframe and its postMessage events",
        shown="the onboarding URL's origin")
    gateway_is_sandbox: Flag = variable(
        "GATEWAY_IS_SANDBOX", False, "`true` when the gateway is the local sandbox: shows the "
        "scenario picker (\"Fill every step\" with test data)")
    gateway_plain_json: Flag = variable(
        "GATEWAY_PLAIN_JSON", False, "`true`: payment bodies go as plain JSON instead of JWE; "
        "only with `GATEWAY_IS_SANDBOX` (the real gateway takes encrypted bodies only)")
    connect_timeout: float = variable("GATEWAY_CONNECT_TIMEOUT", 5.0,
                                      "Seconds to connect to the gateway")
    read_timeout: float = variable("GATEWAY_READ_TIMEOUT", 30.0,
                                   "Seconds to wait for the gateway's answer")
    bulk_concurrency: BulkConcurrency = variable(
        "BULK_CONCURRENCY", 4, "Rows of a bulk import a worker sends at once, 1 to 16: raise it "
        "when the gateway answers slowly, lower it if it answers 429 Too Many Requests")
    bulk_chunk_rows: PositiveCount = variable(
        "BULK_CHUNK_ROWS", 100, "Rows of a bulk import in one chunk, sent in file order: on "
        "PostgreSQL each worker process sends another chunk of the same import at once")
    upload_folder: Folder = variable("UPLOAD_FOLDER", "instance/uploads", "Where uploaded "
                                     "documents are stored (never under `static/`); with "
                                     "`DOCUMENT_STORAGE`, where uploads are spooled")
    upload_max_bytes: int = variable("UPLOAD_MAX_BYTES", 5 * 1024 * 1024,
                                     "Largest document accepted, in bytes (5 MB)")
    document_storage: StorageUrl = variable(
        "DOCUMENT_STORAGE", "", "Where documents are kept: empty, in `UPLOAD_FOLDER`; "
        "`s3://bucket/prefix`, in S3-compatible object storage (see \"Several hosts\")")
    storage_endpoint: Address = variable("DOCUMENT_STORAGE_ENDPOINT", "", "The object store's "
                                         "URL (MinIO, Ceph); empty: AWS S3's for the region")
    storage_region: str = variable("DOCUMENT_STORAGE_REGION", "", "The bucket's region",
                                   shown="`us-east-1`")
    storage_access_key_id: str = variable("DOCUMENT_STORAGE_ACCESS_KEY_ID", "", "Access key "
                                          "id; empty: boto3's own (`AWS_*`, the host's role)")
    storage_secret_access_key: str = variable(
        "DOCUMENT_STORAGE_SECRET_ACCESS_KEY", "", "Secret access key", secret=True)
    session_idle_minutes: int = variable("SESSION_IDLE_MINUTES", 30,
                                         "Idle minutes before a login session ends")
    session_max_hours: int = variable("SESSION_MAX_HOURS", 12, "Hours after sign-in when a "
                                      "session ends however busy")
    one_time_password_hours: int = variable("ONE_TIME_PASSWORD_HOURS", 24,
                                            "Hours a generated one-time password works")
    mfa_for_everyone: Flag = variable(
        "MFA_FOR_EVERYONE", False, "true: ops users too must sign in with an authenticator code "
        "(admins always must)")
    admin_confirmation_email: OptionalEmail = variable("ADMIN_CONFIRMATION_EMAIL", "", "Who "
        "confirms by an emailed link a second admin the only one asks for; empty: nobody does")
    credentials_key: str = variable(
        "CREDENTIALS_KEY", "", "Fernet key that encrypts merchants' payment private keys at rest "
        "(several: comma-separated, newest first)", required=True, secret=True, random=True)
    kyc_encryption_keys: str = variable(
        "KYC_ENCRYPTION_KEYS", "", "Fernet keys, comma-separated, newest first, that encrypt "
        "PANs, bank account numbers and contacts at rest", required=True, secret=True,
        random=True)
    pan_index_key: str = variable(
        "PAN_INDEX_KEY", "", "HMAC key of the PAN blind index, so search by full PAN works on "
        "encrypted PANs", required=True, secret=True, random=True)
    stale_after_days: int = variable("STALE_AFTER_DAYS", 7, "Days without progress before the "
                                     "admin dashboard flags a merchant")
    dormant_after_days: int = variable(
        "DORMANT_AFTER_DAYS", 30, "Days without a hold after which a live merchant is dormant: "
        "on its owner's worklist and counted on the dashboard; 0 turns it off")
    website_check_allow_loopback: bool = variable(
        "WEBSITE_CHECK_ALLOW_LOOPBACK", False, "Let the website check fetch, and the webhooks to "
        "partners reach, loopback addresses (tests, the sandbox); every other private, "
        "link-local or reserved address stays refused")
    document_retention_days: int = variable(
        "DOCUMENT_RETENTION_DAYS", 0, "Days after a merchant's final status, or its "
        "deactivation, when its stored document files are deleted (their records stay); 0 keeps "
        "them")
    partner_name: str = variable(
        "PARTNER_NAME", "Your payments partner", "The partner's name as sub-merchants read it on "
        "the verification page their emailed link opens")
    portal_url: Address = variable(
        "PORTAL_URL", "http://127.0.0.1:5000", "The portal's public address, used in emailed "
        "links (never the request's Host header)")
    mail_host: str = variable("MAIL_HOST", "127.0.0.1", "SMTP server the portal sends email "
                              "through (`make run` starts a local sink)")
    mail_port: int = variable("MAIL_PORT", 8025, "SMTP port")
    mail_security: Lowercase = variable("MAIL_SECURITY", "none",
                                        "`none`, `starttls` or `ssl` (certificates verified)")
    mail_username: str = variable("MAIL_USERNAME", "", "SMTP user name; empty: no login")
    mail_password: str = variable("MAIL_PASSWORD", "", "SMTP password", secret=True)
    mail_from: str = variable("MAIL_FROM", "Partner Onboarding Portal <portal@localhost>",
                              "Sender of the portal's emails")
    mail_timeout: float = variable("MAIL_TIMEOUT", 10.0, "Seconds to wait for the SMTP server")
    mail_sink_folder: Folder = variable(
        "MAIL_SINK_FOLDER", "instance/mail", "Where the development SMTP sink keeps messages; "
        "admins read them at `/admin/mailbox` when `GATEWAY_IS_SANDBOX`")
    reminder_max: int = variable("REMINDER_MAX", 3,
                                 "Most verification reminders emailed to one merchant")
    notice_digest_hour: HourOfDay = variable(
        "NOTICE_DIGEST_HOUR", 3, "Hour of the day (UTC, 0-23) when the daily digest of notices "
        "goes to those who chose one (3: 08:30 in India)")
    trusted_proxies: int = variable(
        "TRUSTED_PROXIES", 0, "Number of reverse proxies in front of the portal whose "
        "`X-Forwarded-For` and `X-Forwarded-Proto` are believed; 0: none (see \"Behind a "
        "TLS-terminating proxy\")")
    log_format: Lowercase = variable(
        "LOG_FORMAT", "text", "`text`, or `json`: one JSON object per log line (time, level, "
        "logger, request id, user id, merchant id, message), redacted like the text lines")
    metrics_token: str = variable(
        "METRICS_TOKEN", "", "Bearer token that opens `/metrics` to addresses other than "
        "loopback; empty: loopback only (see \"Operating the portal\")", secret=True,
        random=True)
    ready_gateway_timeout: float = variable("READY_GATEWAY_TIMEOUT", 2.0,
                                            "Seconds `/readyz` waits for the gateway to answer")

    @field_validator("gateway_plain_json")
    @classmethod
    def _plain_json_only_for_the_sandbox(cls, value: bool, info: ValidationInfo) -> bool:
        if value and not info.data.get("gateway_is_sandbox"):
            raise ValueError("plain JSON payment bodies are for the sandbox only: set "
                             "GATEWAY_IS_SANDBOX=true or leave GATEWAY_PLAIN_JSON empty")
        return value

    @field_validator("payments_url")
    @classmethod
    def _payments_default_to_onboarding(cls, value: str, info: ValidationInfo) -> str:
        return (value or info.data.get("onboarding_url", "")).rstrip("/")

    @classmethod
    def settings_customise_sources(cls, settings_cls: type[BaseSettings],
                                   init_settings: PydanticBaseSettingsSource,
                                   env_settings: PydanticBaseSettingsSource,
                                   dotenv_settings: PydanticBaseSettingsSource,
                                   file_secret_settings: PydanticBaseSettingsSource,
                                   ) -> tuple[PydanticBaseSettingsSource, ...]:
        """Keyword construction reads nothing else (``settings_from_env`` reads the rest)."""
        return (init_settings,)

    @property
    def is_development(self) -> bool:
        """True in development and testing, where missing secrets are tolerated."""
        return self.env in DEV_ENVS

    @property
    def verification_origin(self) -> str:
        """The origin postMessage events and iframes may come from."""
        return self.gateway_origin or origin_of(self.onboarding_url)

    def with_changes(self, **changes: object) -> Settings:
        """A copy with some values replaced and checked (tests use it)."""
        return Settings.model_validate({**self.model_dump(), **changes})

    def check(self) -> Settings:
        """Refuse to start production with a missing, weak or unreadable secret or file, a
        missing gateway address or an unknown choice: one line naming each variable."""
        problem = None if self.is_development else production_problem(
            [(env_name(info), getattr(self, name), field_options(info))
             for name, info in Settings.model_fields.items()])
        if problem:
            raise ConfigError(problem)
        return self


class _EnvironmentSettings(Settings):
    """Settings read as the portal starts: real variables, then ``.env``, then the env file."""

    @classmethod
    def settings_customise_sources(cls, settings_cls: type[BaseSettings],
                                   init_settings: PydanticBaseSettingsSource,
                                   env_settings: PydanticBaseSettingsSource,
                                   dotenv_settings: PydanticBaseSettingsSource,
                                   file_secret_settings: PydanticBaseSettingsSource,
                                   ) -> tuple[PydanticBaseSettingsSource, ...]:
        """Earlier sources win: real variables, then the env files (see ``env_files``)."""
        return (init_settings, env_settings, dotenv_settings)


def env_files() -> tuple[Path, ...]:
    """The env files read, weakest first: the one PORTAL_ENV_FILE names (in the environment or
    in ``.env``; by default ``instance/portal.env``, which ``make run`` writes, so ``flask --app
    app ...`` run by hand finds the same configuration), then ``.env``. Missing ones are skipped."""
    dot_env = DOT_ENV
    named = (os.environ.get("PORTAL_ENV_FILE")
             or (dotenv_values(dot_env).get("PORTAL_ENV_FILE") if dot_env.is_file() else None)
             or DEV_ENV_FILE)
    return (Path(named), dot_env)


def settings_from_env(environ: Mapping[str, str | None] | None = None) -> Settings:
    """Settings from ``environ`` alone, or by default from the environment and ``env_files()``
    (real variables win), with each variable's default for the rest."""
    try:
        if environ is None:
            return _EnvironmentSettings(_env_file=env_files())
        return Settings.model_validate({k: v for k, v in environ.items() if v is not None})
    except ValidationError as exc:
        names = {name: env_name(info) for name, info in Settings.model_fields.items()}
        raise ConfigError(bad_values_text(exc, names)) from None


def current_settings() -> Settings:
    """The Settings of the app handling the current request or command."""
    return current_app.extensions[SETTINGS_EXTENSION]
