"""The requirements table, a test per row: each row is listed for a profile it names, left
out for one it does not, and ticked by its own evidence (a document of its types, its step
sent, the verification); the table follows the gateway's page."""

from __future__ import annotations

import pytest

from portal.domain.onboarding.steps import BY_KEY
from portal.domain.requirements.checklist import Evidence, Profile, checklist, is_done
from portal.domain.requirements.table import (
    EVERYONE,
    REQUIREMENTS,
    VERIFICATION,
    WEBSITE,
    Requirement,
    Sector,
    needed,
)
from portal.gateway.onboarding.vocabulary import DOCUMENT_TYPES, EntityType, Product

ROWS = {row.key: row for row in REQUIREMENTS}


def profile_for(row: Requirement) -> Profile:
    """A profile the row names: one of its entity types, sectors and products."""
    entity = sorted(row.entity_types)[0]
    return Profile(entity, sorted(row.sectors)[0] if row.sectors else None,
                   frozenset(sorted(row.products)[:1]))


def profile_without(row: Requirement) -> Profile | None:
    """A profile the row does not name, the same in all else; None when the row is
    everyone's."""
    named = profile_for(row)
    if row.entity_types != EVERYONE:
        other = next(e for e in EntityType if e not in row.entity_types)
        return Profile(other, named.sector, named.products)
    if row.sectors:
        return Profile(named.entity_type, None, named.products)
    if row.products:
        return Profile(named.entity_type, None, frozenset({Product.GLOBAL_FUND_TRANSFER}))
    return None


def evidence_for(row: Requirement) -> Evidence:
    """What ticks the row: one of its documents (an owner's Aadhaar by its name), its step
    sent, or the verification done."""
    if row.documents:
        kind = row.documents[-1]
        return Evidence(documents=frozenset(
            {"ABCPR1234K_ASHA_RAO_AADHAR" if kind.startswith("*") else kind}))
    if row.step == VERIFICATION:
        return Evidence(verified=True)
    if row.step == WEBSITE:
        return Evidence(website=frozenset({row.key.removeprefix("website_")}))
    return Evidence(sent_steps=frozenset({row.step}))


@pytest.mark.parametrize("row", REQUIREMENTS, ids=lambda row: row.key)
def test_each_row_is_listed_for_its_profile_and_ticked_by_its_evidence(row):
    profile = profile_for(row)
    assert row in profile.needs()
    outside = profile_without(row)
    if outside is not None:
        assert row not in outside.needs()
    [item] = [i for i in checklist(profile, Evidence()) if i.row == row]
    assert not item.done
    if row.step == WEBSITE:  # only the website check ticks it, never a step
        assert not is_done(row, Evidence(sent_steps=frozenset(BY_KEY)))
    assert is_done(row, evidence_for(row))
    [item] = [i for i in checklist(profile, evidence_for(row)) if i.row == row]
    assert item.done


@pytest.mark.parametrize("row", REQUIREMENTS, ids=lambda row: row.key)
def test_each_row_names_known_documents_steps_and_a_section(row):
    assert row.words and row.source
    assert all(d in DOCUMENT_TYPES or d.startswith("*_") for d in row.documents)
    assert bool(row.documents) != bool(row.step), "a row ticks by documents or by a step"
    assert row.step in (*BY_KEY, VERIFICATION, WEBSITE, "")


def test_the_keys_are_unique():
    assert len(ROWS) == len(REQUIREMENTS)


def test_a_partnership_in_food_and_beverages_asking_for_cards():
    keys = [row.key for row in needed(EntityType.PARTNERSHIP_FIRM,
                                      Sector.FOOD_AND_BEVERAGES,
                                      frozenset({Product.DOMESTIC_CARDS_UPI_AND_INB}))]
    assert {"partnership_deed", "authorisation_letter", "fssai_licence", "website_privacy",
            "website_refund", "website_terms", "website_shipping", "website_prices",
            "website_name", "pan_firm", "partners"} <= set(keys)
    assert not {"board_resolution", "moa", "business_proof", "iata_certification",
                "llp_deed"} & set(keys)


def test_nothing_chosen_lists_only_what_every_merchant_needs():
    assert {row.entity_types for row in needed(None, None, frozenset())} == {EVERYONE}
