"""Which sections a partner can no longer change once TNC is acknowledged or verification done."""

from __future__ import annotations

import pytest

from portal.gateway.errors import ValidationFailed
from tests.sandbox.payloads import bank, business, document, fill_every_step, owners, signatory


def test_tnc_locks_business_details_and_signatory(sandbox_server, partner, onboarding_id):
    fill_every_step(partner, onboarding_id)
    sandbox_server.backend.acknowledge_tnc(onboarding_id)
    assert partner.get_status(onboarding_id).merchantOnboardingCheckListStatus.tncAcknowledged \
        == "COMPLETE"
    with pytest.raises(ValidationFailed) as caught:
        partner.update_business_details(onboarding_id, business())
    assert [e.field for e in caught.value.field_errors] == ["businessDetails"]
    with pytest.raises(ValidationFailed) as caught:
        partner.update_auth_signatory(onboarding_id, signatory())
    assert [e.field for e in caught.value.field_errors] == ["authorisedSignatory"]
    # not locked yet: owners, bank and documents
    partner.add_beneficial_owners(onboarding_id, owners())
    partner.update_bank_details(onboarding_id, bank())
    partner.upload_document(onboarding_id, document("IEC"))


@pytest.mark.parametrize(("name", "body", "section"), [
    ("add_beneficial_owners", owners(), "beneficialOwners"),
    ("update_bank_details", bank(), "bankDetails"),
    ("upload_document", document("IEC"), "documents"),
    ("update_business_details", business(), "businessDetails"),
    ("update_auth_signatory", signatory(), "authorisedSignatory"),
])
def test_verification_locks_sections(sandbox_server, partner, onboarding_id, name, body,
                                     section):
    fill_every_step(partner, onboarding_id)
    sandbox_server.backend.complete_verification(onboarding_id)
    with pytest.raises(ValidationFailed) as caught:
        getattr(partner, name)(onboarding_id, body)
    assert [e.field for e in caught.value.field_errors] == [section]
