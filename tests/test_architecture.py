"""The portal's architecture, read from its import graph (tests/support/import_graph.py): each
folder of ``portal/`` belongs to one layer of an explicit list, a layer imports only its own
and those below, nothing imports in a cycle (between modules or folders), no portal import
hides in a function, the gateway layer imports no Flask, nothing below the web layer reads a
request, and the sandbox stands apart: the portal never imports it, and it imports only the
gateway layer and the core. The layer table of docs/developer/architecture.md is this list
(checked below).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support.import_graph import PORTAL, cycles, graph, grouped, imports, modules, package_of


@dataclass(frozen=True)
class Layer:
    """One layer: its name, what it holds, and its folders (under ``portal/``)."""

    name: str
    holds: str
    folders: tuple[str, ...]


#: The layers, lowest first; a module may import its own layer and the ones below it.
LAYERS = (
    Layer("gateway", "The gateway's client: the wire's shapes and rules (spelled once), HMAC and "
          "JWS signing, the transport, the two clients, reading their answers. No Flask, "
          "nothing of the portal", ("gateway",)),
    Layer("core", "Models and the database, the clock, the configuration, encryption, the "
          "words for codes, the gateway clients built from the settings, small utilities; "
          "the document store (the upload folder or object storage); no pages",
          ("core", "storage")),
    Layer("domain", "Rules without pages, taking plain arguments: onboarding (steps, drafts, "
          "sends and what the gateway's answers change), the outbox's queue, the job queue, "
          "the audit trail", ("audit", "jobs", "onboarding", "outbox")),
    Layer("web", "What every page passes through or shares: sign-in and access checks, each "
          "request's id and counters, error pages, CSRF, request helpers, the forms' bases, the "
          "step pages' stepper and the sandbox's scenarios", ("auth", "web")),
    Layer("features", "One folder per feature: its pages (routes, forms, commands) and the "
          "services behind them", ("admin", "bulk", "documents", "mail", "main",
                                   "merchant_mail", "merchants", "monitoring", "notifications",
                                   "ownership", "payments", "status", "team", "verification",
                                   "webhooks", "wizard", "worklist")),
    Layer("app", "The portal put together: the app factory, blueprints, extensions and "
          "commands; the background worker and the jobs it runs", ("app", "worker")),
)
SANDBOX = "portal.sandbox"
#: What the sandbox may import of the portal: the wire's vocabulary, and the core's clock and
#: log redaction.
SANDBOX_MAY_IMPORT = ("portal.gateway", "portal.core")
#: The sandbox emulates one API per subpackage, as moto has a folder per service.
SANDBOX_APIS = {"onboarding", "payments", "verification", "webhooks"}
LAYER_OF = {f"portal.{folder}": index for index, layer in enumerate(LAYERS)
            for folder in layer.folders}
FLASK_PACKAGES = ("flask", "flask_login", "flask_wtf", "werkzeug", "wtforms")
#: What reads or answers a request: no module below the web layer imports it (the app's own
#: objects, ``current_app`` and ``g``, are not a request's).
REQUEST_MODULES = ("flask_wtf", "wtforms", "werkzeug.exceptions")
REQUEST_NAMES = {"flask": {"request", "session", "has_request_context", "url_for", "redirect",
                           "render_template", "abort", "flash", "jsonify", "Blueprint",
                           "make_response"},
                 "flask_login": {"current_user", "login_user", "logout_user"}}
WEB = next(index for index, layer in enumerate(LAYERS) if layer.name == "web")


def layer(module: str) -> int:
    """The layer of ``module``: its folder's (the package ``portal`` itself is the top's)."""
    if module == "portal":
        return len(LAYERS) - 1
    return LAYER_OF[package_of(module)]


def folders() -> set[str]:
    """The folders of ``portal/`` (each a package), the sandbox aside."""
    return {path.parent.name for path in PORTAL.glob("*/__init__.py")} - {"sandbox"}


def layer_table() -> str:
    """The architecture page's table of the layers, top first."""
    rows = [f"| {layer.name} | {', '.join(f'`{f}/`' for f in layer.folders)} | {layer.holds} |"
            for layer in reversed(LAYERS)]
    return "\n".join(["| Layer | Folders of `portal/` | What it holds |", "|---|---|---|", *rows])


def test_the_graph_is_read() -> None:
    assert "portal.onboarding.service" in graph()
    assert "portal.onboarding.steps" in graph()["portal.onboarding.service"]
    assert "portal.onboarding" in grouped(package_of)["portal.wizard"]


def test_every_folder_of_the_portal_is_in_one_layer_and_no_module_is_loose() -> None:
    listed = [folder for layer in LAYERS for folder in layer.folders]
    assert sorted(listed) == sorted(folders())
    assert [path.name for path in PORTAL.glob("*.py")] == ["__init__.py"]


