"""Seating pages: pre-seat the rounds, change seats before play, start and publish rounds.

Thin views over ``seating_services`` (writes) and ``selectors`` (reads), in the style of
``organizer_views``: every change is a POST answered with a redirect, and a service's
``ValidationError`` becomes a message, never a server error. A judge's seat change is the
one exception to POST/redirect: its first POST only prices the change and renders the
answer with a Confirm button, so nothing moves until the judge has seen what it costs.
The public table list lives here too, because it is the same data shown by alias only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from django import forms
from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from seating import reseat_services
from seating import services as seating_services
from seating.draw import DRAW_SEED_LIMIT, draw_seed_or_new
from seating.reseat_selectors import reseat_undo_refusal
from seating.round_tables import seating_stamp
from seating.services import MoveCost, VacancyResult
from seating.table_settings import table_set_language
from seating.words import report_summary
from tournament import play_order
from tournament.access import allowed_url, head_judge_required, judge_required, organizer_required
from tournament.formats import event_is_knockout
from tournament.lookups import event_or_404, round_or_404
from tournament.models import Event, Round, Seat, Table
from tournament.public_site import say_published
from tournament.selectors import (
    banker_choices,
    final_stage_seating,
    round_seat_get,
    round_seating,
    seating_page,
    seating_table_page,
)

# Pre-seating gives the engine this long; the organizer waits on the page meanwhile.
PRESEAT_SECONDS = 10.0


def _error_message(request: HttpRequest, error: ValidationError) -> None:
    messages.error(request, " ".join(error.messages))


def _seating_page(
    event: Event, anchor: str = "", round_number: int | None = None, table: Table | None = None
) -> HttpResponseRedirect:
    """Back to the seating page, on ``round_number``'s tab (and ``table``'s page) if given."""
    url = reverse("seating:seating", kwargs={"pk": event.pk})
    if round_number is not None:
        url += f"?round={round_number}"
        if table is not None:
            url += f"&page={seating_table_page(table=table)}"
    return redirect(url + (f"#{anchor}" if anchor else ""))


def _round_home(request: HttpRequest, round_: Round) -> HttpResponseRedirect:
    """Organizers go back to the seating page; judges, who cannot open it, to the round's
    change page, which is their view of the tables."""
    if allowed_url(request, "seating:seating", pk=round_.event_id):
        return _seating_page(
            round_.event, anchor=f"round-{round_.number}", round_number=round_.number
        )
    return redirect("seating:seating_change", pk=round_.event_id, round_number=round_.number)


# --- Forms ---------------------------------------------------------------------------
# Kept beside their only views: each is a few fields that hand choices to a service.


class PreseatForm(forms.Form):
    include_unchecked = forms.BooleanField(
        label=gettext_lazy("Include players not checked in"), required=False
    )
    seed = forms.IntegerField(
        label=gettext_lazy("Seed (optional)"),
        required=False,
        min_value=0,
        max_value=DRAW_SEED_LIMIT,
        help_text=gettext_lazy(
            "Empty: a new draw. The same seed and players give the same tables."
        ),
    )


class SeatChangeForm(forms.Form):
    """Pick a player, then either someone to swap with or a table to move to."""

    player = forms.TypedChoiceField(label=gettext_lazy("Player"), coerce=int)
    swap_with = forms.TypedChoiceField(
        label=gettext_lazy("Swap seats with"), coerce=int, required=False, empty_value=None
    )
    to_table = forms.TypedChoiceField(
        label=gettext_lazy("…or move to table"), coerce=int, required=False, empty_value=None
    )

    def __init__(self, *args, tables, **kwargs):
        super().__init__(*args, **kwargs)
        # Grouped by table, so a judge finds people where they sit.
        people = [
            (
                _("Table %(number)s") % {"number": t.table.number},
                [(s.player_id, f"{s.player.alias} · {s.player.full_name}") for s in t.seats],
            )
            for t in tables
        ]
        cast(forms.ChoiceField, self.fields["player"]).choices = [
            ("", _("Choose a player")),
            *people,
        ]
        cast(forms.ChoiceField, self.fields["swap_with"]).choices = [("", "—"), *people]
        cast(forms.ChoiceField, self.fields["to_table"]).choices = [
            ("", "—"),
            *[(t.table.number, _("Table %(number)s") % {"number": t.table.number}) for t in tables],
        ]

    def clean(self):
        super().clean()
        data = self.cleaned_data
        swap_with, to_table = data.get("swap_with"), data.get("to_table")
        if (swap_with is None) == (to_table is None):
            raise ValidationError(_("Choose either a player to swap with or a table to move to."))
        if swap_with is not None and swap_with == data.get("player"):
            raise ValidationError(_("Choose two different players to swap."))
        return data


# --- The organizer's seating page ---------------------------------------------------------


@organizer_required
def seating(request: HttpRequest, pk: int) -> HttpResponse:
    """One preliminary round's tables by wave (``?round=N``, a page of tables at a time),
    with the engine's report in words and the actions."""
    event = event_or_404(pk)
    knockout = event_is_knockout(event=event)
    view = seating_page(
        event=event, round_number=request.GET.get("round"), page=request.GET.get("page", 1)
    )
    report = view.seating.report if view.seating else {}
    return render(
        request,
        "tournament/seating/seating.html",
        {
            "event": event,
            "rounds": view.rounds,
            "view": view,
            "item": view.seating,
            "summary": report_summary(report),
            # Issue 15: the last re-seat of all rounds, while it can still be undone.
            "reseat_undo": not reseat_undo_refusal(event=event),
            "round_param": f"&round={view.seating.round.number}" if view.seating else "",
            "current": seating_services.seating_cost(event=event) if view.rounds else None,
            "preseat_form": PreseatForm(),
            "seating_stamp": seating_stamp(event=event),
            "bankers": list(banker_choices()),
            "languages": settings.LANGUAGES,
            # The final's tables (seated from the standings) get their banker here too.
            "final_rounds": final_stage_seating(event=event),
            # A knockout is seated round by round from its bracket, never pre-seated.
            "knockout": knockout,
        },
    )


