"""Management commands for the tournament app."""
