"""The banker's sheet page as the template reads it: the engine's report by deed and player.

``report_view`` places each violation once, where the banker looks (beside its deed, at
its colour group, under its player, or above the sheet) with the sentences of
``scoring.violations``; ``form_report`` does the same for a form the engine cannot read
yet. The problem count is the number of messages placed: each problem counts once.

A tablet's write goes one way: the form reads the post (``scoring.sheet_forms.sheet_entry``),
the service writes or says why not (``scoring.services.sheets.SheetAnswer``), this module
says what the tablet is told (``SheetReply``), and ``banker.sheet_page`` answers it. Nothing
here reads a form or calls a service: it lays out what those steps handed it.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from gameplay import Edition
from scoring.diff import conflict_screen
from scoring.models import SheetSignature, TableSheet
from scoring.services.sheets import SheetAnswer
from scoring.sheet_forms import SheetEntry
from scoring.sheet_readiness import (
    EMPTY,
    GAME_NOT_OVER,
    INVALID,
    READY,
    UNCHECKED,
    game_is_over,
    sheet_is_empty,
    submit_blockers,
)
from scoring.violations import violation_text, violation_texts
from tournament.models import Bankruptcy, Player, Table
from tournament.money import money


@dataclass
class PlayerColumn:
    player: Player
    net_worth: int | None = None
    place: int | None = None
    points: int | None = None
    messages: list[str] = field(default_factory=list)
    bankrupt: bool = False
    signed: SheetSignature | None = None
    # Recorded on the banker's table page when the player went out (who to, when).
    bankruptcy: Bankruptcy | None = None
    net_worth_text: str = "–"
    # The column's own inputs, set by the view for the entry page.
    inputs: dict[str, Any] = field(default_factory=dict)


@dataclass
class ReportView:
    """The engine's report laid out for the sheet: by deed, by player, and the rest."""

    valid: bool
    columns: list[PlayerColumn]
    by_position: dict[int, list[str]]
    general: list[str]
    houses: int
    hotels: int
    bank_houses: int
    bank_hotels: int
    house_word: str
    hotel_word: str
    checked: bool = True
    # Problems about several deeds of one colour group, shown once at the group.
    by_group: dict[str, list[str]] = field(default_factory=dict)
    # Nothing entered yet (no cash, bills, bankruptcy or owned deed) is not "ready to
    # submit", even though the engine finds nothing wrong with it.
    empty: bool = False
    # The table's game is marked over: before that the server refuses the submission.
    game_over: bool = False

    @property
    def blockers(self) -> list[str]:
        """Why the submission would be refused now (``sheet_readiness``), first first."""
        return submit_blockers(
            locked=False, game_over=self.game_over, empty=self.empty, valid=self.valid
        )

    @property
    def ready(self) -> bool:
        return not self.blockers

    @property
    def verdict(self) -> str:
        """The one thing the bar says: "ready", or the first reason it is not."""
        blockers = self.blockers
        return blockers[0] if blockers else READY

    @property
    def verdict_text(self) -> str:
        if self.verdict == INVALID:
            return ngettext(
                "%(count)s problem to fix.", "%(count)s problems to fix.", self.problem_count
            ) % {"count": self.problem_count}
        return verdict_texts()[self.verdict]

    @property
    def problem_count(self) -> int:
        return (
            sum(len(m) for m in self.by_position.values())
            + sum(len(m) for m in self.by_group.values())
            + sum(len(c.messages) for c in self.columns)
            + len(self.general)
        )

    @property
    def houses_over(self) -> bool:
        return self.houses > self.bank_houses

    @property
    def hotels_over(self) -> bool:
        return self.hotels > self.bank_hotels


def verdict_texts() -> dict[str, str]:
    """The bar's sentence for each verdict but "invalid" (which counts its problems): the
    page's, and sheet.js's when the fields change before the engine has answered."""
    return {
        READY: _("No problems: ready to submit."),
        EMPTY: _(
            "Nothing entered yet: enter each player's cash and the deeds they own, then submit."
        ),
        GAME_NOT_OVER: _("No problems found. Submit once the game is marked over."),
        UNCHECKED: _("Checking the sheet…"),
    }