@organizer_required
@require_POST
def seating_preseat(request: HttpRequest, pk: int) -> HttpResponse:
    """Seat every round not yet started, from the checked-in players unless told otherwise."""
    event = event_or_404(pk)
    form = PreseatForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("The seed must be a whole number, 0 or more."))
        return _seating_page(event)
    try:
        result = seating_services.preseat_event(
            event=event,
            only_checked_in=not form.cleaned_data["include_unchecked"],
            seed=draw_seed_or_new(form.cleaned_data["seed"]),
            time_limit=PRESEAT_SECONDS,
            # The tables the page showed: a second tap finds them changed (already done).
            seen=request.POST.get("seen") or None,
        )
    except ValidationError as error:
        _error_message(request, error)
    else:
        report = result.report
        messages.success(
            request,
            ngettext(
                "%(players)s players seated for %(rounds)s round.",
                "%(players)s players seated for %(rounds)s rounds.",
                report.rounds,
            )
            % {"players": report.players, "rounds": report.rounds},
        )
    return _seating_page(event)


@organizer_required
@require_POST
def seating_reseat_undo(request: HttpRequest, pk: int) -> HttpResponse:
    """Put back the seating the last re-seat of all rounds replaced (issue 15)."""
    event = event_or_404(pk)
    try:
        rounds = reseat_services.reseat_undo(event=event)
    except ValidationError as error:
        _error_message(request, error)
    else:
        messages.success(
            request,
            ngettext(
                "The re-seat is undone: round %(numbers)s has its tables from before again.",
                "The re-seat is undone: rounds %(numbers)s have their tables from before again.",
                len(rounds),
            )
            % {"numbers": ", ".join(str(r.number) for r in rounds)},
        )
    return _seating_page(event)


@organizer_required
@require_POST
def seating_publish(request: HttpRequest, pk: int, round_number: int) -> HttpResponse:
    """Show or hide a round's table assignments on the public page."""
    event = event_or_404(pk)
    round_ = round_or_404(event, round_number)
    published = request.POST.get("published", "1") == "1"
    back = _seating_page(event, anchor=f"round-{round_.number}", round_number=round_.number)
    try:
        seating_services.round_publish(round_=round_, published=published)
    except ValidationError as error:
        _error_message(request, error)
    else:
        if published:
            # Public unless the public site is held; the message says which.
            say_published(request, round_=round_, back=back.url)
        else:
            text = _("Round %(number)s's tables are hidden from the public.")
            messages.success(request, text % {"number": round_.number})
    return back


def _vacancy_messages(request: HttpRequest, result: VacancyResult) -> None:
    """Say who replaced whom and who moved: the judges re-direct those people to tables."""
    for left, stepped_in in result.replaced:
        messages.info(
            request,
            _("%(new_alias)s (%(new_name)s) takes the seat of %(old_alias)s (%(old_name)s).")
            % {
                "new_alias": stepped_in.alias,
                "new_name": stepped_in.full_name,
                "old_alias": left.alias,
                "old_name": left.full_name,
            },
        )
    for left in result.removed:
        messages.warning(
            request,
            _("No alternate for %(alias)s (%(name)s): the seat is removed.")
            % {"alias": left.alias, "name": left.full_name},
        )
    for player, from_table, to_table in result.moved:
        messages.info(
            request,
            _("%(alias)s (%(name)s) moves from table %(from)s to table %(to)s.")
            % {"alias": player.alias, "name": player.full_name, "from": from_table, "to": to_table},
        )


