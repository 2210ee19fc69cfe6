"""The banker's score-sheet form: the official sheet's layout, the rules engine's data shape.

One row per title deed (owner, mortgaged, buildings) grouped by colour, and one column per
player (bills by denomination or a counted total, bankrupt and the order they went out).
The form only checks what a tablet could send wrong by itself (a negative count, the same
out order twice); the game's rules are the engine's job (``gameplay.check_sheet``), so the
form turns what was typed into the engine's input and nothing more.

Field names carry the board position and the player's pk, so a draft kept by the tablet
(localStorage) or the server can be put back field by field.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from gameplay.edition import ColourGroup, Edition, Space
from tournament.models import Player
from tournament.money import money

HOTEL = "hotel"


def owner_field(pos: int) -> str:
    return f"owner_{pos}"


def mortgaged_field(pos: int) -> str:
    return f"mortgaged_{pos}"


def buildings_field(pos: int) -> str:
    return f"buildings_{pos}"


def bills_field(pid: int, bill: int) -> str:
    return f"bills_{pid}_{bill}"


def cash_field(pid: int) -> str:
    return f"cash_{pid}"


def bankrupt_field(pid: int) -> str:
    return f"bankrupt_{pid}"


def out_order_field(pid: int) -> str:
    return f"out_order_{pid}"


@dataclass
class DeedRow:
    space: Space
    owner: forms.BoundField
    mortgaged: forms.BoundField
    buildings: forms.BoundField | None
    # The engine's messages about this deed, filled in by the view.
    messages: list[str] = field(default_factory=list)


@dataclass
class GroupRows:
    group: ColourGroup
    rows: list[DeedRow]
    # The engine's messages about several deeds of the group, shown once at the group.
    messages: list[str] = field(default_factory=list)


def add_deed_fields(
    form: forms.Form,
    *,
    edition: Edition,
    owners: list[tuple[str, str]],
    held: dict[int, dict[str, Any]] | None = None,
) -> None:
    """Each title deed's owner, mortgage and buildings (one control: none, 1-4 houses or a
    hotel), the same on the banker's tablet and the judge's correction. ``held``
    gives a sheet's deeds as initial values."""
    buildings = [("0", "–")]
    buildings += [
        (str(n), f"{n} {edition.word('house', n)}") for n in range(1, edition.max_houses + 1)
    ]
    buildings.append((HOTEL, edition.word("hotel").capitalize()))
    for space in edition.deeds:
        pos = space.position
        deed = (held or {}).get(pos, {})
        form.fields[owner_field(pos)] = forms.ChoiceField(
            label=_("Owner of %(deed)s") % {"deed": space.name},
            choices=owners,
            required=False,
            initial=str(deed.get("owner") or ""),
        )
        form.fields[mortgaged_field(pos)] = forms.BooleanField(
            label=_("%(deed)s is mortgaged") % {"deed": space.name},
            required=False,
            initial=bool(deed.get("mortgaged")),
        )
        if space.kind == "street":
            form.fields[buildings_field(pos)] = forms.ChoiceField(
                label=_("Buildings on %(deed)s") % {"deed": space.name},
                choices=buildings,
                required=False,
                initial=HOTEL if deed.get("hotel") else str(deed.get("houses") or 0),
            )


def deed_groups_of(form: forms.Form, *, edition: Edition) -> list[GroupRows]:
    """``form``'s deed fields by colour group in board order (scoring/_deed_rows.html)."""
    result = []
    for group in edition.groups.values():
        rows = [
            DeedRow(
                space=edition.spaces[pos],
                owner=form[owner_field(pos)],
                mortgaged=form[mortgaged_field(pos)],
                buildings=(
                    form[buildings_field(pos)] if buildings_field(pos) in form.fields else None
                ),
            )
            for pos in group.positions
            if owner_field(pos) in form.fields
        ]
        if rows:
            result.append(GroupRows(group=group, rows=rows))
    return result


@dataclass
class BillRow:
    bill: int
    label: str
    cells: list[forms.BoundField]


@dataclass(frozen=True)
class SheetLayout:
    """A sheet form as the page draws it: the deed rows by colour group (the page puts the
    engine's messages on them) and, by player pk, that player's column of inputs."""

    groups: list[GroupRows]
    inputs: dict[int, dict[str, Any]]


