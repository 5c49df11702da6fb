"""The requirements table: every document and fact a merchant must provide, one row per rule.

It follows the gateway's page "Merchant Requirements" (docs repository,
``set-up/partner-onboarding/merchant-requirements.mdx``; docs/gateway-facts.md A4): the
documents by entity type, the category-specific certificates, the website due diligence for
cards, and the dynamic pendencies that page lists. A row says to whom it applies (entity
types, sectors, products; empty: everyone), when it applies in words (empty: always), and what
ticks it on the merchant's checklist: one of its documents stored, its step sent, the
verification done, or (the website's rows) the website check.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from portal.core.languages import N_
from portal.gateway.onboarding.vocabulary import SOLE_PROP_DOCS, EntityType, Product

E = EntityType
#: Entity types in groups the page speaks of.
PEOPLE = frozenset({E.INDIVIDUAL, E.PROPRIETOR})
FIRMS = frozenset({E.PARTNERSHIP_FIRM, E.LLP_FIRM})
COMPANIES = frozenset({E.PVT_LTD_COMPANY, E.PUBLIC_LTD_COMPANY})
EVERYONE = frozenset(EntityType)
#: The products the page's "cards" means.
CARDS = frozenset({Product.INTERNATIONAL_CARDS_AND_ALT_PAYS, Product.DOMESTIC_CARDS_UPI_AND_INB})


class Sector(StrEnum):
    """The regulated business categories of the page's "Category-specific compliance"."""

    JEWELLERY = "JEWELLERY"
    INSURANCE = "INSURANCE"
    FOOD_AND_BEVERAGES = "FOOD_AND_BEVERAGES"
    INTERNATIONAL_TRAVEL = "INTERNATIONAL_TRAVEL"


#: Each sector in words, as the page names it.
SECTOR_WORDS = {
    Sector.JEWELLERY: "Jewellery",
    Sector.INSURANCE: "Insurance",
    Sector.FOOD_AND_BEVERAGES: "Food & Beverages",
    Sector.INTERNATIONAL_TRAVEL: "International travel",
}
#: What ticks a row whose evidence is not a document or a step.
VERIFICATION = "verification"
WEBSITE = "website"
#: The page's sections, as rows cite them.
BY_ENTITY = "Documents by entity type"
BY_SECTOR = "Category-specific compliance"
BY_PRODUCT = "Website due diligence"
PENDENCIES = "Dynamic document pendencies"


@dataclass(frozen=True)
class Requirement:
    """One rule: what is needed, in words; to whom and when; what ticks it."""

    key: str
    words: str
    entity_types: frozenset[str] = EVERYONE
    sectors: frozenset[str] = frozenset()
    products: frozenset[str] = frozenset()
    when: str = ""
    #: Any one of these document types stored ticks it (``*_AADHAR``: a name ending so).
    documents: tuple[str, ...] = ()
    #: Or this step sent ticks it ("verification": the merchant verified; "website": the check).
    step: str = ""
    source: str = BY_ENTITY


def _certificate(key: str, sector: Sector, words: str) -> Requirement:
    return Requirement(key, words, sectors=frozenset({sector}), documents=("LOB_DOCUMENT",),
                       source=BY_SECTOR)


def _website(key: str, words: str) -> Requirement:
    return Requirement(key, words, products=CARDS, step=WEBSITE, source=BY_PRODUCT)


