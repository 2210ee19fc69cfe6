"""Django's command line with Boardwalk's settings: ``manage.py`` in the source folder and the
``boardwalk`` command of an installed copy (``pip install .``; README, Production) run this."""

import os
import sys


def main() -> None:
    """Run a Django management command with Boardwalk's settings unless told otherwise."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    try:
        from django.core.management import execute_from_command_line
    except ImportError as exc:
        raise ImportError(
            "Couldn't import Django. Is it installed and is the virtualenv active? "
            "Run `make install`, then use .venv/bin/python."
        ) from exc
    execute_from_command_line(sys.argv)
