"""Score sheets from the banker's draft to a judge's approval or correction.

A sheet moves draft -> submitted -> signed -> approved. Every write locks the sheet row
(``select_for_update``) and checks the version the tablet last saw, so two devices never
overwrite each other silently: the second one gets a ``SheetConflict`` listing what
differs. The signatures in between are ``signatures.py``'s.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from gameplay import Edition, EditionError, SheetFormatError, check_sheet
from scoring.bankruptcy_selectors import table_bankruptcies
from scoring.diff import sheet_changes
from scoring.models import SheetRevision, SheetSignature, TableSheet
from scoring.services.posting import refuse_if_posted
from scoring.services.results import write_results
from scoring.sheet_readiness import (
    EMPTY,
    GAME_NOT_OVER,
    LOCKED,
    game_is_over,
    sheet_is_empty,
    submit_blockers,
)
from scoring.violations import seating_violation, violation_text
from tournament.formats import event_edition, event_points_table
from tournament.models import Event, Seat, Table


class SheetConflict(ValidationError):
    """Someone saved the sheet since this device loaded it; nothing was changed.

    Carries what the tablet needs to show "what changed": the saved version, its data and
    status, and ``changes`` (``scoring.diff.sheet_changes``) where ``before`` is what is
    saved now and ``after`` what this device sent.
    """

    def __init__(self, *, sheet: TableSheet, data: Any):
        super().__init__(
            _(
                "This score sheet was changed on another device (it is now at version "
                "%(version)s). Check what changed, then save again."
            )
            % {"version": sheet.version},
            code="conflict",
        )
        self.current_version = sheet.version
        self.current_status = sheet.status
        self.current_data = sheet.data
        self.changes = sheet_changes(sheet.data, data)


class SheetInvalid(ValidationError):
    """The rules engine (or the seating) found mistakes on the sheet.

    ``violations`` lists them as the engine gives them: code, message, player, positions,
    params. The error's messages are the sentences people read (``scoring.violations``):
    translated, with the table's aliases, never a player's id.
    """

    def __init__(self, *, violations: list[dict[str, Any]], sheet: TableSheet | None = None):
        aliases, edition = self._setting(sheet=sheet)
        super().__init__(
            [
                ValidationError(
                    violation_text(violation=v, aliases=aliases, edition=edition), code=v["code"]
                )
                for v in violations
            ]
        )
        self.violations = violations
        self.sheet = sheet

    @staticmethod
    def _setting(*, sheet: TableSheet | None) -> tuple[dict[str, str], Edition | None]:
        """The aliases of the sheet's table and its event's edition, to word the violations.

        Without a sheet no alias is known; with an edition that no longer loads, the
        sentences that name a deed are the engine's own (scoring/violations.py).
        """
        if sheet is None:
            return {}, None
        seats = Seat.objects.filter(table_id=sheet.table_id).select_related("player")
        aliases = {str(seat.player_id): seat.player.alias for seat in seats}
        try:
            return aliases, event_edition(event=sheet.table.round.event)
        except EditionError:
            return aliases, None


def _normalized(*, data: Any, event: Event) -> dict[str, Any]:
    """The sheet as stored: always the event's edition, whatever the tablet sent."""
    if not isinstance(data, dict):
        raise ValidationError(_("A score sheet must be a set of entries."), code="unreadable")
    return {**data, "edition": event.edition}


def _locked_sheet(*, table: Table) -> TableSheet:
    """The table's sheet, created empty on first use, locked for this transaction.

    Only the sheet row is locked (``of=("self",)``), so sheets of other tables are never
    held up by this one.
    """
    TableSheet.objects.get_or_create(table=table)
    return (
        TableSheet.objects.select_for_update(of=("self",))
        .select_related("table__round__event", "table__wave")
        .get(table=table)
    )


def _expect(*, sheet: TableSheet, expected_version: int, data: Any) -> None:
    if sheet.version != expected_version:
        raise SheetConflict(sheet=sheet, data=data)


def _violation(code: str, message: str, player: str | None = None) -> dict[str, Any]:
    return {"code": code, "message": message, "player": player, "positions": []}