REQUIREMENTS: tuple[Requirement, ...] = (
    Requirement("pan_person", N_("The individual's PAN"), PEOPLE, step="create"),
    Requirement("pan_firm", N_("The firm's PAN"), FIRMS, step="create"),
    Requirement("pan_company", N_("The company's PAN"), COMPANIES, step="create"),
    Requirement("bank_account", N_("The bank account's details (the penny drop checks them at "
                "once)"), step="bank"),
    Requirement("gst", N_("GST details"), when=N_("where the business is registered for GST"),
                step="business"),
    Requirement("line_of_business", N_("The line of business, the website and the projected "
                "monthly volume"), step="business"),
    Requirement("kyc_person", N_("DigiLocker identity verification and a video KYC of the "
                "individual"), PEOPLE, step=VERIFICATION),
    Requirement("kyc_signatory", N_("The authorised signatory's KYC: PAN verification, DigiLocker "
                "and a video KYC"), FIRMS | COMPANIES, step=VERIFICATION),
    Requirement("business_proof", N_("One business proof: an import export code (IEC), the GST "
                "registration certificate, a utility bill, an income tax return, the Udyam "
                "registration certificate, or a shop and establishment certificate"),
                frozenset({E.PROPRIETOR}), documents=tuple(SOLE_PROP_DOCS)),
    Requirement("partners", N_("The partners, with their PAN and shareholding"), FIRMS,
                step="owners"),
    Requirement("directors_owners", N_("The directors and the beneficial owners (over 10 per "
                "cent of the equity), with their PAN and shareholding"), COMPANIES,
                step="owners"),
    Requirement("partnership_deed", N_("The partnership deed"), frozenset({E.PARTNERSHIP_FIRM}),
                documents=("PARTNERSHIP_DEED",)),
    Requirement("partnership_registration", N_("The partnership's registration certificate"),
                frozenset({E.PARTNERSHIP_FIRM}),
                when=N_("unless the firm is unregistered (then tick “Partnership without a "
                "registration certificate” in step 2)"),
                documents=("PARTNERSHIP_REGISTRATION_CERTIFICATE",), source=PENDENCIES),
    Requirement("llp_deed", N_("The LLP agreement (deed)"), frozenset({E.LLP_FIRM}),
                documents=("LLP_AGREEMENT", "LLP")),
    Requirement("certificate_of_incorporation", N_("The certificate of incorporation (COI)"),
                frozenset({E.LLP_FIRM}) | COMPANIES,
                documents=("COI", "COI_DOCUMENT", "CERTIFICATE_OF_INCORPORATION")),
    Requirement("moa", N_("The memorandum of association (MOA), unless it can be fetched "
                "from the company registry"), COMPANIES, documents=("MOA", "MOA_DOCUMENT")),
    Requirement("aoa", N_("The articles of association (AOA), unless they can be fetched "
                "from the company registry"), COMPANIES, documents=("AOA", "AOA_DOCUMENT")),
    Requirement("authorisation_letter", N_("An authorisation letter on the firm's letterhead "
                "appointing the authorised signatory"), FIRMS,
                when=N_("if the authorised signatory is not one of the partners"),
                documents=("REPRESENTATIVE_DOC", "AUTH_SIGNATORY")),
    Requirement("board_resolution", N_("A board resolution on the company's letterhead appointing "
                "the authorised signatory"), COMPANIES,
                when=N_("if the authorised signatory is not a director"),
                documents=("BR", "REPRESENTATIVE_DOC")),
    Requirement("owners_aadhaar", N_("Each beneficial owner's Aadhaar"),
                frozenset({E.PVT_LTD_COMPANY, E.PARTNERSHIP_FIRM}), documents=("*_AADHAR",),
                source=PENDENCIES),
    Requirement("freelancer_proof", N_("An income tax return, a service level agreement or a bank "
                "statement"), frozenset({E.INDIVIDUAL}),
                when=N_("if the website is a LinkedIn or Instagram page and the business sells "
                "services"), documents=("ITR", "SERVICE_LEVEL_AGREEMENT", "BANK_STATEMENT"),
                source=PENDENCIES),
    Requirement("operating_address_proof", N_("A proof of the operating address"),
                when=N_("if the business operates from another address than its registered one"),
                documents=("OPERATING_ADDRESS_PROOF",), source=PENDENCIES),
    Requirement("cancelled_cheque", N_("A cancelled cheque of the settlement account"),
                when=N_("if the penny drop cannot verify the bank account"),
                documents=("CANCELLED_CHEQUE",), source=PENDENCIES),
    Requirement("iec_exporter", N_("An import export code (IEC)"),
                when=N_("if the merchant exports physical goods, whatever its entity type"),
                documents=("IEC",), source=BY_SECTOR),
    _certificate("bis_hallmarking", Sector.JEWELLERY,
                 N_("A Bureau of Indian Standards (BIS) hallmarking certificate")),
    _certificate("irdai_licence", Sector.INSURANCE, N_("An IRDAI licence")),
    _certificate("fssai_licence", Sector.FOOD_AND_BEVERAGES, N_("An FSSAI licence")),
    _certificate("iata_certification", Sector.INTERNATIONAL_TRAVEL, N_("An IATA certification")),
    _website("website_privacy", N_("A privacy policy page on the website")),
    _website("website_refund", N_("A refund policy page on the website")),
    _website("website_terms", N_("A terms and conditions page on the website")),
    _website("website_shipping", N_("A shipping (delivery) policy page on the website")),
    _website("website_prices", N_("The products sold and their prices shown on the website")),
    _website("website_name", N_("The trade or registered name clearly visible on the website")),
)
BY_KEY = {row.key: row for row in REQUIREMENTS}


def applies(row: Requirement, entity_type: str | None, sector: str | None,
            products: frozenset[str]) -> bool:
    """Whether ``row`` is needed by a merchant of this entity type (None: not chosen yet, so
    only the rows for every entity type), sector and products."""
    entity_fits = row.entity_types == EVERYONE or entity_type in row.entity_types
    sector_fits = not row.sectors or sector in row.sectors
    products_fit = not row.products or bool(row.products & products)
    return entity_fits and sector_fits and products_fit


def needed(entity_type: str | None, sector: str | None,
           products: frozenset[str]) -> list[Requirement]:
    """The rows a merchant of this profile needs, in the table's order."""
    return [row for row in REQUIREMENTS if applies(row, entity_type, sector, products)]
