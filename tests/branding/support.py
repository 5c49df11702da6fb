"""What the folder's tests share, for them and other folders' to
import (a test imports no conftest and no other test module)."""

from __future__ import annotations

PARTNER = "Acme Payments"