class SheetForm(forms.Form):
    """What the banker typed, for ``players`` (seat order) in the event's ``edition``."""

    version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    submission_key = forms.UUIDField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, players: list[Player], edition: Edition, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.players = players
        self.edition = edition
        owners = [("", _("Bank"))] + [(str(p.pk), p.alias) for p in players]
        add_deed_fields(self, edition=edition, owners=owners)
        for player in players:
            for bill in edition.denominations:
                self.fields[bills_field(player.pk, bill)] = forms.IntegerField(
                    label=_("%(alias)s: %(bill)s bills")
                    % {"alias": player.alias, "bill": money(bill, edition=edition)},
                    min_value=0,
                    max_value=9999,
                    required=False,
                    widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "count"}),
                )
            self.fields[cash_field(player.pk)] = forms.IntegerField(
                label=_("%(alias)s: counted cash") % {"alias": player.alias},
                min_value=0,
                max_value=10_000_000,
                required=False,
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "total"}),
                help_text=gettext_lazy("Instead of the bills, or to check them."),
            )
            self.fields[bankrupt_field(player.pk)] = forms.BooleanField(
                label=_("%(alias)s is bankrupt") % {"alias": player.alias}, required=False
            )
            self.fields[out_order_field(player.pk)] = forms.IntegerField(
                label=_("%(alias)s went out") % {"alias": player.alias},
                min_value=1,
                max_value=len(players),
                required=False,
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "order"}),
            )

    # --- Stored sheet <-> fields --------------------------------------------------------------

    @staticmethod
    def initial_from(data: dict[str, Any], *, version: int) -> dict[str, Any]:
        """The fields for a stored sheet (the engine's shape), so a draft comes back as typed."""
        initial: dict[str, Any] = {"version": version}
        for item in data.get("players") or []:
            pid = item.get("id")
            if not isinstance(item, dict) or not str(pid).isdigit():
                continue
            pid = int(pid)
            for bill, count in (item.get("bills") or {}).items():
                initial[f"bills_{pid}_{bill}"] = count
            if item.get("cash") is not None:
                initial[cash_field(pid)] = item["cash"]
            initial[bankrupt_field(pid)] = bool(item.get("bankrupt"))
            if item.get("out_order") is not None:
                initial[out_order_field(pid)] = item["out_order"]
        for item in data.get("properties") or []:
            if not isinstance(item, dict) or not isinstance(item.get("position"), int):
                continue
            pos = item["position"]
            initial[owner_field(pos)] = "" if item.get("owner") is None else str(item["owner"])
            initial[mortgaged_field(pos)] = bool(item.get("mortgaged"))
            initial[buildings_field(pos)] = (
                HOTEL if item.get("hotel") else str(item.get("houses", 0))
            )
        return initial

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        seen: dict[int, Player] = {}
        for player in self.players:
            order = cleaned.get(out_order_field(player.pk))
            if order is None or not cleaned.get(bankrupt_field(player.pk)):
                continue
            if order in seen:
                self.add_error(
                    out_order_field(player.pk),
                    _("%(other)s already went out %(order)s.")
                    % {"other": seen[order].alias, "order": _ordinal(order)},
                )
            else:
                seen[order] = player
        return cleaned

    def sheet_data(self) -> dict[str, Any]:
        """The engine's input (gameplay/README.md) for a valid form; ids are ``str(pk)``.

        Bills are kept even when they are zero, and deeds of the bank are kept when
        something was set on them, so what was typed comes back exactly from a draft.
        """
        cleaned = self.cleaned_data
        players = []
        for player in self.players:
            pid = player.pk
            bills = {}
            for bill in self.edition.denominations:
                count = cleaned.get(bills_field(pid, bill))
                if count is not None:
                    bills[str(bill)] = count
            entry: dict[str, Any] = {
                "id": str(pid),
                "bankrupt": bool(cleaned.get(bankrupt_field(pid))),
            }
            if bills:
                entry["bills"] = bills
            if cleaned.get(cash_field(pid)) is not None:
                entry["cash"] = cleaned[cash_field(pid)]
            if not bills and "cash" not in entry:
                entry["cash"] = 0
            order = cleaned.get(out_order_field(pid))
            if entry["bankrupt"] and order is not None:
                entry["out_order"] = order
            players.append(entry)
        properties = []
        for space in self.edition.deeds:
            pos = space.position
            owner = cleaned.get(owner_field(pos)) or None
            mortgaged = bool(cleaned.get(mortgaged_field(pos)))
            level = cleaned.get(buildings_field(pos)) or "0"
            if owner is None and not mortgaged and level == "0":
                continue
            properties.append(
                {
                    "position": pos,
                    "owner": owner,
                    "mortgaged": mortgaged,
                    "houses": 0 if level == HOTEL else int(level),
                    "hotel": level == HOTEL,
                }
            )
        return {"edition": self.edition.slug, "players": players, "properties": properties}

    # --- Layout for the template -----------------------------------------------------------

    def deed_groups(self) -> list[GroupRows]:
        """Deeds by colour group in board order, as on the official score sheet."""
        return deed_groups_of(self, edition=self.edition)

    def layout(self) -> SheetLayout:
        """What the sheet page draws of this form: its deed rows and each player's inputs."""
        inputs = {
            p.pk: {
                "cash": self[cash_field(p.pk)],
                "bankrupt": self[bankrupt_field(p.pk)],
                "out_order": self[out_order_field(p.pk)],
                "initials": f"initials_{p.pk}",
            }
            for p in self.players
        }
        return SheetLayout(groups=self.deed_groups(), inputs=inputs)

    def bill_rows(self) -> list[BillRow]:
        return [
            BillRow(
                bill=bill,
                label=money(bill, edition=self.edition),
                cells=[self[bills_field(p.pk, bill)] for p in self.players],
            )
            for bill in self.edition.denominations
        ]

    def player_row(self, name: str) -> list[forms.BoundField]:
        fields = {
            "cash": cash_field,
            "bankrupt": bankrupt_field,
            "out_order": out_order_field,
        }
        return [self[fields[name](p.pk)] for p in self.players]


