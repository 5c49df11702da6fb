"""The accent colour's check: WCAG 2's contrast ratio with white, refused in words below 4.5."""

from __future__ import annotations

import pytest

from portal.domain.branding.contrast import contrast_problem, parse_colour, ratio_with_white


@pytest.mark.parametrize(("colour", "ratio"), [
    ("#ffffff", 1.0), ("#000000", 21.0), ("#1f4fbf", 7.17), ("#767676", 4.54), ("#777777", 4.48),
])
def test_the_ratio_is_wcags(colour, ratio):
    assert ratio_with_white(colour) == pytest.approx(ratio, abs=0.01 if ratio < 5 else 0.05)


@pytest.mark.parametrize(("typed", "parsed"), [
    ("#1F4FBF", "#1f4fbf"), ("1f4fbf", "#1f4fbf"), ("#abc", "#aabbcc"), (" #123456 ", "#123456"),
    ("blue", None), ("#12345", None), ("#1234567", None), ("rgb(0,0,0)", None),
])
def test_a_colour_is_read_as_the_hex_people_write(typed, parsed):
    assert parse_colour(typed) == parsed


def test_a_light_colour_is_refused_in_words_and_a_dark_one_passes():
    problem = contrast_problem("#ffbf47")
    assert problem is not None
    assert "too light" in problem and "4.5 to 1" in problem and "darker" in problem
    assert contrast_problem("#767676") is None
