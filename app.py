"""WSGI entry point: ``flask --app app ...`` and ``gunicorn app:app``."""

from portal.factory import create_app

app = create_app()
