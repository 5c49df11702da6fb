"""gunicorn's settings for the portal: ``gunicorn --config gunicorn.conf.py app:app``.

gunicorn also reads this file by itself when started from the project folder.
"""

#: Every line gunicorn writes (access log included) goes through the portal's log redaction.
logger_class = "portal.gunicorn_logging.RedactingLogger"
accesslog = "-"
workers = 2
#: gunicorn believes no forwarded header, not even from 127.0.0.1: the portal decides, with
#: TRUSTED_PROXIES (see README, "Behind a TLS-terminating proxy").
forwarded_allow_ips = ""
secure_scheme_headers: dict[str, str] = {}
