"""Form bits shared by several features."""

from __future__ import annotations

from flask_wtf import FlaskForm

#: Shown when a button's form fails its CSRF check (an old page, or another site's post).
FORM_EXPIRED = "The page had expired, so nothing was done. Please try again."


class ActionForm(FlaskForm):
    """A button that changes something: carries only the CSRF token."""
