"""Management commands for the demo app."""
