"""The sandbox's business-category table: what ``natureOfBusiness`` may take
(docs/gateway-facts.md A1)."""

from __future__ import annotations

from typing import Any

from portal.gateway.onboarding.answers import CategoriesData, Category, Subcategory

GOODS = "GOODS"
SERVICES = "SERVICES"

#: Top-level code -> (name, [(subcategory suffix, name, GOODS|SERVICES), ...]).
_TABLE: dict[str, tuple[str, list[tuple[str, str, str]]]] = {
    "AGRI": ("Agriculture", [
        ("VET", "Veterinary services", SERVICES),
        ("FARM_PRODUCE", "Farm produce", GOODS),
        ("HORTICULTURE", "Horticulture and landscaping", SERVICES),
    ]),
    "CONT": ("Contracted services", [
        ("GENERAL_CONTRACTORS", "General contractors", SERVICES),
        ("ELECTRICAL", "Electrical contractors", SERVICES),
        ("CARPENTRY", "Carpentry", SERVICES),
    ]),
    "TRANS": ("Transportation", [
        ("COURIER", "Courier services", SERVICES),
        ("TRAVEL_AGENCY", "Travel agencies and tour operators", SERVICES),
        ("FREIGHT", "Freight and trucking", SERVICES),
    ]),
    "UTIL": ("Utilities", [
        ("ELECTRICITY", "Electricity", SERVICES),
        ("TELECOM", "Telecommunication services", SERVICES),
        ("WATER", "Water supply", SERVICES),
    ]),
    "RETAIL": ("Retail outlets", [
        ("GROCERY", "Grocery stores and supermarkets", GOODS),
        ("ELECTRONICS", "Electronics stores", GOODS),
        ("JEWELLERY", "Jewellery stores", GOODS),
        ("BOOKS", "Book stores", GOODS),
    ]),
    "CLOTH": ("Clothing stores", [
        ("APPAREL", "Men's, women's and children's apparel", GOODS),
        ("FOOTWEAR", "Shoe stores", GOODS),
        ("TAILORING", "Tailors and alterations", SERVICES),
    ]),
    "MISC": ("Miscellaneous stores", [
        ("GIFTS", "Gift and souvenir shops", GOODS),
        ("HANDICRAFTS", "Handicrafts", GOODS),
        ("DIGITAL_GOODS", "Digital goods", GOODS),
    ]),
    "BUS": ("Business services", [
        ("IT_SERVICES", "Computer programming and IT services", SERVICES),
        ("CONSULTING", "Management consulting", SERVICES),
        ("ADVERTISING", "Advertising services", SERVICES),
        ("SAAS", "Software as a service", SERVICES),
    ]),
    "PROF": ("Professional services", [
        ("LEGAL", "Legal services", SERVICES),
        ("ACCOUNTING", "Accounting and bookkeeping", SERVICES),
        ("EDUCATION", "Education and tutoring", SERVICES),
        ("MEDICAL", "Doctors and clinics", SERVICES),
    ]),
    "FOOD": ("Food and beverages", [
        ("RESTAURANTS", "Restaurants and cafes", SERVICES),
        ("PACKAGED", "Packaged food and drinks", GOODS),
    ]),
    "FIN": ("Financial services", [
        ("INSURANCE", "Insurance", SERVICES),
    ]),
    "GOV": ("Government services", [
        ("TAXES", "Tax payments", SERVICES),
        ("FINES", "Court costs and fines", SERVICES),
        ("POSTAL", "Postal services", SERVICES),
    ]),
}

CATEGORIES: list[Category] = [
    Category(
        categoryCode=code,
        categoryName=name,
        subcategories=[
            Subcategory(categoryCode=f"{code}.{suffix}", categoryName=sub_name, type=kind)
            for suffix, sub_name, kind in subs
        ],
    )
    for code, (name, subs) in _TABLE.items()
]

#: Every code ``natureOfBusiness`` accepts.
SUBCATEGORY_CODES = frozenset(s.categoryCode for c in CATEGORIES for s in c.subcategories)


def categories_data() -> dict[str, Any]:
    """``data`` of the business-category lookup, as JSON."""
    return CategoriesData(categories=CATEGORIES).model_dump(mode="json")
