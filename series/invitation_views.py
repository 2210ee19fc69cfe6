"""The invitation pages: the player's link (public, no login) and the organizer's actions
(the deadline, sending a link again). Thin: ``invitations.py`` and ``invitation_mail.py``
decide."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from series import invitations, selectors
from series.forms import DeadlineForm
from series.invitation_mail import invitation_from_token, invitation_resend, invitations_unavailable
from series.models import DIVISIONS, Entrant, Series
from tournament.access import organizer_required
from tournament.requests import AuthenticatedHttpRequest


@never_cache
def answer(request: HttpRequest, series_pk: int, token: str) -> HttpResponse:
    """A qualifier's personal page: their place, and Accept or Decline. Only a button's POST
    changes anything; a link used, expired, replaced or for another series changes nothing."""
    invitation = invitation_from_token(token)
    if invitation is None:
        # As Django's password-reset page does with a bad link: a page that says so.
        return render(request, "series/answer.html", {"problem": "unknown"})
    problem = invitations.link_problem(invitation=invitation, series_pk=series_pk)
    if problem == invitations.OTHER_SERIES:
        # Nothing of the other series' place is shown here.
        return render(request, "series/answer.html", {"problem": problem})
    error = ""
    if request.method == "POST" and problem is None:
        choice = request.POST.get("answer", "")
        if choice == "decline" and request.POST.get("sure") != "yes":
            error = _("Tick the box to say you give up your place, then decline again.")
        elif choice in ("accept", "decline"):
            try:
                invitations.invitation_answer(
                    invitation=invitation, series_pk=series_pk, accept=choice == "accept"
                )
            except ValidationError as refusal:
                error = " ".join(refusal.messages)
            else:
                return redirect(request.path)
    elif request.method == "POST":
        error = _("Nothing was changed.")
    invitation.refresh_from_db()
    entrant = invitation.entrant
    entrant.refresh_from_db()
    return render(
        request,
        "series/answer.html",
        {
            "invitation": invitation,
            "entrant": entrant,
            "series": entrant.series,
            "final_label": dict(DIVISIONS)[entrant.division],
            "finals": selectors.series_finals(series=entrant.series, division=entrant.division),
            "problem": invitations.link_problem(invitation=invitation, series_pk=series_pk),
            "error": error,
        },
    )


def _series_home(series: Series, anchor: str = "") -> HttpResponse:
    url = reverse("series:detail", kwargs={"series_pk": series.pk})
    return redirect(f"{url}#{anchor}" if anchor else url)


@organizer_required
@require_POST
def deadline(request: AuthenticatedHttpRequest, series_pk: int) -> HttpResponse:
    """Set when qualifiers must answer; whoever was not invited yet is invited now."""
    series = get_object_or_404(Series, pk=series_pk)
    form = DeadlineForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            for message in errors:
                messages.error(request, str(message))
        return _series_home(series, "invitations")
    try:
        count = invitations.deadline_set(series=series, by=request.user, **form.cleaned_data)
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
        return _series_home(series, "invitations")
    note = invitations_unavailable(series=series)
    if note:
        messages.warning(request, note)
    messages.success(
        request,
        ngettext(
            "The deadline is saved; %(count)s invitation is on its way.",
            "The deadline is saved; %(count)s invitations are on their way.",
            count,
        )
        % {"count": count},
    )
    return _series_home(series, "invitations")


@organizer_required
@require_POST
def resend(request: HttpRequest, series_pk: int, entrant_pk: int) -> HttpResponse:
    """Email an entrant's link again (the same link: the first email still works)."""
    series = get_object_or_404(Series, pk=series_pk)
    entrant = get_object_or_404(Entrant, pk=entrant_pk, series=series)
    if invitation_resend(entrant=entrant):
        message = _("The link is sent to %(alias)s again.") % {"alias": entrant.alias}
        messages.success(request, message)
    else:
        messages.error(
            request,
            invitations_unavailable(series=series)
            or _("%(alias)s has answered, or has no email address: nothing was sent.")
            % {"alias": entrant.alias},
        )
    return _series_home(series, entrant.division)
