"""What a record's checklist should list: its sections, owners' Aadhaar documents, what is due."""

from __future__ import annotations

from tests.sandbox.payloads import OWNER_PAN, SECOND_OWNER_PAN

OWNER_AADHARS = [f"{OWNER_PAN}_ASHA_RAO_AADHAR", f"{SECOND_OWNER_PAN}_VIKRAM_MEHTA_AADHAR"]
SECTIONS = ["businessDetails", "beneficialOwners", "bankDetails", "authorisedSignatory",
            "products"]


def pending(client, onboarding_id: str) -> list[str]:
    """documentsToBeUploaded of a record."""
    return client.get_status(onboarding_id).merchantOnboardingCheckListStatus.documentsToBeUploaded
