"""The judges' seat-change page: swap two players or move one, after seeing the cost.

Its first POST only prices the change (the services' dry run) and renders the answer with
a Confirm button, so nothing moves until the judge has seen what it costs; Confirm posts
the same choices and is answered with a redirect.

A small round lists everyone in its selects and shows all its tables. A big one (2,000
players, 500 tables) would make that page megabytes and seconds long, so there the judge
searches instead: an alias or a table number (a GET form, no script needed) gives a page
of matching seats, each with links that choose it as the player or the one to swap with;
the choices ride in the query string, then in the cost form's hidden fields.
"""

from __future__ import annotations

from typing import cast
from urllib.parse import urlencode

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from seating import services as seating_services
from seating.selectors import (
    round_seat_find,
    round_seat_get,
    round_seated_count,
    round_seating,
    round_seats_of,
    round_tables_numbered,
)
from seating.services import MoveCost
from tournament.access import judge_required
from tournament.idempotency import official_idempotent
from tournament.lookups import event_or_404, round_or_404
from tournament.models import Round, Seat

# Up to this many seated players the selects list everyone: short enough to scroll, and
# a club night needs no search. Above it, the page searches.
FULL_LIST_MAX = 40
# Seats a search shows at once; more matches ask for a longer search.
FIND_LIMIT = 20


class SeatChangeForm(forms.Form):
    """Pick a player, then either someone to swap with or a table to move to.

    With ``tables`` the players and tables are selects of everyone; without (a big round)
    the two players are hidden fields filled by the search, the table a number typed, and
    the services say when a player has no seat or a table does not exist.
    """

    player = forms.TypedChoiceField(label=gettext_lazy("Player"), coerce=int)
    swap_with = forms.TypedChoiceField(
        label=gettext_lazy("Swap seats with"), coerce=int, required=False, empty_value=None
    )
    to_table = forms.TypedChoiceField(
        label=gettext_lazy("…or move to table"), coerce=int, required=False, empty_value=None
    )

    def __init__(self, *args, tables=None, **kwargs):
        super().__init__(*args, **kwargs)
        if tables is None:
            self.fields["player"] = forms.IntegerField(widget=forms.HiddenInput)
            self.fields["swap_with"] = forms.IntegerField(widget=forms.HiddenInput, required=False)
            self.fields["to_table"] = forms.IntegerField(
                label=gettext_lazy("…or move to table"), required=False, min_value=1
            )
            return
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
        data = super().clean() or {}
        swap_with, to_table = data.get("swap_with"), data.get("to_table")
        if (swap_with is None) == (to_table is None):
            raise ValidationError(_("Choose either a player to swap with or a table to move to."))
        if swap_with is not None and swap_with == data.get("player"):
            raise ValidationError(_("Choose two different players to swap."))
        return data


# --- Judges' seat changes --------------------------------------------------------------


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


def _chosen_pk(value: object) -> int | None:
    text = str(value or "")
    return int(text) if text.isascii() and text.isdigit() and len(text) < 12 else None


def _search_context(request: HttpRequest, round_: Round, form: SeatChangeForm) -> dict:
    """A big round's search: the matching seats with links that choose them, the players
    chosen so far (from the query string, or the posted form), their tables."""
    source = request.POST if request.method == "POST" else request.GET
    find = request.GET.get("find", "")[:100]
    player, swap_with = _chosen_pk(source.get("player")), _chosen_pk(source.get("swap_with"))
    chosen = round_seats_of(round_=round_, player_pks=[pk for pk in (player, swap_with) if pk])
    here = reverse(
        "seating:seating_change", kwargs={"pk": round_.event_id, "round_number": round_.number}
    )

    def link(**choices: int | None) -> str:
        query = {"find": find, "player": player, "swap_with": swap_with, **choices}
        return here + "?" + urlencode({k: v for k, v in query.items() if v not in (None, "")})

    found = round_seat_find(round_=round_, find=find, limit=FIND_LIMIT)
    rows = [
        {
            "seat": seat,
            "as_player": link(player=seat.player_id),
            "as_swap": link(swap_with=seat.player_id),
        }
        for seat in found.seats
    ]
    if request.method == "GET":
        form.initial = {"player": player, "swap_with": swap_with}
    to_table = _chosen_pk(source.get("to_table"))
    numbers = {seat.table.number for seat in chosen.values()} | ({to_table} if to_table else set())
    return {
        "find": find,
        "found": rows,
        "found_total": found.total,
        "find_limit": FIND_LIMIT,
        "chosen_player": chosen.get(player) if player is not None else None,
        "chosen_swap": chosen.get(swap_with) if swap_with is not None else None,
        "clear_player": link(player=None),
        "clear_swap": link(swap_with=None),
        "shown_tables": round_tables_numbered(round_=round_, numbers=numbers),
    }


