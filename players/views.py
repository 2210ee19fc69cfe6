"""Organizer and judge pages: thin views over ``services`` and ``selectors``.

Every view is wrapped in a decorator from ``access`` (the permission tests check this), and
every change is a POST answered with a redirect, so a reload never repeats an action. A
service's ``ValidationError`` becomes a message or a form error, never a server error.
The check-in desk answers htmx requests with partials; without JavaScript the same forms
post normally and come back to the page they were sent from.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from players import alternates, services, waiting_services
from players.no_show_selectors import (
    no_show_refusal,
    no_show_undo_refusal,
    no_show_waits_for_the_head_judge,
    not_here_at_the_start,
)
from players.pages import back, player_or_404
from players.selectors import check_in_counts, player_roster, player_search, promotion_target
from tournament.access import judge_required, organizer_required
from tournament.formats import (
    event_is_knockout,
    event_minimum_players,
)
from tournament.idempotency import official_idempotent
from tournament.lookups import event_or_404
from tournament.models import Event, Player
from tournament.organizer_forms import AliasForm, ReasonForm, SearchForm
from tournament.pages import error_message, safe_next, same_site_path
from tournament.requests import AuthenticatedHttpRequest, HtmxHttpRequest

# People listed at once at the check-in desk; the search finds the others.
CHECK_IN_PAGE_SIZE = 50


# --- The player list ---------------------------------------------------------------


@organizer_required
def player_list(request: HttpRequest, pk: int) -> HttpResponse:
    """Everyone registered: seated (a page at a time), the alternates in order, and those
    who are out; ``?q=`` narrows every list to the people matching the words typed."""
    event = event_or_404(pk)
    form = SearchForm(request.GET)
    query = form.cleaned_data["q"] if form.is_valid() else ""
    return render(
        request,
        "players/player_list.html",
        {
            "event": event,
            "roster": player_roster(event=event, query=query, page=request.GET.get("page", 1)),
            # Tournament Kit: "You must have a minimum of 24 players" (a club event); the
            # Championship Rules' own minimums.
            "minimum_players": event_minimum_players(event=event),
            "knockout": event_is_knockout(event=event),
        },
    )


@organizer_required
@official_idempotent
def player_alias(request: HttpRequest, pk: int, player_pk: int) -> HttpResponse:
    """Change a public alias; on a clash the page comes back with the alias as typed."""
    event = event_or_404(pk)
    player = player_or_404(event, player_pk)
    form = AliasForm(request.POST or None, initial={"alias": player.alias})
    if request.method == "POST" and form.is_valid():
        old = player.alias
        try:
            services.player_set_alias(player=player, alias=form.cleaned_data["alias"])
        except ValidationError as error:
            for field, errors in error.message_dict.items():
                form.add_error("alias" if field == "alias" else None, errors)
        else:
            messages.success(
                request,
                _("“%(old)s” is now “%(new)s”.") % {"old": old, "new": player.alias},
            )
            return redirect("players:player_list", pk=event.pk)
    return render(
        request,
        "players/player_alias.html",
        {"event": event, "player": player, "form": form},
    )


@organizer_required
@require_POST
@official_idempotent
def alternate_move(request: HttpRequest, pk: int, player_pk: int) -> HttpResponse:
    """Move an alternate one place up or down the list.

    The step is taken from the place the page showed (``from``), so a double tap, or two
    organizers pressing the same arrow, moves the alternate once.
    """
    event = event_or_404(pk)
    player = player_or_404(event, player_pk)
    step = -1 if request.POST.get("direction") == "up" else 1
    shown = request.POST.get("from", "")
    # ASCII digits only: int() refuses "²" and numbers longer than 4300 digits.
    if shown.isascii() and shown.isdigit() and len(shown) <= 6:
        start = int(shown)
    else:
        start = player.alternate_position or 0
    try:
        moved = alternates.alternate_move(player=player, to_position=start + step)
    except ValidationError as error:
        error_message(request, error)
    else:
        text = (
            _("%(alias)s is now alternate #%(position)s.")
            if moved
            else _("%(alias)s is already alternate #%(position)s.")
        )
        values = {"alias": player.alias, "position": player.alternate_position}
        (messages.success if moved else messages.info)(request, text % values)
    return back(request, event)


@organizer_required
@official_idempotent
def waiting_promote(request: AuthenticatedHttpRequest, pk: int, player_pk: int) -> HttpResponse:
    """Take someone off the waiting list: the page says where they go, the POST does it."""
    event = event_or_404(pk)
    player = player_or_404(event, player_pk)
    if request.method == "POST":
        try:
            player = waiting_services.waiting_promote(player=player, by=request.user)
        except ValidationError as error:
            error_message(request, error)
        else:
            messages.success(request, _promoted_text(player))
        return redirect(reverse("players:player_list", kwargs={"pk": event.pk}) + "#waiting")
    return render(
        request,
        "players/waiting_promote.html",
        {
            "event": event,
            "player": player,
            "target": promotion_target(event=event),
            "alternates": Player.objects.filter(
                event=event, status=Player.Status.ALTERNATE
            ).count(),
        },
    )


def _promoted_text(player: Player) -> str:
    if player.status == Player.Status.PLAYER:
        text = _("%(alias)s (%(name)s) has a place now.")
    else:
        text = _("%(alias)s (%(name)s) is now alternate number %(position)s.")
    return text % {
        "alias": player.alias,
        "name": player.full_name,
        "position": player.alternate_position,
    }


@organizer_required
@require_POST
@official_idempotent
def waiting_return(request: AuthenticatedHttpRequest, pk: int, player_pk: int) -> HttpResponse:
    """Undo a promotion: back to the waiting list, at the place of their registration."""
    event = event_or_404(pk)
    player = player_or_404(event, player_pk)
    try:
        player = waiting_services.waiting_return(player=player, by=request.user)
    except ValidationError as error:
        error_message(request, error)
    else:
        messages.success(
            request,
            _("%(alias)s is back on the waiting list, number %(position)s.")
            % {"alias": player.alias, "position": player.waiting_position},
        )
    return redirect(reverse("players:player_list", kwargs={"pk": event.pk}) + "#waiting")


@organizer_required
@require_POST
@official_idempotent
def alternate_fill_seat(request: HttpRequest, pk: int) -> HttpResponse:
    """At the start of a round, the next alternate takes an empty seat."""
    event = event_or_404(pk)
    try:
        alternate = services.alternate_fill_seat(event=event, only_if_empty=True)
    except ValidationError as error:
        error_message(request, error)
    else:
        if alternate is None:
            messages.warning(request, _("No alternate is waiting."))
        else:
            messages.success(
                request, _("%(alias)s takes an empty seat.") % {"alias": alternate.alias}
            )
    return back(request, event)


@judge_required
@require_POST
@official_idempotent
def player_no_show(request: AuthenticatedHttpRequest, pk: int, player_pk: int) -> HttpResponse:
    """A seated player absent at the start loses the seat; the next alternate takes it."""
    event = event_or_404(pk)
    player = player_or_404(event, player_pk)
    refusal = no_show_refusal(player=player)
    if refusal is not None:
        messages.error(request, refusal)
        return back(request, event)
    try:
        replacement = services.player_mark_no_show(player=player, by=request.user)
    except ValidationError as error:
        error_message(request, error)
    else:
        if replacement is None and no_show_waits_for_the_head_judge(event=event):
            messages.warning(
                request,
                _(
                    "%(alias)s is a no-show. The seat waits for the head judge's choice at "
                    "the round's start: an alternate, the table short, or tables rebalanced."
                )
                % {"alias": player.alias},
            )
        elif replacement is None:
            messages.warning(
                request,
                _("%(alias)s is a no-show. No alternate is waiting; the seat stays empty.")
                % {"alias": player.alias},
            )
        else:
            messages.success(
                request,
                _("%(alias)s is a no-show; %(replacement)s (%(name)s) takes the seat.")
                % {
                    "alias": player.alias,
                    "replacement": replacement.alias,
                    "name": replacement.full_name,
                },
            )
    return back(request, event)


@organizer_required
@require_POST
@official_idempotent
def player_withdraw(request: AuthenticatedHttpRequest, pk: int, player_pk: int) -> HttpResponse:
    """Someone leaves of their own accord; an optional reason is kept."""
    event = event_or_404(pk)
    player = player_or_404(event, player_pk)
    try:
        services.player_withdraw(
            player=player, reason=request.POST.get("reason", "").strip(), by=request.user
        )
    except ValidationError as error:
        error_message(request, error)
    else:
        messages.success(request, _("%(alias)s has withdrawn.") % {"alias": player.alias})
        return _left(request, event, player)
    return back(request, event)


def _left(request: HttpRequest, event: Event, player: Player) -> HttpResponseRedirect:
    """After a withdrawal or an ejection: the result, with its undo, then back to ``next``."""
    url = reverse("players:player_leave_result", kwargs={"pk": event.pk, "player_pk": player.pk})
    next_url = safe_next(request, request.POST.get("next", ""))
    if next_url:
        url += "?" + urlencode({"next": next_url})
    return HttpResponseRedirect(url)


@judge_required
@official_idempotent
def player_eject(request: AuthenticatedHttpRequest, pk: int, player_pk: int) -> HttpResponse:
    """A judge ejects a player; without a reason the form comes back with the error."""
    event = event_or_404(pk)
    player = player_or_404(event, player_pk)
    form = ReasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.player_eject(
                player=player, reason=form.cleaned_data["reason"], by=request.user
            )
        except ValidationError as error:
            if hasattr(error, "error_dict"):
                for field, errors in error.message_dict.items():
                    form.add_error("reason" if field == "reason" else None, errors)
            else:
                form.add_error(None, error)
        else:
            messages.success(request, _("%(alias)s has been ejected.") % {"alias": player.alias})
            return _left(request, event, player)
    next_url = same_site_path(request, request.POST.get("next") or request.GET.get("next", ""))
    return render(
        request,
        "players/player_eject.html",
        {"event": event, "player": player, "form": form, "next": next_url},
    )


# --- Check-in desk -----------------------------------------------------------------


@judge_required
def check_in(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Tablet-first desk: find someone by name or alias and check them in with one tap."""
    event = event_or_404(pk)
    form = SearchForm(request.GET)
    query = form.cleaned_data["q"].strip() if form.is_valid() else ""
    desk = reverse("players:check_in", kwargs={"pk": event.pk})
    paginator = Paginator(player_search(event=event, query=query), CHECK_IN_PAGE_SIZE)
    page = paginator.get_page(request.GET.get("page", 1))
    players = list(page.object_list)
    for player in players:
        # A no-show found at the desk shows its undo, or why it is too late.
        if player.status == player.Status.NO_SHOW:
            player.undo_refusal = no_show_undo_refusal(player=player)
    context = {
        "event": event,
        "form": form,
        "query": query,
        "page": page,
        "players": players,
        "not_here": not_here_at_the_start(event=event),
        "counts": check_in_counts(event=event),
        "next": desk + (f"?{urlencode({'q': query})}" if query else ""),
    }
    template = "players/_check_in_results.html" if request.htmx else "players/check_in.html"
    return render(request, template, context)


