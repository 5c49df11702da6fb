"""Each check before sending, on its own: the rule's error beside its field, in words, and
nothing when the values agree. Each test fails without its rule."""

from __future__ import annotations

import pytest

from portal.domain.before_send.bank_codes import bank_of, banks
from portal.domain.before_send.checks import PAN_LETTER, RULES, Facts, findings
from portal.domain.before_send.gst_states import GST_STATES, gst_state
from portal.domain.onboarding import scenarios
from portal.domain.onboarding.steps import BY_KEY
from portal.gateway.onboarding.vocabulary import EntityType
from portal.gateway.shapes import validate_payload

COMPANY_PAN = "ABCCD1234E"
FIRM_PAN = "AAPFU0939F"
PERSON_PAN = "ABCPE1234F"


def body(step: str, pan: str = COMPANY_PAN, **changes):
    """A scenario's step body, validated as the gateway's shape reads it, with changes."""
    data = scenarios.form_data(scenarios.HAPPY, step, pan) | changes
    value, errors = validate_payload(BY_KEY[step].shape, BY_KEY[step].request(data))
    assert not errors, errors
    return value


def found(step: str, value, facts: Facts) -> list[tuple[str, str, bool]]:
    return [(f.rule, f.error.field, f.advisory) for f in findings(step, value, facts)]


def with_state(state_code: str) -> dict:
    """The business step's address in another state (its code only: the rest is Mumbai's)."""
    address = scenarios.form_data(scenarios.HAPPY, "business")["address"]
    address["businessRegisteredAddress"] = {**address["businessRegisteredAddress"],
                                            "stateCode": state_code}
    return {"address": address}


def test_the_scenarios_business_details_pass_every_check():
    assert found("business", body("business"), Facts(COMPANY_PAN)) == []


def test_a_gstin_of_another_pan_is_refused_beside_the_gstin():
    value = body("business", gstNumber=scenarios.gstin_of(FIRM_PAN))
    assert found("business", value, Facts(COMPANY_PAN)) == [("gstin_pan", "gstNumber", False)]
    message = findings("business", value, Facts(COMPANY_PAN))[0].error.message
    assert "another PAN" in message and FIRM_PAN not in message and COMPANY_PAN not in message


def test_a_gstin_of_another_state_is_an_advisory_error_naming_both_states():
    value = body("business", gstNumber=scenarios.gstin_of(COMPANY_PAN, "29"))
    [finding] = findings("business", value, Facts(COMPANY_PAN))
    assert (finding.rule, finding.error.field, finding.advisory) == \
        ("gstin_state", "gstNumber", True)
    assert "registered in Karnataka" in finding.error.message
    assert "registered address is in Maharashtra" in finding.error.message


def test_a_gstin_of_the_registered_addresss_state_passes_in_either_spelling():
    value = body("business", gstNumber=scenarios.gstin_of(COMPANY_PAN, "36"),
                 **with_state("TS"))
    assert found("business", value, Facts(COMPANY_PAN)) == []
    value = body("business", gstNumber=scenarios.gstin_of(COMPANY_PAN, "36"),
                 **with_state("TG"))
    assert found("business", value, Facts(COMPANY_PAN)) == []


def test_no_gstin_no_gst_checks():
    assert found("business", body("business", gstNumber=""), Facts(FIRM_PAN)) == \
        [("pan_entity", "entityType", False)]


@pytest.mark.parametrize(("entity", "pan"), [
    (EntityType.INDIVIDUAL, PERSON_PAN), (EntityType.PROPRIETOR, PERSON_PAN),
    (EntityType.PARTNERSHIP_FIRM, FIRM_PAN), (EntityType.LLP_FIRM, FIRM_PAN),
    (EntityType.PVT_LTD_COMPANY, COMPANY_PAN), (EntityType.PUBLIC_LTD_COMPANY, COMPANY_PAN),
])
def test_each_entity_type_takes_its_own_pans_fourth_letter(entity, pan):
    value = body("business", pan, entityType=entity.value)
    assert found("business", value, Facts(pan)) == []
    other = next(p for p in (PERSON_PAN, FIRM_PAN, COMPANY_PAN) if p[3] != pan[3])
    value = body("business", other, entityType=entity.value)
    assert found("business", value, Facts(other)) == [("pan_entity", "entityType", False)]


def test_every_entity_type_has_its_pan_letter():
    assert set(PAN_LETTER) == set(EntityType)


def test_the_pan_entity_message_says_whose_pan_it_is_and_whose_it_should_be():
    value = body("business", COMPANY_PAN, entityType="PARTNERSHIP_FIRM", gstNumber="")
    [finding] = findings("business", value, Facts(COMPANY_PAN))
    assert "a company's (4th letter C)" in finding.error.message
    assert "partnership" in finding.error.message and "a firm's PAN (4th letter F)" in \
        finding.error.message


def test_step_one_checks_its_pan_against_the_entity_type_step_two_holds():
    value = body("create", panNumber=COMPANY_PAN)
    assert found("create", value, Facts(COMPANY_PAN, "PROPRIETOR")) == \
        [("create_pan_entity", "panNumber", False)]
    assert found("create", value, Facts(COMPANY_PAN, "PVT_LTD_COMPANY")) == []
    assert found("create", value, Facts(COMPANY_PAN, None)) == []
    assert found("create", value, Facts(COMPANY_PAN, "not a type")) == []


def test_an_ifsc_of_an_unknown_bank_is_advisory():
    value = body("bank", bankIfscCode="ZZZZ0000001")
    [finding] = findings("bank", value, Facts(COMPANY_PAN))
    assert (finding.rule, finding.error.field, finding.advisory) == \
        ("ifsc_bank", "bankIfscCode", True)
    assert "ZZZZ" in finding.error.message and "not the code of a bank" in \
        finding.error.message


def test_an_ifsc_of_a_merged_bank_names_the_bank_that_took_it_over():
    value = body("bank", bankIfscCode="ORBC0100488")
    [finding] = findings("bank", value, Facts(COMPANY_PAN))
    assert "Oriental Bank of Commerce" in finding.error.message
    assert "Punjab National Bank" in finding.error.message and finding.advisory


def test_the_bank_list_holds_the_big_banks_and_the_sandboxs():
    assert {"SBIN", "HDFC", "ICIC", "UTIB", "KKBK", "PUNB", "BARB"} <= set(banks())
    assert found("bank", body("bank"), Facts(COMPANY_PAN)) == []
    assert bank_of("hdfc0000001").name == "HDFC Bank"
    assert all(len(code) == 4 and code.isalpha() for code in banks())


def test_the_gst_state_table_names_every_state_once_with_two_digit_codes():
    assert len(GST_STATES) == 38 and all(len(code) == 2 for code in GST_STATES)
    assert gst_state("27AAPFU0939F1ZV")[0] == "Maharashtra"
    assert gst_state("99AAPFU0939F1ZV") is None


def test_every_rule_has_a_known_step_and_words():
    assert all(rule.step in BY_KEY and rule.words for rule in RULES)
    assert {rule.key for rule in RULES if rule.advisory} == {"gstin_state", "ifsc_bank"}
    assert len({rule.key for rule in RULES}) == len(RULES)
