"""The sandbox's records kept across restarts, as the portal's own database is: a JSON snapshot
of :class:`~portal.sandbox.state.SandboxState` in one file (``python -m portal.sandbox --state
FILE``; ``make run`` keeps ``instance/sandbox-state.json``). Tests keep an in-memory sandbox.

The file is written before the answer of every request that may change something (any method
but GET, and the GET of the verification page, which uses its link up) and after every tick
that did something: the snapshot goes to a temporary file beside it, is flushed to disk, then
renamed over the old one, so a sandbox killed at any line leaves the old snapshot or the new
one, never half of one, and nothing it answered is lost. Writing costs about 0.5 ms per
onboarding record (200 merchants with every step sent: 90 ms), which suits a development
emulator, not a load test (the benchmarks use an in-memory sandbox). A file that cannot be read
is set aside (``.unreadable``) with a warning, and the sandbox starts empty.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from pathlib import Path

from flask import Flask, request
from pydantic import ValidationError
from werkzeug.wrappers import Response

from portal.sandbox.onboarding.backend import OnboardingBackend
from portal.sandbox.state import SandboxState
from portal.sandbox.verification.routes import PAGE_PATH

log = logging.getLogger("portal.sandbox.persistence")


class StateFile:
    """Where one sandbox's snapshot lives; ``save`` writes it only when it changed."""

    def __init__(self, path: Path, state: SandboxState) -> None:
        self.path = path
        self._state = state
        self._lock = threading.Lock()
        self._written = ""

    def load(self) -> bool:
        """Restore the state from the file; False when there was none (or none readable)."""
        if not self.path.exists():
            return False
        text = self.path.read_text(encoding="utf-8")
        try:
            self._state.restore(json.loads(text))
        except (ValueError, ValidationError, KeyError, TypeError) as exc:
            aside = self.path.with_name(self.path.name + ".unreadable")
            os.replace(self.path, aside)
            log.warning("Sandbox state in %s could not be read (%s); set aside as %s, starting "
                        "empty", self.path, type(exc).__name__, aside)
            self._state.reset()
            return False
        self._written = text
        return True

    def save(self) -> None:
        """Write the snapshot if it changed since the last write, atomically (owner-only)."""
        with self._lock:
            text = json.dumps(self._state.snapshot(), sort_keys=True, separators=(",", ":"))
            if text == self._written:
                return
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temporary = self.path.with_name(self.path.name + ".tmp")
            descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(temporary, self.path)
            self._written = text


def keep_state(app: Flask, state: SandboxState, path: Path) -> StateFile:
    """Restore ``app``'s sandbox from ``path`` and save it after every request from now on."""
    state_file = StateFile(path, state)
    if state_file.load():
        log.info("Sandbox records restored from %s", path)

    @app.after_request
    def _save(response: Response) -> Response:
        if request.method != "GET" or request.path.startswith(PAGE_PATH):
            state_file.save()
        return response

    return state_file


class SavingTicker:
    """The ticker's target (reviews and webhooks falling due), saving the state after a tick
    that did something, since a tick changes records without any request."""

    def __init__(self, target: OnboardingBackend, state_file: StateFile) -> None:
        self._target = target
        self._state_file = state_file

    def tick(self) -> None:
        """Run what is due, then keep it."""
        before = self._target.activity()
        self._target.tick()
        if self._target.activity() != before:
            self._state_file.save()
