"""A Python client generated from the portal's OpenAPI document by openapi-python-client, as a
partner would generate theirs: the package is written to a temporary folder and imported."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

from flask import Flask

#: The package name the generated client is imported under.
PACKAGE = "generated_portal_client"


def generate(app: Flask, folder: Path) -> ModuleType:
    """Generate the client from ``app``'s /api/v1/openapi.json into ``folder``; the package."""
    document = folder / "openapi.json"
    document.write_text(json.dumps(app.test_client().get("/api/v1/openapi.json").json))
    bin_folder = Path(sys.executable).parent  # its own post-hooks run ruff from here
    env = {**os.environ, "PATH": f"{bin_folder}{os.pathsep}{os.environ.get('PATH', '')}"}
    subprocess.run([str(bin_folder / "openapi-python-client"), "generate", "--path",  # noqa: S603
                    str(document), "--output-path", str(folder / PACKAGE), "--meta", "none"],
                   check=True, capture_output=True, env=env, timeout=120)
    sys.path.insert(0, str(folder))
    try:
        return importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(folder))


def module(name: str) -> ModuleType:
    """A module of the generated package: ``module("api.default.send")``."""
    return importlib.import_module(f"{PACKAGE}.{name}")
