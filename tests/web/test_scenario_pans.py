"""The scenarios' company PANs are ones the gateway takes, whatever the random draw: the serial
number 0000 is no PAN's (the create was refused, about once in 10,000 merchants the scenarios
made, and a whole-suite run failed on it), and 9999 is the sandbox's PAN that does not exist."""

from __future__ import annotations

import pytest

from portal.domain.onboarding import scenarios
from portal.gateway import rules
from portal.sandbox.onboarding.rules import MISSING_PAN_DIGITS, pan_errors


@pytest.mark.parametrize("draw", ["lowest", "highest"])
def test_a_company_pan_at_either_end_of_the_draw_is_taken(monkeypatch: pytest.MonkeyPatch,
                                                          draw: str) -> None:
    monkeypatch.setattr(scenarios.secrets, "randbelow",
                        lambda n: 0 if draw == "lowest" else n - 1)
    pan = scenarios.company_pan()
    assert rules.check_pan(pan) == pan
    assert pan[3] == "C"
    assert pan[5:9] not in ("0000", MISSING_PAN_DIGITS)
    assert pan_errors("panNumber", pan) == []
