"""The business-category lookup, cached in memory for a while (it changes rarely)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from flask import current_app

from portal.core.clients import current_onboarding_client
from portal.gateway.onboarding.answers import Category

#: How long a fetched category table is used before it is fetched again.
CATEGORY_TTL_SECONDS = 3600.0
#: Where an app keeps its cache.
CATEGORY_CACHE = "portal_category_cache"


@dataclass
class CategoryCache:
    """One app's cached category table; ``clock`` is injectable for tests."""

    ttl: float = CATEGORY_TTL_SECONDS
    clock: Callable[[], float] = time.monotonic
    _categories: list[Category] = field(default_factory=list)
    _fetched_at: float | None = None

    def get(self, fetch: Callable[[], list[Category]]) -> list[Category]:
        """The cached table, fetched again when empty or older than the TTL."""
        now = self.clock()
        if self._fetched_at is None or now - self._fetched_at >= self.ttl:
            self._categories = fetch()
            self._fetched_at = now
        return self._categories


def grouped_choices(categories: list[Category]) -> dict[str, list[tuple[str, str]]]:
    """Select choices as optgroups: category name -> [(subcategory code, name)]."""
    return {
        category.categoryName: [(sub.categoryCode, sub.categoryName)
                                for sub in category.subcategories]
        for category in categories
        if category.subcategories
    }


def cached_categories() -> list[Category]:
    """The gateway's category table, cached per app for an hour (GatewayError when it cannot
    be read): the wizard's select and the bulk page's list of codes read the same."""
    cache = current_app.extensions.setdefault(CATEGORY_CACHE, CategoryCache())
    return cache.get(lambda: current_onboarding_client().get_business_categories().categories)
