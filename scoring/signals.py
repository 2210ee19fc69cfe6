"""What scoring tells the apps above it, which it may not import (docs/architecture.md)."""

from django.dispatch import Signal

# Sent with ``round_`` and ``by`` inside the posting's transaction, once a round's scores
# are posted: a series (series/apps.py) fixes a regional's qualifiers when its last round is.
round_posted = Signal()
