"""The gateway layer holds only what a client needs: what only the emulator uses lives in the
emulator (read from the source, with the import graph's reader)."""

from __future__ import annotations

import re

from portal.gateway.onboarding.events import MessageName
from tests.support.import_graph import PORTAL, definitions, layer_folder_of, modules

SANDBOX = "portal.sandbox"


def test_the_gateway_layer_holds_only_what_a_client_needs() -> None:
    """Every public name of ``portal.gateway`` serves the portal: the portal (outside the
    gateway and the sandbox) uses it, or a gateway name that serves the portal is built on it.
    What only the emulator uses lives in the emulator. The verification page's message names
    are the exception: the portal's page script reads them (each value is spelled in
    static/js/verification.js)."""
    script = (PORTAL.parent / "static" / "js" / "verification.js").read_text(encoding="utf-8")
    defined: dict[str, set[str]] = {}  # a name defined twice (OPERATIONS) mentions both's
    for module, path in modules().items():
        if layer_folder_of(module) == "portal.gateway":
            for name, mentions in definitions(path).items():
                defined.setdefault(name, set()).update(mentions)
    # Every word of the portal's other modules (a name is used where it stands as a whole word).
    users = {word for module, path in modules().items()
             if layer_folder_of(module) not in ("portal.gateway", SANDBOX)
             for word in re.findall(r"\w+", path.read_text(encoding="utf-8"))}
    needed = {name for name in defined if name in users}
    if all(f'"{message.value}"' in script for message in MessageName):
        needed.add(MessageName.__name__)
    work = list(needed)
    while work:
        for name in defined[work.pop()] & defined.keys() - needed:
            needed.add(name)
            work.append(name)
    found = sorted(name for name in defined.keys() - needed if not name.startswith("_"))
    assert not found, "used by the sandbox alone:\n" + "\n".join(found)