def _examine(*, table: Table, data: dict[str, Any]) -> dict[str, Any]:
    """The engine's report on ``data`` (SheetReport.to_dict()) plus seating mistakes.

    The sheet must list exactly the players seated at the table. A sheet the engine cannot
    read at all becomes one violation, so the draft can still be saved.
    """
    event = table.round.event
    try:
        report = check_sheet(
            data, edition=event_edition(event=event), points_table=event_points_table(event=event)
        ).to_dict()
    except (SheetFormatError, EditionError) as error:
        report = {
            "valid": False,
            "errors": [_violation("unreadable-sheet", str(error))],
            "players": [],
            "unresolved_ties": [],
        }
    seated = {
        str(pk) for pk in Seat.objects.filter(table=table).values_list("player_id", flat=True)
    }
    listed = [str(p.get("id")) for p in data.get("players") or [] if isinstance(p, dict)]
    extra = [
        seating_violation("player-not-at-table", player=pid) for pid in listed if pid not in seated
    ]
    if report["players"] or not report["errors"]:
        extra += [
            seating_violation("player-missing", player=pid) for pid in sorted(seated - set(listed))
        ]
    if extra:
        report["errors"] = report["errors"] + extra
        report["valid"] = False
        for player in report["players"]:
            player["place"] = player["points"] = None
        report["unresolved_ties"] = []
    return report


def bankrupt_ids(data: dict[str, Any]) -> set[str]:
    return {str(p.get("id")) for p in data.get("players") or [] if p.get("bankrupt") is True}


def _drop_stale_signatures(*, sheet: TableSheet) -> None:
    """After the data changed, only signatures of players still bankrupt on it stand.

    A bankrupt player signed as they left; everyone else signed numbers that are no longer
    the sheet's, so they sign again.
    """
    keep = bankrupt_ids(sheet.data)
    for signature in sheet.signatures.all():
        if signature.player_id is None or str(signature.player_id) not in keep:
            signature.delete()


def _sign_as_recorded(*, sheet: TableSheet) -> None:
    """Players who went bankrupt signed as they left, on the banker's table page (Championship
    Rules, SPECTATORS: "they should promptly sign their score sheet and leave the table"): those
    initials, at that time, are their signature on the sheet, so they need not come back.

    Only for players bankrupt on the sheet and not signed otherwise. Submitting is the
    moment: the game is over, so no bankruptcy can be recorded or undone any more.
    """
    out = bankrupt_ids(sheet.data)
    signed = {pk for pk in sheet.signatures.values_list("player_id", flat=True) if pk}
    for bankruptcy in table_bankruptcies(table=sheet.table):
        if str(bankruptcy.player_id) in out and bankruptcy.player_id not in signed:
            SheetSignature.objects.create(
                sheet=sheet,
                player_id=bankruptcy.player_id,
                role=SheetSignature.Role.PLAYER,
                initials=bankruptcy.initials,
                signed_at=bankruptcy.at,
                by=bankruptcy.recorded_by,
            )


def _revise(*, sheet: TableSheet, kind: str, by: User | None, reason: str = "") -> SheetRevision:
    previous = sheet.revisions.order_by("-version", "-pk").first()
    return SheetRevision.objects.create(
        sheet=sheet,
        version=sheet.version,
        kind=kind,
        data=sheet.data,
        changes=sheet_changes(previous.data, sheet.data) if previous else [],
        by=by,
        at=timezone.now(),
        reason=reason,
    )


def sheet_check(*, table: Table, data: Any) -> dict[str, Any]:
    """The engine's report on what the tablet shows now, saving nothing (live validation).

    Same checks as a submission (the rules engine plus the table's seating), so the tablet
    never shows a sheet as valid that the submission would refuse.
    """
    return _examine(table=table, data=_normalized(data=data, event=table.round.event))


@transaction.atomic
def sheet_save_draft(
    *, table: Table, data: Any, expected_version: int, by: User | None
) -> TableSheet:
    """Save what the banker has typed so far, without checking it.

    Saving a submitted sheet reopens it: it goes back to draft, the change is kept as a
    revision and the remaining players' signatures are dropped (they signed other numbers).
    A signed sheet is only changed by a judge's correction.
    """
    data = _normalized(data=data, event=table.round.event)
    sheet = _locked_sheet(table=table)
    _expect(sheet=sheet, expected_version=expected_version, data=data)
    if sheet.is_locked:
        raise ValidationError(
            _("This score sheet is signed; only a judge can correct it now."), code="locked"
        )
    if data == sheet.data:
        return sheet
    reopening = sheet.status == TableSheet.Status.SUBMITTED
    sheet.data = data
    sheet.report = _examine(table=sheet.table, data=data)
    sheet.version += 1
    sheet.updated_by = by
    sheet.status = TableSheet.Status.DRAFT
    if reopening:
        sheet.submitted_at = None
        # An old retry of the earlier submission must not be taken for this draft's answer.
        sheet.last_submission_key = None
    sheet.save()
    if reopening:
        _revise(sheet=sheet, kind=SheetRevision.Kind.REOPENED, by=by)
    _drop_stale_signatures(sheet=sheet)
    return sheet


