"""The live merchants' part of the portal's configuration: where change requests of locked
details go (``portal.core.config.Settings`` inherits it)."""

from __future__ import annotations

from pydantic_settings import BaseSettings, SettingsConfigDict

from portal.core.config_fields import OptionalEmail, variable


class LiveMerchantSettings(BaseSettings):
    """The variables of life after approval (see ``portal.core.config.Settings``)."""

    model_config = SettingsConfigDict(frozen=True, validate_by_name=True, validate_default=True,
                                      extra="ignore", case_sensitive=True)

    gateway_support_email: OptionalEmail = variable(
        "GATEWAY_SUPPORT_EMAIL", "", "The gateway's merchant support address, which approved "
        "change requests of a merchant's locked details are emailed to; empty: they wait, and "
        "the page says so")