def report_view(
    *,
    report: dict[str, Any],
    data: dict[str, Any],
    players: list[Player],
    edition: Edition,
    game_over: bool = False,
) -> ReportView:
    aliases = {str(p.pk): p.alias for p in players}
    results = {str(p.get("id")): p for p in report.get("players", [])}
    bankrupt = {str(p.get("id")) for p in data.get("players") or [] if p.get("bankrupt")}
    columns = []
    for player in players:
        result = results.get(str(player.pk), {})
        columns.append(
            PlayerColumn(
                player=player,
                net_worth=result.get("net_worth"),
                place=result.get("place"),
                points=result.get("points"),
                bankrupt=str(player.pk) in bankrupt,
                net_worth_text=(
                    "–"
                    if result.get("net_worth") is None
                    else money(result["net_worth"], edition=edition)
                ),
            )
        )
    by_player = {str(c.player.pk): c for c in columns}
    by_position: dict[int, list[str]] = {space.position: [] for space in edition.deeds}
    by_group: dict[str, list[str]] = {key: [] for key in edition.groups}
    general: list[str] = []
    for violation in report.get("errors", []):
        message = violation_text(violation=violation, aliases=aliases, edition=edition)
        place = _place(violation, by_position, edition)
        column = by_player.get(str(violation.get("player")))
        if isinstance(place, int):
            by_position[place].append(message)
        elif place is not None:
            by_group[place].append(message)
        elif column is not None:
            column.messages.append(message)
        else:
            general.append(message)
    holdings = [h for h in data.get("properties") or [] if isinstance(h, dict)]
    return ReportView(
        valid=bool(report.get("valid")),
        empty=sheet_is_empty(data=data),
        game_over=game_over,
        columns=columns,
        by_position=by_position,
        general=general,
        houses=sum(int(h.get("houses") or 0) for h in holdings if not h.get("hotel")),
        hotels=sum(1 for h in holdings if h.get("hotel")),
        bank_houses=edition.bank_houses,
        bank_hotels=edition.bank_hotels,
        house_word=edition.word("house", 2),
        hotel_word=edition.word("hotel", 2),
        by_group=by_group,
    )


def _place(
    violation: dict[str, Any], by_position: dict[int, list[str]], edition: Edition
) -> int | str | None:
    """Where a violation is shown, once: its deed (one deed), its colour group (several
    deeds of one group), or None (no deed, or deeds of several groups: under its player,
    or above the sheet)."""
    positions = sorted({p for p in violation.get("positions") or [] if p in by_position})
    if len(positions) == 1:
        return positions[0]
    groups = {edition.spaces[p].group for p in positions}
    if len(groups) == 1:
        group = groups.pop()
        if group in edition.groups:
            return group
    return None


def form_report(
    errors: dict[str, list[str]], players: list[Player], edition: Edition
) -> ReportView:
    """A form the engine cannot read yet (a negative count...): its errors, labelled by the
    form (``SheetEntry.errors``, by field name), where they belong."""
    view = report_view(report={"valid": False}, data={}, players=players, edition=edition)
    view.empty = False
    columns = {str(c.player.pk): c for c in view.columns}
    for name, text in errors.items():
        parts = name.split("_")
        if parts[0] in ("owner", "mortgaged", "buildings") and parts[-1].isdigit():
            view.by_position.setdefault(int(parts[-1]), []).extend(text)
        elif len(parts) > 1 and parts[-1].isdigit() and parts[-1] in columns:
            columns[parts[-1]].messages.extend(text)
        elif parts[0] in ("bills",) and parts[1] in columns:
            columns[parts[1]].messages.extend(text)
        else:
            view.general.extend(text)
    view.checked = False
    return view


def blank_sheet(players: list[Player], edition: Edition) -> dict[str, Any]:
    """A sheet with nothing typed on it: no cash field filled in (the engine reads it as 0)."""
    return {
        "edition": edition.slug,
        "players": [{"id": str(p.pk), "bankrupt": False} for p in players],
        "properties": [],
    }


def sheet_start(
    *,
    sheet: TableSheet | None,
    players: list[Player],
    edition: Edition,
    bankruptcies: list[Bankruptcy],
) -> dict[str, Any]:
    """What the tablet's sheet starts from: the saved draft (or a blank sheet) with every
    bankruptcy the banker recorded since it was saved.

    Championship Rules, SPECTATORS: "When players are bankrupt, they should promptly sign their
    score sheet and leave the table." A recorded player is bankrupt on the sheet, out in the
    order recorded, with nothing (Tournament Kit, BANKRUPTCY: they "turn over ... all that [they
    have] of value"). A submitted or signed sheet is what the table agreed: left as it is.
    """
    if sheet is not None and sheet.status != TableSheet.Status.DRAFT:
        return sheet.data
    data = sheet.data if sheet is not None and sheet.data else blank_sheet(players, edition)
    order = {str(b.player_id): n for n, b in enumerate(bankruptcies, start=1)}
    since = sheet.updated_at if sheet is not None else None
    new = {str(b.player_id) for b in bankruptcies if since is None or b.at > since}
    entries = [
        {"id": pid, "bankrupt": True, "cash": 0, "out_order": order[pid]}
        if (pid := str(entry.get("id"))) in new
        else entry
        for entry in data.get("players") or []
        if isinstance(entry, dict)
    ]
    return {**data, "players": entries}


