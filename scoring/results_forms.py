"""Forms for the judges' and organizer's results pages: they parse input; services decide.

The correction form shows a signed sheet as fields (each player's cash and bankruptcy,
each title deed's owner, mortgage and buildings) and turns what the judge typed back into
the rules engine's sheet shape. Entries the judge left alone are kept exactly as the
banker wrote them (a player counted in bills keeps the bills), so a correction records
only what really changed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from gameplay import Edition, Space
from scoring.sheet_forms import HOTEL, GroupRows, add_deed_fields, buildings_field, deed_groups_of
from tournament.models import Player

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

_REASON = forms.CharField(
    label=gettext_lazy("Reason"),
    widget=forms.Textarea(attrs={"rows": 2}),
    help_text=gettext_lazy("Kept with the decision; say what happened and who agreed."),
)
_DEED_DEFAULTS = {"mortgaged": False, "houses": 0, "hotel": False}
_STALE_PAGE = gettext_lazy(
    "This page does not say which version of the sheet it shows; open the correction again."
)


class OrderForm(forms.Form):
    """An order for a group of tied players (best first), or, if allowed, shared points.

    ``players`` is ``[(id, label), ...]``; the form has one "place" choice per player.
    ``order`` in ``cleaned_data`` is the ids best first (None when sharing).
    """

    ORDER, SHARE = "order", "share"

    mode = forms.ChoiceField(
        label=gettext_lazy("Decision"),
        choices=[
            (ORDER, gettext_lazy("Order them")),
            (SHARE, gettext_lazy("Share the points of their places")),
        ],
        initial=ORDER,
        widget=forms.RadioSelect,
    )
    reason = _REASON

    def __init__(self, *args: Any, players: list[tuple[str, str]], allow_share: bool, **kwargs):
        super().__init__(*args, **kwargs)
        self.players = players
        if not allow_share:
            del self.fields["mode"]
        choices = [("", "—"), *players]
        for index in range(1, len(players) + 1):
            self.fields[f"place_{index}"] = forms.ChoiceField(
                label=_("Place %(n)s in the group") % {"n": index},
                choices=choices,
                required=False,
                # tie_order.js finds the places by this and greys out a player placed.
                widget=forms.Select(attrs={"data-place": index}),
            )

    def place_fields(self) -> list[forms.BoundField]:
        return [self[f"place_{index}"] for index in range(1, len(self.players) + 1)]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if data.get("mode", self.ORDER) == self.SHARE:
            data["order"] = None
            return data
        order = [data.get(f"place_{index}") for index in range(1, len(self.players) + 1)]
        twice = sorted({pid for pid in order if pid and order.count(pid) > 1})
        if twice:
            labels = dict(self.players)
            raise ValidationError(
                _("%(players)s cannot have two places: give each tied player exactly one.")
                % {"players": ", ".join(labels.get(pid, pid) for pid in twice)},
                code="player-twice",
            )
        if any(not pid for pid in order):
            raise ValidationError(
                _("Give every tied player exactly one place."), code="incomplete-order"
            )
        data["order"] = order
        return data


class TieBreakerOrderForm(forms.Form):
    """The tie-breakers after the format's ranking key, in the organizer's order: one
    numbered choice per place, each may be left empty.

    ``first`` is the ranking key (points, or net worth), which always comes first; ``others``
    the format's other keys; ``current`` the keys after the first in force.
    ``cleaned_data["keys"]`` is the whole order, best first, the empty places dropped:
    ``[first]`` alone leaves every tie on it to the head judge (the Championship Rules rank "by
    Point scores (not net worth)"). The service checks the order again.
    """

    def __init__(
        self,
        *args: Any,
        first: tuple[str, StrOrPromise],
        others: list[tuple[str, StrOrPromise]],
        current: Sequence[str],
        **kwargs: Any,
    ):
        super().__init__(*args, **kwargs)
        self.first, self.others = first, others
        self.first_label = first[1]
        choices = [("", _("(none: the head judge decides)")), *others]
        for index in range(len(others)):
            self.fields[f"key_{index + 2}"] = forms.ChoiceField(
                label=_("%(n)s.") % {"n": index + 2},
                choices=choices,
                initial=current[index] if index < len(current) else "",
                required=False,
            )

    def key_fields(self) -> list[forms.BoundField]:
        return [self[f"key_{index + 2}"] for index in range(len(self.others))]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        order = [data.get(f"key_{index + 2}") for index in range(len(self.others))]
        order = [key for key in order if key]
        if len(set(order)) != len(order):
            raise ValidationError(_("Use each tie-breaker at most once."), code="repeated-key")
        data["keys"] = [self.first[0], *order]
        return data


class SheetCorrectionForm(forms.Form):
    """A signed sheet as editable fields, plus the reason for changing it.

    ``version`` is the sheet's version when the page was drawn, so a correction made
    meanwhile is not overwritten unseen; the conflict screen's "keep my entries" button
    sends ``version_override``, the version the judge has now seen.
    """

    reason = _REASON
    version = forms.IntegerField(
        min_value=0,
        widget=forms.HiddenInput,
        error_messages={
            "required": _STALE_PAGE,
            "invalid": _STALE_PAGE,
            "min_value": _STALE_PAGE,
        },
    )
    version_override = forms.IntegerField(min_value=0, required=False, widget=forms.HiddenInput)

    def __init__(
        self,
        *args: Any,
        sheet_data: dict[str, Any],
        report: dict[str, Any],
        players: dict[str, Player],
        edition: Edition,
        version: int,
        **kwargs: Any,
    ):
        super().__init__(*args, **kwargs)
        self.fields["version"].initial = version
        self.sheet_data = sheet_data
        self.edition = edition
        self.players = players
        valued = {str(p["id"]): p for p in report.get("players") or []}
        self.entries = {
            str(p.get("id")): p for p in sheet_data.get("players") or [] if isinstance(p, dict)
        }
        self.deeds_held = {
            int(d["position"]): d
            for d in sheet_data.get("properties") or []
            if isinstance(d, dict) and str(d.get("position", "")).lstrip("-").isdigit()
        }
        for pid, entry in self.entries.items():
            cash = entry.get("cash", valued.get(pid, {}).get("cash", 0))
            self.fields[f"cash_{pid}"] = forms.IntegerField(
                label=_("Cash"), min_value=0, initial=cash
            )
            self.fields[f"bankrupt_{pid}"] = forms.BooleanField(
                label=_("Bankrupt"), required=False, initial=bool(entry.get("bankrupt"))
            )
            self.fields[f"out_order_{pid}"] = forms.IntegerField(
                label=_("Out (1 = first)"),
                min_value=1,
                required=False,
                initial=entry.get("out_order"),
            )
        owners = [("", _("Bank")), *[(pid, self._label(pid)) for pid in self.entries]]
        # The tablet's deed controls (one sheet component for the table and the
        # judge), with the sheet's deeds as their values.
        add_deed_fields(self, edition=edition, owners=owners, held=self.deeds_held)

    def _label(self, pid: str) -> str:
        player = self.players.get(pid)
        return player.alias if player else pid

    # --- For the template -------------------------------------------------------------

    def player_rows(self) -> list[dict[str, Any]]:
        return [
            {
                "label": self._label(pid),
                "cash": self[f"cash_{pid}"],
                "bankrupt": self[f"bankrupt_{pid}"],
                "out_order": self[f"out_order_{pid}"],
            }
            for pid in self.entries
        ]

    def deed_groups(self) -> list[GroupRows]:
        """The deed rows by colour group in board order, as the banker's tablet and the
        official score sheet list them (one sheet for the table and the judge)."""
        groups = deed_groups_of(self, edition=self.edition)
        for group in groups:
            for row in group.rows:
                # A refused entry says so below its deed, as on the tablet.
                refused = [*row.owner.errors, *(row.buildings.errors if row.buildings else [])]
                row.messages = [str(message) for message in refused]
        return groups

    # --- Back to the engine's shape ------------------------------------------------

    def expected_version(self) -> int:
        """The version the judge saw: the page's, or the newer one a conflict showed."""
        override = self.cleaned_data.get("version_override")
        return self.cleaned_data["version"] if override is None else override

    def corrected_data(self) -> dict[str, Any]:
        """The sheet with the typed values; untouched entries stay as they were written."""
        data = self.cleaned_data
        players = []
        for pid, entry in self.entries.items():
            new = dict(entry)
            initial = self.fields[f"cash_{pid}"].initial
            if data[f"cash_{pid}"] != initial:
                new.pop("bills", None)
                new["cash"] = data[f"cash_{pid}"]
            if data[f"bankrupt_{pid}"] != bool(entry.get("bankrupt")):
                new["bankrupt"] = data[f"bankrupt_{pid}"]
            if data[f"out_order_{pid}"] != entry.get("out_order"):
                if data[f"out_order_{pid}"] is None:
                    new.pop("out_order", None)
                else:
                    new["out_order"] = data[f"out_order_{pid}"]
            players.append(new)
        properties = []
        for deed in self.edition.deeds:
            owner = data.get(f"owner_{deed.position}") or ""
            if not owner:
                continue
            new = dict(self.deeds_held.get(deed.position, {"position": deed.position}))
            typed = {"owner": owner, **self._deed_values(deed)}
            for key, value in typed.items():
                if new.get(key, _DEED_DEFAULTS.get(key)) != value:
                    new[key] = value
            properties.append(new)
        known = {deed.position for deed in self.edition.deeds}
        # Anything the form cannot show (an unknown position) is kept for the engine to judge.
        properties += [d for pos, d in self.deeds_held.items() if pos not in known]
        return {**self.sheet_data, "players": players, "properties": properties}

    def _deed_values(self, deed: Space) -> dict[str, Any]:
        data = self.cleaned_data
        values: dict[str, Any] = {"mortgaged": data[f"mortgaged_{deed.position}"]}
        if deed.kind == "street":
            level = data.get(buildings_field(deed.position)) or "0"
            values["houses"] = 0 if level == HOTEL else int(level)
            values["hotel"] = level == HOTEL
        return values