# --- A tablet's post, read once --------------------------------------------------------------


@dataclass(frozen=True)
class SheetEntry:
    """What a tablet posted, read before anything is written: the first step of a write.

    ``data`` is the engine's input when the form reads, else None and ``errors`` says why
    (each message with its field's label, by field name, for ``sheet_report.form_report``).
    """

    form: SheetForm
    layout: SheetLayout
    data: dict[str, Any] | None
    # The version posted, and the one the write expects (``version_override`` after a
    # conflict: "keep my entries" names the version saved since).
    version: int
    expected_version: int
    submission_key: uuid.UUID
    errors: dict[str, list[str]]

    @property
    def messages(self) -> list[str]:
        return [text for texts in self.errors.values() for text in texts]


def sheet_entry(*, post: QueryDict, players: list[Player], edition: Edition) -> SheetEntry:
    form = SheetForm(post, players=players, edition=edition)
    if not form.is_valid():
        labels = {
            name: form.fields[name].label if name in form.fields else "" for name in form.errors
        }
        errors = {
            name: [f"{labels[name]}: {error}" if labels[name] else str(error) for error in texts]
            for name, texts in form.errors.items()
        }
        return SheetEntry(
            form=form,
            layout=form.layout(),
            data=None,
            version=0,
            expected_version=0,
            submission_key=uuid.uuid4(),
            errors=errors,
        )
    return SheetEntry(
        form=form,
        layout=form.layout(),
        data=form.sheet_data(),
        version=form.cleaned_data["version"],
        expected_version=_expected_version(post, form),
        submission_key=form.cleaned_data.get("submission_key") or uuid.uuid4(),
        errors={},
    )


def _expected_version(post: QueryDict, form: SheetForm) -> int:
    """The version this tablet saw; "keep my entries" after a conflict names the new one."""
    override = post.get("version_override", "")
    # ASCII digits only: int() refuses "²" and numbers longer than 4300 digits.
    if override.isascii() and override.isdigit() and len(override) <= 9:
        return int(override)
    return form.cleaned_data["version"]


def _ordinal(order: int) -> str:
    return _("#%(order)s") % {"order": order}


class SignForm(forms.Form):
    """Initials on the sheet: a player's (``player`` set) or the banker's (left empty)."""

    player = forms.IntegerField(required=False, widget=forms.HiddenInput)
    initials = forms.CharField(label=gettext_lazy("Initials"), max_length=10)
