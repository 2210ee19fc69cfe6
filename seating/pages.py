"""What the seating's pages share: the way back to the seating page, on the right tab."""

from __future__ import annotations

from django.http import HttpResponseRedirect
from django.shortcuts import redirect
from django.urls import reverse

from seating.selectors import seating_table_page
from tournament.models import Event, Table


def back_to_seating(
    event: Event, anchor: str = "", round_number: int | None = None, table: Table | None = None
) -> HttpResponseRedirect:
    """Back to the seating page, on ``round_number``'s tab (and ``table``'s page) if given."""
    url = reverse("seating:seating", kwargs={"pk": event.pk})
    if round_number is not None:
        url += f"?round={round_number}"
        if table is not None:
            url += f"&page={seating_table_page(table=table)}"
    return redirect(url + (f"#{anchor}" if anchor else ""))