@head_judge_required
@require_POST
def seating_start(request: HttpRequest, pk: int, round_number: int) -> HttpResponse:
    """The head judge starts a round: empty seats are filled, then seats are frozen."""
    event = event_or_404(pk)
    round_ = round_or_404(event, round_number)
    try:
        result = seating_services.round_start(round_=round_)
    except ValidationError as error:
        _error_message(request, error)
    else:
        messages.success(request, _("Round %(number)s has started.") % {"number": round_.number})
        _vacancy_messages(request, result)
    return _round_home(request, round_)


@organizer_required
@require_POST
def seating_fill_vacancies(request: HttpRequest, pk: int, round_number: int) -> HttpResponse:
    """Put alternates in the seats of people who left, without starting the round."""
    event = event_or_404(pk)
    round_ = round_or_404(event, round_number)
    try:
        result = seating_services.round_fill_vacancies(round_=round_)
    except ValidationError as error:
        _error_message(request, error)
    else:
        if result.replaced or result.removed or result.moved:
            _vacancy_messages(request, result)
        else:
            messages.success(request, _("No seat is empty."))
    return _seating_page(event, anchor=f"round-{round_.number}", round_number=round_.number)


@organizer_required
@require_POST
def seating_roll(
    request: HttpRequest, pk: int, round_number: int, table_number: int
) -> HttpResponse:
    """The app rolls for a table: one die for token choice, two for the order of play."""
    event = event_or_404(pk)
    round_ = round_or_404(event, round_number)
    table = get_object_or_404(round_.tables, number=table_number)
    play_order.table_roll_play_order(table=table)
    messages.success(
        request,
        _("Round %(round)s, table %(table)s: token choice and play order rolled.")
        % {"round": round_.number, "table": table.number},
    )
    return _seating_page(
        event,
        anchor=f"round-{round_.number}-table-{table.number}",
        round_number=round_.number,
        table=table,
    )


@organizer_required
@require_POST
def seating_record_rolls(
    request: HttpRequest, pk: int, round_number: int, table_number: int
) -> HttpResponse:
    """The banker rolled real dice: record who chose a token first and who starts."""
    event = event_or_404(pk)
    round_ = round_or_404(event, round_number)
    table = get_object_or_404(round_.tables, number=table_number)
    players = list(table.seats.values_list("player_id", flat=True))

    def token_order() -> list[int] | None:
        places = {}
        for player_id in players:
            value = request.POST.get(f"token_{player_id}", "").strip()
            # ASCII digits only: int() refuses "²" and numbers longer than 4300 digits.
            if not (value.isascii() and value.isdigit()) or len(value) > 3:
                return None
            places[player_id] = int(value)
        if sorted(places.values()) != list(range(1, len(players) + 1)):
            return None
        return sorted(places, key=places.__getitem__)

    tokens = token_order()
    chosen = request.POST.get("starter", "")
    starter = next((p for p in players if str(p) == chosen), None)
    if tokens is None:
        messages.error(
            request,
            _("Number the players 1 to %(count)s for the token choice, each number once.")
            % {"count": len(players)},
        )
    elif starter is None:
        messages.error(request, _("Choose the player who rolled highest and starts the game."))
    else:
        play_order.table_record_play_order(table=table, token_order=tokens, starter=starter)
        messages.success(
            request,
            _("Round %(round)s, table %(table)s: the table's rolls are recorded.")
            % {"round": round_.number, "table": table.number},
        )
    return _seating_page(
        event,
        anchor=f"round-{round_.number}-table-{table.number}",
        round_number=round_.number,
        table=table,
    )


# --- Judges' seat changes --------------------------------------------------------------


class _Rehearsal(Exception):
    """Raised inside a savepoint to undo a change that was only tried for its legality."""


def _rehearse(change: Callable[[], None]) -> None:
    """Try ``change`` and undo it: the service decides whether it is legal, in one place.

    Raises the service's ``ValidationError`` for an illegal change (round started, size
    rule); a legal one is rolled back, so the first POST changes nothing.
    """
    try:
        with transaction.atomic():
            change()
            raise _Rehearsal
    except _Rehearsal:
        pass


def _cost_text(cost: MoveCost) -> str:
    """The price of a change in words: what a judge reads before confirming."""
    if cost.is_free:
        return _("This change costs nothing: no new repeat meetings or family conflicts.")
    repeats = ngettext(
        "%(count)s repeat meeting", "%(count)s repeat meetings", max(cost.new_repeats, 0)
    ) % {"count": max(cost.new_repeats, 0)}
    conflicts = ngettext(
        "%(count)s family conflict", "%(count)s family conflicts", max(cost.new_family_conflicts, 0)
    ) % {"count": max(cost.new_family_conflicts, 0)}
    return _("This adds %(repeats)s and %(conflicts)s.") % {
        "repeats": repeats,
        "conflicts": conflicts,
    }


