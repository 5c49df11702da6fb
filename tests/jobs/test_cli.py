"""``flask --app app worker``: its options, ``--once``, and the loop until it is stopped."""

from __future__ import annotations

import threading

from portal.app.worker.loop import WorkerOptions, work
from tests.jobs.support import SCHEDULES, queue_import, stored_import


class StopWhenIdle(threading.Event):
    """A stop signal that arrives the first time the worker finds nothing to do."""

    def __init__(self) -> None:
        super().__init__()
        self.idle = 0

    def wait(self, timeout: float | None = None) -> bool:
        """Count the idle pause and stop the worker instead of sleeping."""
        self.idle += 1
        self.set()
        return True


def test_once_runs_what_is_due_and_stops(portal_clock, app, runner, sandbox):
    import_id = queue_import(app, 2)
    result = runner.invoke(args=["worker", "--once"])
    assert result.exit_code == 0, result.output
    assert f"{1 + SCHEDULES} jobs run." in result.output  # the import, each schedule's first
    assert stored_import(app, import_id).state == "finished"


def test_the_loop_works_until_idle_and_stops_when_asked(portal_clock, app, sandbox):
    import_id = queue_import(app, 2)
    stopping = StopWhenIdle()
    work(app, WorkerOptions(name="loop"), stopping)
    assert stopping.idle == 1
    assert stored_import(app, import_id).state == "finished"


def test_times_must_be_positive_numbers_of_seconds(runner):
    for option in ("--lease", "--poll", "--sync-every", "--reminders-every"):
        for value in ("0", "-5", "soon"):
            result = runner.invoke(args=["worker", option, value, "--once"])
            assert result.exit_code == 2, (option, value)
            assert option in result.output
