"""A pytest plugin that lists what one "Save and send" of business details runs through: the
portal's files, folders and top-level packages whose Python code the portal's thread calls while
it handles that POST (the sandbox aside), and the calls between packages.

    .venv/bin/pytest -q -s -p bench.walk \\
        "tests/wizard/test_steps.py::test_a_valid_send_stores_the_answer_and_moves_on[contract-business]"

By default only the calls below the wizard's view are counted (not the request's hooks: session
checks, metrics, headers); ``WALK_ALL=1`` counts the whole request.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

import flask

PORTAL = Path(__file__).resolve().parents[1] / "portal"
VIEW = "wizard/routes.py"
SEEN: list[str] = []
EDGES: set[tuple[str, str]] = set()


def top(relative: str) -> str:
    """The top-level package of a file under the repository (``(root)`` for portal/x.py)."""
    parts = relative.split("/")
    return parts[1] if len(parts) > 2 else "(root)"


def folder(relative: str) -> str:
    """The folder of a file under the repository."""
    return relative.rsplit("/", 1)[0]


def below_view(frame: FrameType | None) -> bool:
    """Whether ``frame`` runs inside the wizard's view (or anywhere, under WALK_ALL)."""
    if os.environ.get("WALK_ALL"):
        return True
    while frame is not None:
        if frame.f_code.co_filename.endswith(VIEW):
            return True
        frame = frame.f_back
    return False


def _portal_file(frame: FrameType) -> str | None:
    name = frame.f_code.co_filename
    if name.startswith(str(PORTAL)) and "/sandbox/" not in name:
        return os.path.relpath(name, PORTAL.parent)
    return None


def _profile(frame: FrameType, event: str, arg: Any) -> None:
    if event != "call" or (called := _portal_file(frame)) is None or not below_view(frame):
        return
    if not SEEN or SEEN[-1] != called:
        SEEN.append(called)
    caller = frame.f_back
    while caller is not None and _portal_file(caller) is None:
        caller = caller.f_back
    if caller is not None and top(_portal_file(caller) or "") != top(called):
        EDGES.add((top(_portal_file(caller) or ""), top(called)))


def pytest_configure(config: Any) -> None:
    """Trace the portal's handling of every POST to a business details step."""
    original: Callable[..., Any] = flask.Flask.wsgi_app

    def wsgi_app(self: flask.Flask, environ: dict[str, Any], start_response: Any) -> Any:
        tracing = (environ["REQUEST_METHOD"] == "POST"
                   and environ.get("PATH_INFO", "").endswith("/steps/business")
                   and not self.import_name.startswith("portal.sandbox"))
        if tracing:
            sys.setprofile(_profile)
        try:
            return original(self, environ, start_response)
        finally:
            if tracing:
                sys.setprofile(None)

    flask.Flask.wsgi_app = wsgi_app  # type: ignore[method-assign]


def pytest_unconfigure(config: Any) -> None:
    """Print the files, folders, packages and calls between packages seen."""
    files = sorted(set(SEEN))
    folders = sorted({folder(f) for f in files})
    packages = sorted({top(f) for f in files})
    print(f"\n{len(files)} files in {len(folders)} folders, {len(packages)} top-level packages: "
          f"{', '.join(packages)}")
    for name in folders:
        print(f"  {name}: {', '.join(f.rsplit('/', 1)[1] for f in files if folder(f) == name)}")
    print("calls between packages:", ", ".join(f"{a} -> {b}" for a, b in sorted(EDGES)))
