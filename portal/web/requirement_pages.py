"""The choice that lists what a merchant will need (entity type, regulated sector, products),
as the new-merchant page asks it (a GET form: it works without JavaScript) and the merchant's
summary changes it; the rows are ``portal.domain.requirements``'."""

from __future__ import annotations

from typing import Any

from wtforms import SelectChoice, SelectField

from portal.core.labels import Kind, label
from portal.domain.requirements.checklist import ENTITY_TYPE, PRODUCTS, SECTOR, Profile
from portal.domain.requirements.table import SECTOR_WORDS
from portal.gateway.onboarding.vocabulary import EntityType, Product
from portal.web.body_forms import labelled_select
from portal.web.form_base import MultiCheckboxField, PortalForm

#: The field names' prefix: the new-merchant page posts them beside step 1's own fields.
PREFIX = "need"


class RequirementChoicePost(PortalForm):
    """Entity type, business category and products, each optional, as the merchant's summary
    posts them (with its CSRF token)."""

    entityType = labelled_select("Entity type", EntityType, Kind.ENTITY_TYPE)
    sector = SelectField("Business category", validate_choice=False, choices=[
        SelectChoice("", "None of these (no licence needed)"),
        *(SelectChoice(code, words) for code, words in SECTOR_WORDS.items())],
        description="The categories that need a licence or certificate of their own.")
    products = MultiCheckboxField("Products", validate_choice=False, choices=[
        SelectChoice(p.value, label(p, Kind.PRODUCT)) for p in Product])

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, prefix=PREFIX, **kwargs)

    def choice(self) -> dict[str, Any]:
        """What was chosen, known values only, as ``Merchant.requirement_choice`` keeps it."""
        entity = self.entityType.data if self.entityType.data in EntityType.__members__ else ""
        sector = self.sector.data if self.sector.data in SECTOR_WORDS else ""
        products = [p for p in Product if p.value in (self.products.data or [])]
        return {key: value for key, value in ((ENTITY_TYPE, entity), (SECTOR, sector),
                                              (PRODUCTS, [p.value for p in products])) if value}

    def query(self) -> dict[str, Any]:
        """The choice as the new-merchant page's address carries it (prefixed field names)."""
        chosen = self.choice()
        return {field.name: value for field, value in (
            (self.entityType, chosen.get(ENTITY_TYPE)), (self.sector, chosen.get(SECTOR)),
            (self.products, chosen.get(PRODUCTS))) if value}

    def profile(self) -> Profile:
        """The chosen profile (nothing chosen: the rows every merchant needs)."""
        chosen = self.choice()
        return Profile(chosen.get(ENTITY_TYPE), chosen.get(SECTOR),
                       frozenset(chosen.get(PRODUCTS, ())))


class RequirementChoiceForm(RequirementChoicePost):
    """The same choice as the new-merchant page's GET form asks it (no CSRF token: it changes
    nothing; step 1's post carries it on, and that post has its token)."""

    class Meta:
        csrf = False
