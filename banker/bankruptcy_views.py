"""The banker records a bankruptcy at the table, and the player signs as they leave.

Championship Rules, SPECTATORS: "When players are bankrupt, they should promptly sign their score
sheet and leave the table." From the banker's table page (``clock_views.banker_table``) the banker
opens the bankruptcy page: who went out, to whom, then the tablet goes to the player, who
types their initials. Thin views over ``bankruptcy_services``; a refused record comes back
with everything as chosen and the reason, an undo is confirmed on the page first.
"""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from banker import bankruptcy_services as services
from banker.access import banker_required
from scoring.bankruptcy_selectors import players_in_game, table_bankruptcy_view
from tournament.access import acting_user
from tournament.idempotency import idempotent
from tournament.lookups import table_or_404
from tournament.models import Bankruptcy, Player, Table

BANK = "bank"


class BankruptcyForm(forms.Form):
    """Who went out and to whom, chosen among the players still in the game."""

    player = forms.TypedChoiceField(
        label=gettext_lazy("Who went bankrupt?"), coerce=int, widget=forms.RadioSelect
    )
    creditor = forms.ChoiceField(label=gettext_lazy("To whom?"), widget=forms.RadioSelect)
    initials = forms.CharField(
        label=gettext_lazy("Initials of the player who is out"),
        max_length=10,
        help_text=gettext_lazy(
            "Hand the tablet to the player: their initials sign their score sheet, so they "
            "need not come back to sign it."
        ),
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters"}),
    )

    def __init__(self, *args: Any, players: list[Player], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.players = {p.pk: p for p in players}
        cast(forms.ChoiceField, self.fields["player"]).choices = [(p.pk, p.alias) for p in players]
        cast(forms.ChoiceField, self.fields["creditor"]).choices = [(BANK, _("The Bank"))] + [
            (str(p.pk), p.alias) for p in players
        ]
        self.fields["player"].error_messages["required"] = _("Choose the player who is out.")
        self.fields["creditor"].error_messages["required"] = _(
            "Choose who they owed: a player or the Bank."
        )
        for name in ("player", "creditor"):
            self.fields[name].error_messages["invalid_choice"] = _(
                "That player is no longer in the game; choose again from the list."
            )
        self.fields["initials"].error_messages["required"] = _(
            "The player writes their initials: that is their signature on the score sheet."
        )

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        if cleaned.get("creditor") and cleaned.get("creditor") == str(cleaned.get("player")):
            self.add_error(
                "creditor",
                _("A player cannot go bankrupt to themselves; choose the creditor or the Bank."),
            )
        return cleaned

    def chosen(self) -> tuple[Player, Player | None]:
        creditor = self.cleaned_data["creditor"]
        return (
            self.players[self.cleaned_data["player"]],
            None if creditor == BANK else self.players[int(creditor)],
        )


@banker_required
@idempotent
def bankruptcy_record(request: HttpRequest, table_pk: int) -> HttpResponse:
    """Choose who is out and to whom; the player types their initials; record it."""
    table = table_or_404(table_pk)
    players = players_in_game(table=table)
    posted = request.POST if request.method == "POST" else None
    form = BankruptcyForm(posted, players=players)
    status = 200
    if request.method == "POST":
        status = 422
        if form.is_valid():
            player, creditor = form.chosen()
            try:
                services.bankruptcy_record(
                    table=table,
                    player=player,
                    creditor=creditor,
                    initials=form.cleaned_data["initials"],
                    by=acting_user(request),
                )
            except ValidationError as error:
                form.add_error(None, error)
            else:
                messages.success(request, _recorded_message(table, player, creditor))
                return redirect("banker:banker_table", table_pk=table.pk)
    context = {
        "event": table.round.event,
        "table": table,
        "form": form,
        "bankruptcy": table_bankruptcy_view(table=table),
    }
    return render(request, "banker/bankruptcy.html", context, status=status)


def _recorded_message(table: Table, player: Player, creditor: Player | None) -> str:
    left = players_in_game(table=table)
    if creditor is None:
        text = _("%(alias)s is out, bankrupt to the Bank, and has signed.") % {
            "alias": player.alias
        }
    else:
        text = _("%(alias)s is out, bankrupt to %(creditor)s, and has signed.") % {
            "alias": player.alias,
            "creditor": creditor.alias,
        }
    if len(left) == 1:
        text += " " + _(
            "%(alias)s is the last player left and wins outright: mark the game over."
        ) % {"alias": left[0].alias}
    return text


@banker_required
@require_POST
@idempotent
def bankruptcy_undo(request: HttpRequest, table_pk: int) -> HttpResponse:
    """Take back a bankruptcy recorded by mistake (confirmed on the table page)."""
    table = table_or_404(table_pk)
    pk = request.POST.get("bankruptcy", "")
    # ASCII digits only: int() refuses "²" and numbers longer than 4300 digits.
    bankruptcy = None
    if pk.isascii() and pk.isdigit() and len(pk) <= 18:
        bankruptcy = (
            Bankruptcy.objects.filter(table=table, pk=int(pk)).select_related("player").first()
        )
    if bankruptcy is None:
        messages.error(request, _("There is no such bankruptcy at this table."))
        return redirect("banker:banker_table", table_pk=table.pk)
    try:
        services.bankruptcy_undo(bankruptcy=bankruptcy)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(
            request,
            _("%(alias)s’s bankruptcy is undone: they are back in the game.")
            % {"alias": bankruptcy.player.alias},
        )
    return redirect("banker:banker_table", table_pk=table.pk)
