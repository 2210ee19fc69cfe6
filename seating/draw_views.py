"""Drawing round 1 again from the seating page, before its tables are published (draw.py)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from seating.redraw import round_redraw
from tournament.access import organizer_required
from tournament.idempotency import official_idempotent
from tournament.lookups import event_or_404, round_or_404

# The engine's time for the redraw; the organizer waits on the page as for a pre-seat.
REDRAW_SECONDS = 10.0


@organizer_required
@require_POST
@official_idempotent
def seating_redraw(request: HttpRequest, pk: int, round_number: int) -> HttpResponse:
    """Draw round 1 again with a new seed; refused once published or started."""
    event = event_or_404(pk)
    round_ = round_or_404(event, round_number)
    try:
        round_ = round_redraw(round_=round_, time_limit=REDRAW_SECONDS)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(
            request,
            _("Round 1 is drawn again (seed %(seed)s).") % {"seed": round_.draw_seed},
        )
    url = reverse("seating:seating", kwargs={"pk": event.pk})
    return redirect(f"{url}?round={round_.number}#round-{round_.number}")
