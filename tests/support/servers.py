"""Serve the portal on a real loopback port for the length of a test: a WSGI app in a thread,
or the portal under gunicorn started as ``scripts/run-dev.sh`` starts it."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import requests
from bs4 import BeautifulSoup
from werkzeug.serving import make_server

from portal.core.config import Settings

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

ROOT = Path(__file__).resolve().parents[2]
#: How scripts/run-dev.sh starts the portal (its --bind aside): gunicorn.conf.py does the rest.
GUNICORN = (sys.executable, "-m", "gunicorn", "--config", "gunicorn.conf.py")
#: How often a served app's loop looks for the stop signal: the default half second made every
#: test that served something wait up to that long in its teardown.
SHUTDOWN_POLL = 0.01


def closing_responses(app: WSGIApplication) -> WSGIApplication:
    """``app`` with each answer closed however its request ends. werkzeug's development server
    skips an answer's close() when the client resets the connection as the server drains it
    (a browser leaving a page while its stylesheet loads), so a file being sent stayed open
    until the collector found it, and its ResourceWarning failed whichever test was running."""

    def serving(environ: WSGIEnvironment, start_response: StartResponse) -> Iterator[bytes]:
        answer = app(environ, start_response)
        try:
            for chunk in answer:  # noqa: UP028 (yield from would close the answer twice)
                yield chunk
        finally:
            close = getattr(answer, "close", None)
            if close is not None:
                close()
    return serving


@contextmanager
def serve(app: WSGIApplication, host: str = "127.0.0.1") -> Iterator[str]:
    """Run ``app`` in a thread on a free port and yield its base URL."""
    server = make_server(host, 0, closing_responses(app), threaded=True)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": SHUTDOWN_POLL},
                              daemon=True)
    thread.start()
    try:
        yield f"http://{host}:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@contextmanager
def silent_address() -> Iterator[str]:
    """An address on loopback that accepts connections and never answers (a hung gateway)."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"


def free_port() -> int:
    """A loopback port nobody listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def portal_environment(settings: Settings) -> dict[str, str]:
    """The environment that configures a portal process as ``settings`` do; every variable is
    set (from the settings model's own definitions), so no ``.env`` or ``PORTAL_ENV_FILE`` fills
    a gap."""
    environment = {key: value for key, value in os.environ.items() if key != "PORTAL_ENV_FILE"}
    return {**environment, **{str(field.validation_alias): as_variable(getattr(settings, name))
                              for name, field in Settings.model_fields.items()}}


def as_variable(value: object) -> str:
    """A setting's value as its variable is written: lists comma-separated, flags lower-case,
    nothing as empty."""
    if value is None:
        return ""
    if isinstance(value, tuple):
        return ",".join(value)
    return str(value).lower() if isinstance(value, bool) else str(value)


@contextmanager
def gunicorn(app: str, environment: dict[str, str], ready_path: str, output: Path | None = None,
             *options: str) -> Iterator[str]:
    """``app`` (gunicorn's ``module:variable``) under gunicorn on a free loopback port with
    ``options``, as gunicorn.conf.py configures it; its stdout and stderr written to ``output``
    (else dropped). Yields its URL once ``ready_path`` answers 2xx."""
    port = free_port()
    command = [*GUNICORN, "--bind", f"127.0.0.1:{port}", *options, app]
    log = output.open("wb") if output else open(os.devnull, "wb")  # noqa: SIM115 (closed below)
    with log, subprocess.Popen(command, env=environment, cwd=ROOT,  # noqa: S603 (our command)
                               stdout=log, stderr=subprocess.STDOUT) as server:
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    if requests.get(url + ready_path, timeout=5).ok:
                        break
                except requests.RequestException:
                    pass
                assert server.poll() is None, output.read_text(errors="replace") if output else ""
                assert time.monotonic() < deadline, "gunicorn did not start"
                time.sleep(0.05)
            yield url
        finally:
            stop(server)


def stop(server: subprocess.Popen[bytes], patience: float = 10) -> None:
    """Stop a server the test started: SIGTERM, and SIGKILL if it has not ended within
    ``patience`` seconds (gunicorn lets a request in flight finish first: a test's held or
    dropped gateway call can outlast a loaded machine's patience; stopping is not under test)."""
    server.terminate()
    try:
        server.wait(timeout=patience)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait(timeout=patience)


@contextmanager
def gunicorn_portal(settings: Settings, output: Path, *options: str) -> Iterator[str]:
    """The portal under gunicorn as ``scripts/run-dev.sh`` starts it (``options`` added), its
    stdout and stderr both written to ``output``; yields its URL once /healthz answers."""
    with gunicorn("app:app", portal_environment(settings), "/healthz", output,
                  *options) as url:
        yield url


def page_of(response: requests.Response) -> BeautifulSoup:
    """The parsed HTML of a response."""
    return BeautifulSoup(response.text, "html.parser")


def csrf_token(page: requests.Response) -> str:
    """The CSRF token of the first form on the page ('' when CSRF checks are off)."""
    field = page_of(page).find("input", attrs={"name": "csrf_token"})
    return str(field["value"]) if field is not None else ""


def sign_in(url: str, email: str, password: str, headers: dict[str, str] | None = None,
            code: Callable[[], str] | None = None) -> requests.Session:
    """A browser session signed in through the real forms (CSRF tokens included), sending
    ``headers`` with every request; ``code()`` answers the authenticator code page if asked."""
    session = requests.Session()
    session.headers.update(headers or {})
    token = csrf_token(session.get(url + "/login", timeout=10))
    answer = session.post(url + "/login", timeout=10, data={
        "email": email, "password": password, "csrf_token": token})
    if code is not None and urlsplit(answer.url).path.startswith("/login/code"):
        answer = session.post(answer.url, timeout=10, data={
            "code": code(), "csrf_token": csrf_token(answer)})
    assert answer.ok and not urlsplit(answer.url).path.startswith("/login"), "sign-in failed"
    return session
