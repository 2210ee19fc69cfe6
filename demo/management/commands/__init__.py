"""Command modules; Django discovers each file here as a `manage.py` subcommand."""
