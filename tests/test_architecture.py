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

from tests.support.import_graph import (
    PORTAL,
    cycles,
    graph,
    grouped,
    imports,
    layer_folder_of,
    modules,
    package_of,
)


@dataclass(frozen=True)
class Layer:
    """One layer: its folder under ``portal/`` (the layer is read from a module's path) and what
    it holds."""

    name: str
    holds: str


#: The layers, lowest first; a module may import its own layer and the ones below it.
LAYERS = (
    Layer("gateway", "The gateway's client: the wire's shapes and rules (spelled once), HMAC and "
          "JWS signing, the transport, the two clients, reading their answers; one package per "
          "API (`onboarding/`, `payments/`), the shared pieces beside them. No Flask, nothing "
          "of the portal"),
    Layer("core", "Models and the database, the clock, the configuration, encryption, the "
          "words for codes and the status tables, the gateway clients built from the settings, "
          "small utilities; the document store (`storage/`) and the mail sender (`mail/`); no "
          "pages"),
    Layer("domain", "Rules without pages, taking plain arguments, one package per subject: "
          "onboarding (steps, drafts, sends, its outbox, the status reads and what the gateway's "
          "answers change, the sandbox's scenario data), payments, four eyes, documents, "
          "ownership, the worklist, merchants' mail, users and their sign-in rules, the job "
          "queue, the audit trail"),
    Layer("web", "What every page passes through or shares: sign-in and access checks "
          "(`auth/`), each request's id and counters, error pages, CSRF, request helpers, the "
          "forms' bases, the step pages' stepper and scenario picker"),
    Layer("features", "One package per feature: its pages (routes, forms, page helpers, "
          "commands) and what only they use"),
    Layer("app", "The portal put together: the app factory, blueprints, extensions and "
          "commands; the background worker and the jobs it runs (`worker/`)"),
)
SANDBOX = "portal.sandbox"
#: What the sandbox may import of the portal: the wire's vocabulary, and the core's clock and
#: log redaction.
SANDBOX_MAY_IMPORT = ("portal.gateway", "portal.core")
#: The sandbox emulates one API per subpackage, as moto has a folder per service; beside them
#: what every API and the app build on (``common``: the config, the envelope, errors, the
#: answer dialect, fault plans, snapshots).
SANDBOX_APIS = {"onboarding", "payments", "verification", "webhooks"}
SANDBOX_SHARED = {"common"}
#: The sandbox's root keeps the app, the entry point, the typed state, the faults and the
#: controls.
SANDBOX_ROOT = {"__init__", "__main__", "app", "controls", "faults", "state"}
LAYER_OF = {f"portal.{layer.name}": index for index, layer in enumerate(LAYERS)}
#: The only imports from one feature into another, each with why.
FEATURE_TO_FEATURE = {
    ("portal.features.merchants", "portal.features.ownership"):
        "the merchant's summary shows the owner-and-notes panel, a page piece of ownership's",
    ("portal.features.merchants", "portal.features.asks"):
        "the merchant's summary shows what is asked of the merchant, a page piece of asks'",
}
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
    """The layer of ``module``, read from its path (the package ``portal`` itself is the
    top's)."""
    if module == "portal":
        return len(LAYERS) - 1
    return LAYER_OF[layer_folder_of(module)]


def folders() -> set[str]:
    """The folders of ``portal/`` (each a layer), the sandbox aside."""
    return {path.parent.name for path in PORTAL.glob("*/__init__.py")} - {"sandbox"}


def layer_table() -> str:
    """The architecture page's table of the layers, top first."""
    rows = [f"| {layer.name} | `portal/{layer.name}/` | {layer.holds} |"
            for layer in reversed(LAYERS)]
    return "\n".join(["| Layer | Folder | What it holds |", "|---|---|---|", *rows])


def test_the_graph_is_read() -> None:
    assert "portal.domain.onboarding.service" in graph()
    assert "portal.domain.onboarding.steps" in graph()["portal.domain.onboarding.service"]
    assert "portal.domain.onboarding" in grouped(package_of)["portal.features.wizard"]


