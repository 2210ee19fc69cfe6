"""`manage.py welcome`: the last words of `make run`, once the server answers.

`make run` prints pip, migrations, the demo and the server's own banner before anything a
newcomer needs. This prints what they need, last: the address, the demo's sign-ins and
the pages to open first. With ``--wait`` it first waits (in the background of `make run`)
until the development server accepts connections, so nothing the server prints as it
starts pushes these lines off the screen.
"""

from __future__ import annotations

import socket
import time

from django.core.management.base import BaseCommand, CommandParser
from django.db import close_old_connections

from demo.event import DEMO_EVENT_NAME
from demo.signins import demo_usernames
from tournament.models import Event

# What each demo account is for, in the order demo.event.DEMO_OFFICIALS makes them.
ROLES = {
    "organizer": "the organizer: events, players, seating, printouts, public pages",
    "headjudge": "the head judge: the clock, ties, posting a round's results",
    "judge": "a judge: the check-in desk, no-shows",
    "banker": "a banker: the score sheets of their tables",
}


def wait_for(host: str, port: int, timeout_s: float) -> bool:
    """True once something accepts connections there (no request: no line in its log)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        with socket.socket() as sock:
            sock.settimeout(0.5)
            if sock.connect_ex((host, port)) == 0:
                return True
        time.sleep(0.25)
    return False


class Command(BaseCommand):
    help = "Print the address, the demo's sign-ins and the pages to open first."
    requires_system_checks = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--address", default="127.0.0.1:8000", help="HOST:PORT served")
        parser.add_argument(
            "--wait",
            type=float,
            default=0,
            metavar="SECONDS",
            help="first wait this long at most for the server to accept connections",
        )
        parser.add_argument("--worker-log", default="", help="where the background worker writes")

    def handle(self, *args, **options) -> None:
        host, _, port = options["address"].rpartition(":")
        base = f"http://{options['address']}"
        # Read before waiting: the server's first requests should not wait on this process.
        usernames = demo_usernames()
        event = Event.objects.filter(name=DEMO_EVENT_NAME).order_by("pk").first()
        close_old_connections()
        if options["wait"] and not wait_for(host, int(port), options["wait"]):
            return
        lines = self.lines(base, usernames, event, worker_log=options["worker_log"])
        self.stdout.write("\n".join(lines))

    def lines(
        self, base: str, usernames: list[str], event: Event | None, *, worker_log: str = ""
    ) -> list[str]:
        lines = ["", self.style.SUCCESS(f"Boardwalk is running at {base}/"), ""]
        if usernames:
            lines.append(
                f"Sign in at {base}/accounts/login/ with a demo account; "
                "the password is the username:"
            )
            lines += [f"  {name:<11} {ROLES.get(name, '')}".rstrip() for name in usernames]
        else:
            lines.append(
                f"Sign in at {base}/accounts/login/ with your own account "
                "(.venv/bin/python manage.py createsuperuser makes one)."
            )
        lines += ["", "Open first:"]
        if event is not None:
            cockpit, public = f"{base}/organizer/events/{event.pk}/", f"{base}/events/{event.pk}/"
            width = max(len(cockpit), len(public))
            lines += [
                f"  {cockpit:<{width}}  {event.name}'s day, signed in as organizer",
                f"  {public:<{width}}  its public pages, as a spectator sees them",
            ]
        lines += [
            f"  {base}/organizer/  every event (a club knockout, a junior event, a series)",
            "",
        ]
        if worker_log:
            lines.append(f"The background worker (printouts, big imports) writes to {worker_log}.")
        lines += ["Ctrl-C stops the server and the background worker.", ""]
        return lines
