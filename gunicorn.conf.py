"""gunicorn's settings for the portal: ``gunicorn --config gunicorn.conf.py app:app``.

gunicorn also reads this file by itself when started from the project folder.
"""

import os
import shutil
import sys
import tempfile

# Prometheus' multiprocess mode: each worker writes its metrics to files in this folder and
# /metrics adds them up. It must be set before prometheus_client is first imported (here, in the
# master, which the workers fork from). Without PROMETHEUS_MULTIPROC_DIR a private folder is
# made for this server and removed when it stops.
_own_metrics_folder = "PROMETHEUS_MULTIPROC_DIR" not in os.environ
if _own_metrics_folder:
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="portal-metrics-")

from prometheus_client import multiprocess  # noqa: E402  (after the folder is set)

from portal.core.config import ConfigError  # noqa: E402
from portal.core.startup import checked_settings, refusal  # noqa: E402

#: Every line gunicorn writes (access log included) goes through the portal's log redaction,
#: and is JSON when LOG_FORMAT=json.
logger_class = "portal.features.monitoring.gunicorn_logging.RedactingLogger"
accesslog = "-"
#: The combined format plus the request id (the X-Request-ID the portal answered with).
access_log_format = ('%(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s" '
                     '%({x-request-id}o)s')
workers = 2
#: gunicorn believes no forwarded header, not even from 127.0.0.1: the portal decides, with
#: TRUSTED_PROXIES (see docs/operator/tls-proxy.md).
forwarded_allow_ips = ""
secure_scheme_headers: dict[str, str] = {}


#: The portal's WSGI app as gunicorn names it (docs/operator/several-processes.md,
#: scripts/run-dev.sh). The configuration check below is the portal's, so another app served
#: with this file (a test's sandbox) skips it.
PORTAL_APP = "app:app"


def on_starting(server):
    """Check the portal's configuration in the master, before any port is opened or worker
    booted: an error stops gunicorn itself with the one line naming the variable (a worker
    failing on it would be booted again and again). Then start from empty metrics: files left
    by an earlier run would be added to this one's."""
    if getattr(server.app, "app_uri", None) == PORTAL_APP:
        try:
            checked_settings()
        except ConfigError as exc:
            on_exit(server)
            if server.pidfile is not None:
                server.pidfile.unlink()
            sys.exit(refusal(exc))
    folder = os.environ["PROMETHEUS_MULTIPROC_DIR"]
    os.makedirs(folder, exist_ok=True)
    for name in os.listdir(folder):
        if name.endswith(".db"):
            os.remove(os.path.join(folder, name))


def child_exit(server, worker):
    """A worker ended: its live gauges stop counting (its counters stay in the totals)."""
    multiprocess.mark_process_dead(worker.pid)


def on_exit(server):
    """Remove the metrics folder this file made."""
    if _own_metrics_folder:
        shutil.rmtree(os.environ["PROMETHEUS_MULTIPROC_DIR"], ignore_errors=True)


def post_worker_init(worker):
    """Say when a worker has loaded the app and takes requests (operators, and the tests that
    need every worker up, read this line)."""
    worker.log.info("Worker ready (pid: %s)", worker.pid)