def _affected_text(tables: list, moving: dict[int, int]) -> str:
    """Who a change touches, by alias and name: each player who moves, from which table to
    which, and the people at the tables they leave and join (their meetings change).

    ``moving`` maps a player's pk to the table number they go to.
    """
    where = {seat.player_id: (t.table.number, seat.player) for t in tables for seat in t.seats}
    parts, touched = [], set()
    for pk, to_table in moving.items():
        from_table, player = where[pk]
        touched |= {from_table, to_table}
        parts.append(
            _("%(alias)s (%(name)s) goes from table %(from)s to table %(to)s.")
            % {"alias": player.alias, "name": player.full_name, "from": from_table, "to": to_table}
        )
    for number in sorted(touched):
        others = [
            f"{p.alias} ({p.full_name})"
            for pk, (table, p) in where.items()
            if table == number and pk not in moving
        ]
        if others:
            parts.append(
                _("At table %(number)s with: %(people)s.")
                % {"number": number, "people": ", ".join(others)}
            )
    return " ".join(parts)


def _seat(round_: Round, player_pk: int) -> Seat:
    try:
        return round_seat_get(round_=round_, player_pk=player_pk)
    except Seat.DoesNotExist as exc:
        raise ValidationError(_("That player has no seat in this round.")) from exc


def _priced_at(request: HttpRequest) -> int | None:
    """The table the player sat at when the change was priced: a second tap on Confirm
    finds them elsewhere and is refused as already done (the services check it, locked)."""
    shown = request.POST.get("from_table", "")
    return int(shown) if shown.isascii() and shown.isdigit() and len(shown) < 6 else None


@judge_required
def seating_change(request: HttpRequest, pk: int, round_number: int) -> HttpResponse:
    """Swap two players or move one to another table, after seeing what it costs.

    The first POST prices the change and asks the service whether it is legal, changing
    nothing; the Confirm button posts the same choices with ``confirm=1``, and only then is
    the change made. On any refusal the page comes back with the choices still selected.
    """
    event = event_or_404(pk)
    round_ = round_or_404(event, round_number)
    current = round_seating(round_=round_)
    form = SeatChangeForm(request.POST or None, tables=current.tables)
    cost_text = affected_text = ""
    from_table = None
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        priced_at = _priced_at(request)
        try:
            seat_ = _seat(round_, data["player"])
            from_table = seat_.table.number
            if data["swap_with"] is not None:
                other = _seat(round_, data["swap_with"])
                cost = seating_services.swap_cost(seat_a=seat_, seat_b=other)

                def change() -> None:
                    seating_services.seats_swap(
                        seat_a=_seat(round_, data["player"]),
                        seat_b=_seat(round_, data["swap_with"]),
                        from_table=priced_at,
                    )

                affected = _affected_text(
                    current.tables,
                    {seat_.player_id: other.table.number, other.player_id: seat_.table.number},
                )
                done = _("%(a)s and %(b)s have swapped seats.") % {
                    "a": seat_.player.alias,
                    "b": other.player.alias,
                }
            else:
                cost = seating_services.move_cost(seat_=seat_, to_table=data["to_table"])

                def change() -> None:
                    seating_services.seat_move(
                        seat_=_seat(round_, data["player"]),
                        to_table=data["to_table"],
                        from_table=priced_at,
                    )

                affected = _affected_text(current.tables, {seat_.player_id: data["to_table"]})
                done = _("%(alias)s moves to table %(number)s.") % {
                    "alias": seat_.player.alias,
                    "number": data["to_table"],
                }
            if request.POST.get("confirm") == "1":
                change()
                messages.success(request, done)
                return redirect("seating:seating_change", pk=event.pk, round_number=round_.number)
            _rehearse(change)
            cost_text = _cost_text(cost)
            affected_text = affected
        except ValidationError as error:
            form.add_error(None, error)
    return render(
        request,
        "tournament/seating/change.html",
        {
            "event": event,
            "round": round_,
            "current": current,
            "form": form,
            "cost_text": cost_text,
            "affected_text": affected_text,
            "from_table": from_table,
        },
    )


@organizer_required
@require_POST
def seating_table_language(
    request: HttpRequest, pk: int, round_number: int, table_number: int
) -> HttpResponse:
    """Mark the language a table's game is played in (002: "same-language games")."""
    event = event_or_404(pk)
    round_ = round_or_404(event, round_number)
    table = get_object_or_404(round_.tables, number=table_number)
    try:
        table_set_language(table=table, language=request.POST.get("language", ""))
    except ValidationError as error:
        _error_message(request, error)
    else:
        messages.success(
            request,
            _("Round %(round)s, table %(table)s: game language saved.")
            % {"round": round_.number, "table": table.number},
        )
    return _seating_page(event, anchor=f"round-{round_.number}-table-{table.number}")
