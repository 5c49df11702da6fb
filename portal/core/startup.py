"""What stops the portal from starting, checked alike by the app factory and by gunicorn's
master before it boots a worker (``gunicorn.conf.py``), so a configuration error stops gunicorn
itself with one line instead of failing each worker in turn."""

from __future__ import annotations

from portal.core.config import ConfigError, Settings, settings_from_env
from portal.core.encryption import Cipher

#: The exit status of a worker whose app cannot start: gunicorn's WORKER_BOOT_ERROR, on which
#: its master stops instead of booting another worker (``app.py``).
BOOT_ERROR = 3


def checked_settings(settings: Settings | None = None) -> Settings:
    """``settings`` (default: read from the environment and env files) once they pass what
    start-up checks: production's required, random-enough secrets and readable files, and the
    KYC keys every environment needs. ConfigError names the variable otherwise."""
    settings = settings_from_env() if settings is None else settings
    settings.check()
    Cipher.from_settings(settings)
    return settings


def refusal(error: ConfigError) -> str:
    """The one line a refused start prints."""
    return f"Configuration error: {error}"