def sheet_submit(
    *,
    table: Table,
    data: Any,
    expected_version: int,
    submission_key: uuid.UUID | str,
    by: User | None,
) -> TableSheet:
    """Check the sheet with the rules engine and, if it is valid, send it for signing.

    An invalid sheet is still saved as the draft (nothing typed is lost), then refused with
    a ``SheetInvalid`` listing every violation. ``submission_key`` is the tablet's UUID for
    this submission: a retry with the same key returns the first answer and changes
    nothing. Of two submissions based on the same version, only the first wins; the other
    gets a ``SheetConflict``.
    """
    sheet = _submit(
        table=table,
        data=data,
        expected_version=expected_version,
        submission_key=uuid.UUID(str(submission_key)),
        by=by,
    )
    # Raised after the transaction so the draft (and the key) stay saved.
    if not sheet.report.get("valid"):
        raise SheetInvalid(violations=sheet.report.get("errors", []), sheet=sheet)
    return sheet


@transaction.atomic
def _submit(
    *,
    table: Table,
    data: Any,
    expected_version: int,
    submission_key: uuid.UUID,
    by: User | None,
) -> TableSheet:
    data = _normalized(data=data, event=table.round.event)
    sheet = _locked_sheet(table=table)
    if sheet.last_submission_key == submission_key:
        return sheet
    _expect(sheet=sheet, expected_version=expected_version, data=data)
    _refuse_unless_submittable(sheet=sheet, data=data)
    changed = data != sheet.data
    sheet.data = data
    sheet.report = _examine(table=sheet.table, data=data)
    sheet.version += 1
    sheet.updated_by = by
    sheet.last_submission_key = submission_key
    if sheet.report["valid"]:
        sheet.status = TableSheet.Status.SUBMITTED
        sheet.submitted_at = timezone.now()
    else:
        sheet.status = TableSheet.Status.DRAFT
        sheet.submitted_at = None
    sheet.save()
    if sheet.report["valid"]:
        _revise(sheet=sheet, kind=SheetRevision.Kind.SUBMISSION, by=by)
    if changed:
        _drop_stale_signatures(sheet=sheet)
    _sign_as_recorded(sheet=sheet)
    return sheet


def _refuse_unless_submittable(*, sheet: TableSheet, data: dict[str, Any]) -> None:
    """The sheet page's rule (``sheet_readiness``), before anything is saved: a signed
    sheet, a sheet with nothing on it or a game not over is refused as it stands, for the
    first reason the page names. The rules engine's verdict comes after, on the saved
    draft (``sheet_submit``)."""
    blockers = submit_blockers(
        locked=sheet.is_locked,
        game_over=game_is_over(table_status=sheet.table.status),
        empty=sheet_is_empty(data=data),
        valid=True,
    )
    if not blockers:
        return
    refusals = {
        LOCKED: _("This score sheet is already signed; only a judge can correct it now."),
        EMPTY: _("Nothing entered yet: there is nothing to submit."),
        GAME_NOT_OVER: _(
            "The game at this table is not finished yet; mark it finished, then submit."
        ),
    }
    codes = {LOCKED: "locked", EMPTY: "empty", GAME_NOT_OVER: "not-finished"}
    raise ValidationError(refusals[blockers[0]], code=codes[blockers[0]])


def locked(sheet: TableSheet) -> TableSheet:
    return (
        TableSheet.objects.select_for_update(of=("self",))
        .select_related("table__round__event", "table__wave")
        .get(pk=sheet.pk)
    )


