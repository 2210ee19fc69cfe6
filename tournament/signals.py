"""What tournament tells the apps above it, which it may not import (docs/architecture.md)."""

from django.dispatch import Signal

# Sent with ``round_`` once a round's table assignments are made public: printouts builds
# the round's score sheets and table cards then, so they are ready before anyone asks.
round_published = Signal()