def test_every_folder_of_the_portal_is_in_one_layer_and_no_module_is_loose() -> None:
    listed = [layer.name for layer in LAYERS]
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
             if layer_folder_of(name) != SANDBOX
             for target in sorted(targets) if layer_folder_of(target) == SANDBOX]
    assert not found, "\n".join(found)


def test_the_sandbox_imports_the_gateway_layer_and_the_core_alone() -> None:
    found = [f"{name} -> {target}" for name, targets in graph().items()
             if layer_folder_of(name) == SANDBOX for target in sorted(targets)
             if layer_folder_of(target) not in (SANDBOX, *SANDBOX_MAY_IMPORT)]
    assert not found, "\n".join(found)


def test_the_sandbox_has_one_subpackage_per_api_it_emulates() -> None:
    found = {path.parent.name for path in (PORTAL / "sandbox").glob("*/__init__.py")}
    assert found == SANDBOX_APIS | SANDBOX_SHARED
    assert {path.stem for path in (PORTAL / "sandbox").glob("*.py")} == SANDBOX_ROOT


def sandbox_part(module: str) -> str:
    """The sandbox's subpackage ``module`` is in, or the module itself when it sits at the top
    (the rest of the portal is one part)."""
    parts = module.split(".")
    if layer_folder_of(module) != SANDBOX:
        return "portal"
    return (".".join(parts[:3])
            if len(parts) > 3 and parts[2] in SANDBOX_APIS | SANDBOX_SHARED else module)


def test_no_cycle_between_the_sandboxs_parts() -> None:
    assert cycles(grouped(sandbox_part)) == []


def test_the_gateway_layer_imports_no_flask_and_nothing_above_it() -> None:
    found = [f"{name} -> {target}"
             for name, (top, hidden) in imports().items()
             if layer_folder_of(name) == "portal.gateway"
             for target in sorted(top | hidden)
             if target.split(".")[0] in FLASK_PACKAGES
             or (target.startswith("portal") and layer_folder_of(target) != "portal.gateway")]
    assert not found, "\n".join(found)


@pytest.mark.parametrize(("module", "expected"), [
    ("portal.domain.onboarding.sending", "domain"), ("portal.core.models.merchant", "core"),
    ("portal.gateway.transport", "gateway"), ("portal.features.wizard.routes", "features"),
    ("portal.app.factory", "app"), ("portal.gateway.onboarding.requests", "gateway"),
    ("portal.web.step_pages", "web"), ("portal.domain.onboarding.outbox.queue", "domain")])
def test_layers_are_assigned_as_documented(module: str, expected: str) -> None:
    assert LAYERS[layer(module)].name == expected


def test_features_import_other_features_only_where_named() -> None:
    found = {(package_of(name), package_of(target))
             for name, targets in graph().items() if layer_folder_of(name) == "portal.features"
             for target in targets if layer_folder_of(target) == "portal.features"
             and package_of(target) != package_of(name)}
    unnamed = sorted(found - set(FEATURE_TO_FEATURE))
    assert not unnamed, "features importing features, not in FEATURE_TO_FEATURE:\n" + "\n".join(
        f"{a} -> {b}" for a, b in unnamed)
    assert set(FEATURE_TO_FEATURE) <= found, "a named feature edge no longer exists"


def test_no_layer_imports_one_above_it() -> None:
    found = [f"{name} ({LAYERS[layer(name)].name}) -> {target} ({LAYERS[layer(target)].name})"
             for name, targets in sorted(graph().items()) if layer_folder_of(name) != SANDBOX
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
             if layer_folder_of(name) != SANDBOX and layer(name) < WEB
             for what in _reads_a_request(path)]
    assert not found, "\n".join(found)


def test_the_architecture_page_lists_the_layers_as_this_test_does() -> None:
    page = (PORTAL.parent / "docs" / "developer" / "architecture.md").read_text(encoding="utf-8")
    assert layer_table() in page, (
        "docs/developer/architecture.md's layer table should read:\n" + layer_table())
