"""Naming of the owners' Aadhaar document keys: they must be valid upload types."""

from __future__ import annotations

import pytest

from portal.gateway.onboarding.vocabulary import AADHAR_DOC_PATTERN
from portal.sandbox.onboarding.documents import aadhar_doc_type


@pytest.mark.parametrize(("name", "expected"), [
    ("John Doe", "ABCPE1234F_JOHN_DOE_AADHAR"),
    ("  zoë   Ñúñez ", "ABCPE1234F_ZOE_NUNEZ_AADHAR"),
    ("Meera K. D'Souza", "ABCPE1234F_MEERA_K_D_SOUZA_AADHAR"),
    ("山田", "ABCPE1234F_OWNER_AADHAR"),
])
def test_aadhar_key_is_a_valid_document_type(name, expected):
    key = aadhar_doc_type("ABCPE1234F", name)
    assert key == expected
    assert AADHAR_DOC_PATTERN.fullmatch(key)
