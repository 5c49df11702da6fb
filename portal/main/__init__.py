"""The home page and helpers shared by every page's layout."""

from portal.main.routes import bp, home_url

__all__ = ["bp", "home_url"]