def test_no_module_level_import_cycle() -> None:
    found = [" -> ".join(cycle) for cycle in cycles(graph())]
    assert not found, "import cycles between modules:\n" + "\n".join(found)


def test_no_cycle_between_packages() -> None:
    found = [" -> ".join(cycle) for cycle in cycles(grouped(package_of))]
    assert not found, "import cycles between portal.<package>s:\n" + "\n".join(found)


def test_the_check_sees_a_cycle_when_there_is_one() -> None:
    assert cycles({"a": frozenset({"b"}), "b": frozenset({"c"}), "c": frozenset({"a"})})


def test_no_import_hides_in_a_function() -> None:
    found = [f"{name} imports {target}" for name, (_top, hidden) in imports().items()
             for target in sorted(hidden) if target.startswith("portal")]
    assert not found, "portal imports inside functions or TYPE_CHECKING:\n" + "\n".join(found)


def test_the_portal_never_imports_the_sandbox() -> None:
    found = [f"{name} -> {target}" for name, targets in graph().items()
             if package_of(name) != SANDBOX
             for target in sorted(targets) if package_of(target) == SANDBOX]
    assert not found, "\n".join(found)


def test_the_sandbox_imports_the_gateway_layer_and_the_core_alone() -> None:
    found = [f"{name} -> {target}" for name, targets in graph().items()
             if package_of(name) == SANDBOX for target in sorted(targets)
             if package_of(target) not in (SANDBOX, *SANDBOX_MAY_IMPORT)]
    assert not found, "\n".join(found)


def test_the_sandbox_has_one_subpackage_per_api_it_emulates() -> None:
    found = {path.parent.name for path in (PORTAL / "sandbox").glob("*/__init__.py")}
    assert found == SANDBOX_APIS


def sandbox_part(module: str) -> str:
    """The sandbox's subpackage ``module`` is in, or the module itself when it sits at the top
    (the rest of the portal is one part)."""
    parts = module.split(".")
    if package_of(module) != SANDBOX:
        return "portal"
    return ".".join(parts[:3]) if len(parts) > 3 and parts[2] in SANDBOX_APIS else module


def test_no_cycle_between_the_sandboxs_parts() -> None:
    assert cycles(grouped(sandbox_part)) == []


def test_the_gateway_layer_imports_no_flask_and_nothing_above_it() -> None:
    found = [f"{name} -> {target}"
             for name, (top, hidden) in imports().items() if package_of(name) == "portal.gateway"
             for target in sorted(top | hidden)
             if target.split(".")[0] in FLASK_PACKAGES
             or (target.startswith("portal") and package_of(target) != "portal.gateway")]
    assert not found, "\n".join(found)


@pytest.mark.parametrize(("module", "expected"), [
    ("portal.onboarding.sending", "domain"), ("portal.core.models.merchant", "core"),
    ("portal.gateway.transport", "gateway"), ("portal.wizard.routes", "features"),
    ("portal.app.factory", "app"), ("portal.gateway.onboarding_shapes", "gateway"),
    ("portal.web.step_pages", "web"), ("portal.outbox.queue", "domain")])
def test_layers_are_assigned_as_documented(module: str, expected: str) -> None:
    assert LAYERS[layer(module)].name == expected


def test_no_layer_imports_one_above_it() -> None:
    found = [f"{name} ({LAYERS[layer(name)].name}) -> {target} ({LAYERS[layer(target)].name})"
             for name, targets in sorted(graph().items()) if package_of(name) != SANDBOX
             for target in sorted(targets) if layer(target) > layer(name)]
    assert not found, "imports from a lower layer up:\n" + "\n".join(found)


def _reads_a_request(path: Path) -> list[str]:
    """What a module imports that reads or answers a request."""
    found = []
    for node in re.finditer(r"^(?:from ([\w.]+) import ([^\n(]+|\([^)]*\))|import ([\w.]+))",
                            path.read_text(encoding="utf-8"), re.MULTILINE):
        module = node.group(1) or node.group(3)
        names = {name.split(" as ")[0].strip() for name in
                 (node.group(2) or "").strip("()").replace("\n", " ").split(",")}
        if module.startswith(REQUEST_MODULES) or module.split(".")[0] in REQUEST_MODULES:
            found.append(module)
        found += [f"{module}.{name}" for name in sorted(names & REQUEST_NAMES.get(module, set()))]
    return found


def test_nothing_below_the_web_layer_reads_a_request() -> None:
    found = [f"{name} imports {what}" for name, path in sorted(modules().items())
             if package_of(name) != SANDBOX and layer(name) < WEB
             for what in _reads_a_request(path)]
    assert not found, "\n".join(found)


def test_the_architecture_page_lists_the_layers_as_this_test_does() -> None:
    page = (PORTAL.parent / "docs" / "developer" / "architecture.md").read_text(encoding="utf-8")
    assert layer_table() in page, (
        "docs/developer/architecture.md's layer table should read:\n" + layer_table())
