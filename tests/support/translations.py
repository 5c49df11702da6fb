"""The catalogues compiled before the suite runs: `make install` builds each .mo from its .po,
and a run of pytest alone (or after a .po changed) compiles what is missing or older, so pages
are never drawn from a stale catalogue."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from portal.web.page_language import TRANSLATIONS


def compile_stale(folder: Path = TRANSLATIONS) -> list[Path]:
    """Compile every catalogue of ``folder`` whose .mo is missing or older than its .po; the
    .mo files written."""
    written = []
    for po in sorted(folder.glob("*/LC_MESSAGES/messages.po")):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with po.open("rb") as source:
            catalogue = read_po(source, locale=po.parts[-3])
        with mo.open("wb") as target:
            write_mo(target, catalogue)
        written.append(mo)
    return written


@pytest.fixture(scope="session", autouse=True)
def compiled_catalogues() -> None:
    """Every catalogue compiled from its .po before the first page is drawn."""
    compile_stale()
