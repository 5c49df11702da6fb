"""``flask --app app worker``: run background jobs and the outbox until stopped."""

from __future__ import annotations

import signal
import threading
from datetime import timedelta
from types import FrameType

import click
from flask import current_app
from flask.cli import with_appcontext

from portal.app.worker.loop import WorkerOptions, run_due, work
from portal.app.worker.tasks import Intervals
from portal.core.config import current_settings
from portal.core.row_claims import LEASE

SECONDS = click.FloatRange(min=0.05)


@click.command("worker")
@click.option("--lease", type=click.FloatRange(min=1), default=LEASE.total_seconds(),
              show_default=True, metavar="SECONDS",
              help="How long a claimed job stays this worker's without a heartbeat.")
@click.option("--poll", type=SECONDS, default=1.0, show_default=True, metavar="SECONDS",
              help="The pause when there is nothing to do.")
@click.option("--sync-every", type=click.FloatRange(min=1), default=60.0, show_default=True,
              metavar="SECONDS", help="How often the status sync runs (when first scheduled).")
@click.option("--reminders-every", type=click.FloatRange(min=1), default=3600.0,
              show_default=True, metavar="SECONDS",
              help="How often due reminders are sent (when first scheduled).")
@click.option("--once", is_flag=True, help="Run what is due now, then stop.")
@with_appcontext
def worker_command(lease: float, poll: float, sync_every: float, reminders_every: float,
                   once: bool) -> None:
    """Run background work: queued step sends (every pass), bulk imports, account emails
    (password resets, invitations), and the periodic jobs: the status sync, reminders,
    document retention and the payment status poll (every PAYMENT_POLL_SECONDS).

    Run one or more, beside the web processes; SIGTERM or Ctrl-C stops a worker after the rows
    or item in hand (a job left unfinished goes on in another worker).
    """
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    payment_poll = timedelta(seconds=current_settings().payment_poll_seconds)
    options = WorkerOptions(lease=timedelta(seconds=lease), poll=poll,
                            intervals=Intervals(sync=timedelta(seconds=sync_every),
                                                reminders=timedelta(seconds=reminders_every),
                                                payment_poll=payment_poll))
    if once:
        click.echo(f"{run_due(app, options)} jobs run.")
        return
    stopping = threading.Event()

    def stop(_signum: int, _frame: FrameType | None) -> None:
        stopping.set()

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        work(app, options, stopping)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