def entry_report(
    *,
    entry: SheetEntry,
    report: dict[str, Any] | None,
    players: list[Player],
    edition: Edition,
    game_over: bool,
) -> ReportView:
    """What the engine said (``report``) about what a tablet posted, or, when the form did
    not read, the form's own errors."""
    if entry.data is None or report is None:
        view = form_report(entry.errors, players, edition)
        view.game_over = game_over
        return view
    return report_view(
        report=report, data=entry.data, players=players, edition=edition, game_over=game_over
    )


# --- What the tablet is told after a write ---------------------------------------------------


@dataclass(frozen=True)
class SheetReply:
    """What the tablet is told after a write: ``json`` for sheet.js; without JavaScript a
    redirect to ``url`` with ``message`` once saved, else the sheet again (``view``,
    ``conflict``, ``refused``), its entries re-shown as typed; ``rebind``: under a new
    submission key (and ``retry_version``'s version when the sheet was saved meanwhile)."""

    status: int
    json: dict[str, Any]
    message: str = ""
    url: str = ""
    view: ReportView | None = None
    conflict: dict[str, Any] | None = None
    refused: tuple[str, ...] = ()
    rebind: bool = False
    retry_version: int | None = None


def submission_reply(
    *,
    table: Table,
    entry: SheetEntry,
    answer: SheetAnswer | None,
    players: list[Player],
    edition: Edition,
) -> SheetReply:
    """A submission's reply; ``answer`` is None when the form did not read."""
    if answer is None or not answer.saved:
        return refusal_reply(
            table=table, entry=entry, answer=answer, players=players, edition=edition
        )
    url = reverse("banker:banker_sheet", kwargs={"table_pk": table.pk})
    return SheetReply(
        status=200,
        json={"status": "submitted", "redirect": url, "key": str(entry.submission_key)},
        message=_("Submitted. Now each player still in the game signs."),
        url=url,
    )


def draft_reply(
    *,
    table: Table,
    entry: SheetEntry,
    answer: SheetAnswer | None,
    players: list[Player],
    edition: Edition,
) -> SheetReply:
    """A saved draft's reply; a submitted sheet saved again reopens for editing."""
    if answer is None or answer.sheet is None:
        return refusal_reply(
            table=table, entry=entry, answer=answer, players=players, edition=edition
        )
    url = reverse("banker:banker_sheet", kwargs={"table_pk": table.pk})
    editing = answer.sheet.status == TableSheet.Status.SUBMITTED
    return SheetReply(
        status=200,
        json={"status": "saved", "version": answer.sheet.version},
        message=_("Draft saved."),
        url=url + ("?edit=1" if editing else ""),
    )


def refusal_reply(
    *,
    table: Table,
    entry: SheetEntry,
    answer: SheetAnswer | None,
    players: list[Player],
    edition: Edition,
) -> SheetReply:
    """A write refused: a form that cannot be read, or a sheet the engine refuses, is a 422
    with its messages; another device's save first is the conflict (409); any other
    refusal a 400. Nothing typed is lost: the page shows the entries as typed."""
    view = entry_report(
        entry=entry,
        report=answer.report if answer is not None else None,
        players=players,
        edition=edition,
        game_over=game_is_over(table_status=table.status),
    )
    if answer is None:
        return SheetReply(
            status=422, json={"status": "invalid", "messages": entry.messages}, view=view
        )
    aliases = {str(p.pk): p.alias for p in players}
    if answer.conflict is not None:
        conflict = conflict_screen(
            answer.conflict,
            aliases=aliases,
            edition=edition,
            form_id="sheet-form",
            save_url=reverse("banker:sheet_draft", kwargs={"table_pk": table.pk}),
            reload_url=reverse("banker:banker_sheet", kwargs={"table_pk": table.pk}),
        )
        json = {"status": "conflict", "version": answer.conflict.current_version}
        return SheetReply(status=409, json=json, view=view, conflict=conflict, rebind=True)
    if answer.invalid is not None:
        sheet = answer.invalid.sheet
        version = sheet.version if sheet is not None else entry.version
        json = {
            "status": "invalid",
            "messages": violation_texts(
                violations=answer.invalid.violations, aliases=aliases, edition=edition
            ),
            "version": version,
            "submission_key": str(uuid.uuid4()),
        }
        return SheetReply(status=422, json=json, view=view, rebind=True, retry_version=version)
    json = {"status": "refused", "messages": list(answer.refused)}
    return SheetReply(status=400, json=json, view=view, refused=answer.refused, rebind=True)
