"""A real ``jobs_worker`` process whose jobs stop at a gate the test opens.

    python -m tests.jobs.gated_worker --no-reload --interval 0.1   (the options are db_worker's)

Everything is the project's own code on the real database queue; only the pace is the
test's. Each progress report of a job writes JOBS_GATE/reported, then waits until the
test creates JOBS_GATE/open, so a test can look at (or kill) the worker mid-job. With
JOBS_GATE_FAIL set, the job raises that message at its first report instead. Score sheets
report every two pages here, instead of every 25, so a small round has steps to show.
"""

import os
import sys
import time
from pathlib import Path

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.core.management import call_command  # noqa: E402

import printouts.render  # noqa: E402
from jobs import services  # noqa: E402

GATE = Path(os.environ["JOBS_GATE"])
report = services._Beat.report


def gated_report(self, done: int, total: int) -> None:
    report(self, done, total)
    (GATE / "reported").write_text(f"{done}/{total}")
    if os.environ.get("JOBS_GATE_FAIL"):
        raise RuntimeError(os.environ["JOBS_GATE_FAIL"])
    while not (GATE / "open").exists():
        time.sleep(0.05)


services._Beat.report = gated_report
printouts.render.CHUNK = 2

if __name__ == "__main__":
    call_command("jobs_worker", *sys.argv[1:])