def _check_in_action(request: HtmxHttpRequest, pk: int, player_pk: int, *, undo: bool):
    event = event_or_404(pk)
    player = player_or_404(event, player_pk)
    error = ""
    try:
        if undo:
            services.player_undo_check_in(player=player)
        else:
            services.player_check_in(player=player)
    except ValidationError as exc:
        error = " ".join(exc.messages)
    if request.htmx:
        # The row and the counters change in place; a message would only show up later.
        return render(
            request,
            "players/_check_in_row_response.html",
            {
                "event": event,
                "player": player,
                "error": error,
                "counts": check_in_counts(event=event),
                "next": request.POST.get("next", ""),
            },
        )
    if error:
        messages.error(request, error)
    elif undo:
        messages.success(request, _("Check-in of %(alias)s undone.") % {"alias": player.alias})
    else:
        messages.success(request, _("%(alias)s checked in.") % {"alias": player.alias})
    return back(request, event)


@judge_required
@require_POST
@official_idempotent
def player_check_in(request: HtmxHttpRequest, pk: int, player_pk: int) -> HttpResponse:
    """Record that someone has arrived."""
    return _check_in_action(request, pk, player_pk, undo=False)


@judge_required
@require_POST
@official_idempotent
def player_undo_check_in(request: HtmxHttpRequest, pk: int, player_pk: int) -> HttpResponse:
    """Take back a check-in tapped by mistake."""
    return _check_in_action(request, pk, player_pk, undo=True)
