"""Is an accent colour readable? WCAG 2's contrast ratio against white.

The accent is the background of white button text and the colour of links on white pages, so
one ratio answers both. WCAG's AA level asks 4.5:1 for normal text.
"""

from __future__ import annotations

import re

#: WCAG 2 AA for normal-size text.
MINIMUM_RATIO = 4.5
HEX_COLOUR = re.compile(r"#?([0-9a-fA-F]{6}|[0-9a-fA-F]{3})")


def parse_colour(text: str) -> str | None:
    """``#rrggbb`` lower-case from ``#rgb``/``#rrggbb`` (the ``#`` optional), else None."""
    found = HEX_COLOUR.fullmatch(text.strip())
    if found is None:
        return None
    digits = found.group(1).lower()
    if len(digits) == 3:
        digits = "".join(d * 2 for d in digits)
    return f"#{digits}"


def _channel(value: int) -> float:
    """One sRGB channel (0-255) as linear light, as WCAG defines relative luminance."""
    c = value / 255
    return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4


def luminance(colour: str) -> float:
    """The relative luminance of ``#rrggbb`` (0 black, 1 white)."""
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * _channel(r) + 0.7152 * _channel(g) + 0.0722 * _channel(b)


def ratio_with_white(colour: str) -> float:
    """The contrast ratio of ``#rrggbb`` with white, 1 to 21."""
    return 1.05 / (luminance(colour) + 0.05)


def darker(colour: str, factor: float = 0.75) -> str:
    """``colour`` with each channel scaled by ``factor``: the hover shade of a button."""
    r, g, b = (round(int(colour[i:i + 2], 16) * factor) for i in (1, 3, 5))
    return f"#{r:02x}{g:02x}{b:02x}"


def contrast_problem(colour: str) -> str | None:
    """Why ``#rrggbb`` cannot be the accent, in words, or None when it reads well."""
    ratio = ratio_with_white(colour)
    if ratio >= MINIMUM_RATIO:
        return None
    return (f"This colour is too light to read: white text on it, and it as text on a white "
            f"page, have a contrast of {ratio:.1f} to 1, and at least {MINIMUM_RATIO:g} to 1 is "
            "needed. Choose a darker shade.")