@transaction.atomic
def sheet_approve(*, sheet: TableSheet, by: User | None) -> TableSheet:
    """A judge confirms a signed sheet."""
    sheet = locked(sheet)
    if sheet.status != TableSheet.Status.SIGNED:
        raise ValidationError(
            _("Only a sheet signed by its table can be approved."), code="not-signed"
        )
    sheet.status = TableSheet.Status.APPROVED
    sheet.approved_at = timezone.now()
    sheet.approved_by = by
    sheet.save(update_fields=["status", "approved_at", "approved_by", "updated_at"])
    return sheet


@transaction.atomic
def sheet_correct(
    *, sheet: TableSheet, data: Any, reason: str, by: User | None, expected_version: int
) -> TableSheet:
    """A judge corrects a signed or approved sheet, with a reason.

    The correction must pass the rules engine like any submission; it is kept as a
    revision (who, when, what changed, why), the results are rewritten, and the sheet
    counts as approved by the correcting judge. A posted round is withdrawn first, so
    public scores never change unannounced. ``expected_version`` is the version the
    judge's page showed: the form sends every entry, so one from before another judge's
    correction would quietly put that correction back; it gets a ``SheetConflict``.
    """
    reason = reason.strip()
    if not reason:
        raise ValidationError(_("Give a reason for the correction."), code="reason")
    sheet = locked(sheet)
    if not sheet.is_locked:
        raise ValidationError(
            _("This sheet is not signed yet; the banker still edits it."), code="not-signed"
        )
    data = _normalized(data=data, event=sheet.table.round.event)
    _expect(sheet=sheet, expected_version=expected_version, data=data)
    refuse_if_posted(sheet.table.round)
    if data == sheet.data:
        raise ValidationError(_("The correction changes nothing."), code="unchanged")
    report = _examine(table=sheet.table, data=data)
    if not report["valid"]:
        raise SheetInvalid(violations=report["errors"], sheet=sheet)
    now = timezone.now()
    sheet.data = data
    sheet.report = report
    sheet.version += 1
    sheet.updated_by = by
    sheet.status = TableSheet.Status.APPROVED
    sheet.approved_at = now
    sheet.approved_by = by
    sheet.save()
    _revise(sheet=sheet, kind=SheetRevision.Kind.CORRECTION, by=by, reason=reason)
    write_results(sheet=sheet)
    return sheet


# --- A tablet's write, its refusal as an answer ----------------------------------------------


@dataclass(frozen=True)
class SheetAnswer:
    """A tablet's write as the service took it: the sheet saved, or why not.

    The tablet is answered whatever happened, so a refusal is a value here rather than an
    exception: ``conflict`` (another device saved first), ``invalid`` (the engine refused
    the sheet, which was kept as the draft) or ``refused`` (any other refusal), and with
    any of them ``report``, the engine's report on what was sent.
    """

    sheet: TableSheet | None = None
    conflict: SheetConflict | None = None
    invalid: SheetInvalid | None = None
    refused: tuple[str, ...] = ()
    report: dict[str, Any] | None = None

    @property
    def saved(self) -> bool:
        return self.sheet is not None


def sheet_submit_answer(
    *,
    table: Table,
    data: dict[str, Any],
    expected_version: int,
    submission_key: uuid.UUID,
    by: User | None,
) -> SheetAnswer:
    """``sheet_submit``, answered whatever happens (``SheetAnswer``)."""
    return _answer(
        table=table,
        data=data,
        write=lambda: sheet_submit(
            table=table,
            data=data,
            expected_version=expected_version,
            submission_key=submission_key,
            by=by,
        ),
    )


def sheet_save_draft_answer(
    *, table: Table, data: dict[str, Any], expected_version: int, by: User | None
) -> SheetAnswer:
    """``sheet_save_draft``, answered whatever happens (``SheetAnswer``)."""
    return _answer(
        table=table,
        data=data,
        write=lambda: sheet_save_draft(
            table=table, data=data, expected_version=expected_version, by=by
        ),
    )


def _answer(*, table: Table, data: dict[str, Any], write: Callable[[], TableSheet]) -> SheetAnswer:
    try:
        return SheetAnswer(sheet=write())
    except SheetConflict as error:
        return SheetAnswer(report=sheet_check(table=table, data=data), conflict=error)
    except SheetInvalid as error:
        return SheetAnswer(report=sheet_check(table=table, data=data), invalid=error)
    except ValidationError as error:
        refused = tuple(error.messages)
        return SheetAnswer(report=sheet_check(table=table, data=data), refused=refused)