def _price(request: HttpRequest, round_: Round, data: dict) -> tuple[str, str, str, int]:
    """Ask the services about the chosen change: a dry run unless confirmed. Returns the
    cost and the people it touches in words, the message once done, the table priced at;
    raises ``ValidationError`` when the change is refused."""
    priced_at = _priced_at(request)
    confirmed = request.POST.get("confirm") == "1"
    seat_ = _seat(round_, data["player"])
    if data["swap_with"] is not None:
        other = _seat(round_, data["swap_with"])
        cost = seating_services.swap_cost(seat_a=seat_, seat_b=other)
        moving = {seat_.player_id: other.table.number, other.player_id: seat_.table.number}
        done = _("%(a)s and %(b)s have swapped seats.") % {
            "a": seat_.player.alias,
            "b": other.player.alias,
        }
        # The first POST is a dry run: the service refuses, or passes, changing nothing.
        seating_services.seats_swap(
            seat_a=seat_, seat_b=other, from_table=priced_at, dry_run=not confirmed
        )
    else:
        cost = seating_services.move_cost(seat_=seat_, to_table=data["to_table"])
        moving = {seat_.player_id: data["to_table"]}
        done = _("%(alias)s moves to table %(number)s.") % {
            "alias": seat_.player.alias,
            "number": data["to_table"],
        }
        seating_services.seat_move(
            seat_=seat_, to_table=data["to_table"], from_table=priced_at, dry_run=not confirmed
        )
    # Only the tables the change touches: a big round's others are not read.
    numbers = {seat_.table.number, *moving.values()}
    affected = _affected_text(round_tables_numbered(round_=round_, numbers=numbers), moving)
    return _cost_text(cost), affected, done, seat_.table.number


@judge_required
@official_idempotent
def seating_change(request: HttpRequest, pk: int, round_number: int) -> HttpResponse:
    """Swap two players or move one to another table, after seeing what it costs.

    The first POST prices the change and asks the service whether it is legal (its dry
    run), changing nothing; the Confirm button posts the same choices with ``confirm=1``,
    and only then is the change made. On any refusal the page comes back with the choices
    still selected.
    """
    event = event_or_404(pk)
    round_ = round_or_404(event, round_number)
    full_list = round_seated_count(round_=round_) <= FULL_LIST_MAX
    current = round_seating(round_=round_) if full_list else None
    form = SeatChangeForm(request.POST or None, tables=current.tables if current else None)
    cost_text = affected_text = ""
    from_table = None
    if request.method == "POST" and form.is_valid():
        try:
            cost_text, affected_text, done, from_table = _price(request, round_, form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            if request.POST.get("confirm") == "1":
                messages.success(request, done)
                return redirect("seating:seating_change", pk=event.pk, round_number=round_.number)
    context = {
        "event": event,
        "round": round_,
        "current": current,
        "full_list": full_list,
        "form": form,
        "cost_text": cost_text,
        "affected_text": affected_text,
        "from_table": from_table,
    }
    if not full_list:
        context |= _search_context(request, round_, form)
    return render(request, "seating/change.html", context)
