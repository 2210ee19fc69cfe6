"""Writes for scoring: score sheets from draft to approval, ties, postings, the final.

A sheet moves draft -> submitted -> signed -> approved. Every write locks the sheet row
(``select_for_update``) and checks the version the tablet last saw, so two devices never
overwrite each other silently: the second one gets a ``SheetConflict`` listing what
differs. Results (``ResultLine``) are written only from the rules engine's report on a
signed sheet, and rewritten on a judge's correction or tie decision, so nobody types a
place or a point by hand.

Permissions are checked by the views (banker, judge, head judge); these functions record
who acted (``by``).
"""

from __future__ import annotations

import secrets
import uuid
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from gameplay import Edition, EditionError, PointsTable, SheetFormatError, check_sheet
from tournament.clock_services import table_mark_scored
from tournament.formats import RANKING_ASSETS, event_edition, event_points_table, event_ranking
from tournament.models import Event, Player, Round, Seat, Table
from tournament.seating_services import stage_seat

from .diff import sheet_changes
from .models import (
    BankerLink,
    ResultLine,
    RoundPosting,
    SheetRevision,
    SheetSignature,
    StandingsTieDecision,
    TableSheet,
    TieDecision,
)
from .selectors import (
    StandingRow,
    default_tie_breakers_for,
    sheet_open_ties,
    standings,
    table_winners,
    tie_breakers_valid,
    tie_decision_for,
)
from .violations import violation_text

User = AbstractBaseUser


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

        Without a sheet (or with an edition that no longer loads) the sentences fall back to
        the engine's own, ids replaced where they can be.
        """
        if sheet is None:
            return {}, None
        seats = Seat.objects.filter(table_id=sheet.table_id).select_related("player")
        aliases = {str(seat.player_id): seat.player.alias for seat in seats}
        try:
            return aliases, event_edition(event=sheet.table.round.event)
        except EditionError:
            return aliases, None


# --- Helpers -------------------------------------------------------------------------------


def _now() -> Any:
    return timezone.now()


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
        _violation(
            "player-not-at-table",
            _("Player %(id)s is not seated at this table.") % {"id": pid},
            pid,
        )
        for pid in listed
        if pid not in seated
    ]
    if report["players"] or not report["errors"]:
        extra += [
            _violation(
                "player-missing",
                _("Player %(id)s is seated at this table but not on the sheet.") % {"id": pid},
                pid,
            )
            for pid in sorted(seated - set(listed))
        ]
    if extra:
        report["errors"] = report["errors"] + extra
        report["valid"] = False
        for player in report["players"]:
            player["place"] = player["points"] = None
        report["unresolved_ties"] = []
    return report


def _bankrupt_ids(data: dict[str, Any]) -> set[str]:
    return {str(p.get("id")) for p in data.get("players") or [] if p.get("bankrupt") is True}


def _drop_stale_signatures(*, sheet: TableSheet) -> None:
    """After the data changed, only signatures of players still bankrupt on it stand.

    A bankrupt player signed as they left; everyone else signed numbers that are no longer
    the sheet's, so they sign again.
    """
    keep = _bankrupt_ids(sheet.data)
    for signature in sheet.signatures.all():
        if signature.player_id is None or str(signature.player_id) not in keep:
            signature.delete()


def _revise(*, sheet: TableSheet, kind: str, by: User | None, reason: str = "") -> SheetRevision:
    previous = sheet.revisions.order_by("-version", "-pk").first()
    return SheetRevision.objects.create(
        sheet=sheet,
        version=sheet.version,
        kind=kind,
        data=sheet.data,
        changes=sheet_changes(previous.data, sheet.data) if previous else [],
        by=by,
        at=_now(),
        reason=reason,
    )


def _round_is_posted(round_: Round) -> bool:
    return RoundPosting.objects.filter(round=round_).exists()


def _refuse_if_posted(round_: Round) -> None:
    if _round_is_posted(round_):
        raise ValidationError(
            _("This round’s scores are posted; withdraw the posting before changing them."),
            code="posted",
        )


# --- Drafts and submission ---------------------------------------------------------------


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
    if sheet.is_locked:
        raise ValidationError(
            _("This score sheet is already signed; only a judge can correct it now."),
            code="locked",
        )
    if sheet.table.status not in (Table.Status.FINISHED, Table.Status.SCORED):
        raise ValidationError(
            _("The game at this table is not finished yet; mark it finished, then submit."),
            code="not-finished",
        )
    changed = data != sheet.data
    sheet.data = data
    sheet.report = _examine(table=sheet.table, data=data)
    sheet.version += 1
    sheet.updated_by = by
    sheet.last_submission_key = submission_key
    if sheet.report["valid"]:
        sheet.status = TableSheet.Status.SUBMITTED
        sheet.submitted_at = _now()
    else:
        sheet.status = TableSheet.Status.DRAFT
        sheet.submitted_at = None
    sheet.save()
    if sheet.report["valid"]:
        _revise(sheet=sheet, kind=SheetRevision.Kind.SUBMISSION, by=by)
    if changed:
        _drop_stale_signatures(sheet=sheet)
    return sheet


# --- Signatures ------------------------------------------------------------------------------


def _locked(sheet: TableSheet) -> TableSheet:
    return (
        TableSheet.objects.select_for_update(of=("self",))
        .select_related("table__round__event", "table__wave")
        .get(pk=sheet.pk)
    )


@transaction.atomic
def sheet_sign(
    *, sheet: TableSheet, player: Player | None = None, initials: str, by: User | None
) -> SheetSignature:
    """A player's initials (``player``), or the banker's (``player=None``).

    Players still in the game sign the submitted sheet; a bankrupt player may sign at any
    time, as they leave the table (002, SPECTATORS). The banker signs last, once every
    remaining player has; that locks the sheet, writes the results and marks the table
    scored.
    """
    sheet = _locked(sheet)
    initials = initials.strip()
    if not initials:
        raise ValidationError(_("Write your initials to sign."), code="initials")
    if sheet.is_locked:
        raise ValidationError(_("The banker has already signed this sheet."), code="locked")
    now = _now()
    if player is not None:
        return _player_signs(sheet=sheet, player=player, initials=initials, by=by, now=now)
    if sheet.status != TableSheet.Status.SUBMITTED:
        raise ValidationError(
            _("The banker signs once the sheet has been submitted."), code="not-submitted"
        )
    signed = {str(pk) for pk in sheet.signatures.values_list("player_id", flat=True) if pk}
    remaining = {str(p["id"]) for p in sheet.data["players"] if not p.get("bankrupt")}
    missing = sorted(remaining - signed)
    if missing:
        aliases = Player.objects.filter(pk__in=[int(pk) for pk in missing]).order_by("alias")
        raise ValidationError(
            _("Every player still in the game signs before the banker: %(names)s.")
            % {"names": ", ".join(p.alias for p in aliases)},
            code="players-first",
        )
    signature = SheetSignature.objects.create(
        sheet=sheet, role=SheetSignature.Role.BANKER, initials=initials, signed_at=now, by=by
    )
    sheet.status = TableSheet.Status.SIGNED
    sheet.signed_at = now
    sheet.updated_by = by
    sheet.save(update_fields=["status", "signed_at", "updated_by", "updated_at"])
    _write_results(sheet=sheet)
    _mark_table_scored(table=sheet.table, by=by)
    return signature


def _player_signs(
    *, sheet: TableSheet, player: Player, initials: str, by: User | None, now: Any
) -> SheetSignature:
    if not Seat.objects.filter(table=sheet.table, player=player).exists():
        raise ValidationError(_("This player is not seated at this table."), code="not-seated")
    bankrupt = str(player.pk) in _bankrupt_ids(sheet.data)
    if not bankrupt and sheet.status != TableSheet.Status.SUBMITTED:
        raise ValidationError(
            _("Players still in the game sign once the banker has submitted the sheet."),
            code="not-submitted",
        )
    if sheet.signatures.filter(player=player).exists():
        raise ValidationError(_("%(alias)s has already signed.") % {"alias": player.alias})
    return SheetSignature.objects.create(
        sheet=sheet,
        player=player,
        role=SheetSignature.Role.PLAYER,
        initials=initials,
        signed_at=now,
        by=by,
    )


def _mark_table_scored(*, table: Table, by: User | None) -> None:
    """Move a finished table to "scored" when the clock rules allow it.

    A table that is not "finished" (already scored, or never marked) keeps its status; so
    does one whose wave clock was never started (``table_mark_scored`` refuses it).
    """
    table.refresh_from_db(fields=["status"])
    if table.status != Table.Status.FINISHED:
        return
    try:
        table_mark_scored(table=table, by=by)
    except ValidationError:
        pass


# --- Results ---------------------------------------------------------------------------------


def _points(value: int | None) -> Decimal | None:
    return None if value is None else Decimal(value)


def tie_outcome(
    *,
    tie: tuple[str, ...],
    order: list[str] | None,
    share_points: bool,
    report: dict[str, Any],
    points_table: PointsTable | None,
) -> dict[str, tuple[int | None, Decimal | None]]:
    """Places and points for a tied group, as a head judge decided it.

    The group ties for the places starting at the shared place the engine gave it. In
    ``order`` they take those places one by one with their points; sharing keeps the shared
    place and gives everyone the average of those places' points, to the cent, half up
    (two sharing first of four: (19 + 10) / 2 = 14.50; three: 34 / 3 = 11.33).
    """
    players = {str(p["id"]): p for p in report["players"]}
    first = players[tie[0]]["place"]
    remaining = sum(1 for p in report["players"] if not p["bankrupt"])
    places = list(range(first, first + len(tie)))

    def points(place: int) -> Decimal | None:
        if points_table is None:
            return None
        return _points(points_table.points(remaining=remaining, place=place))

    if share_points:
        values = [points(place) for place in places]
        if points_table is None or None in values:
            return {pid: (first, None) for pid in tie}
        shared = (sum(values) / len(values)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
        return {pid: (first, shared) for pid in tie}
    assert order is not None
    return {pid: (place, points(place)) for pid, place in zip(order, places, strict=True)}


def _write_results(*, sheet: TableSheet) -> None:
    """One ``ResultLine`` per player from the engine's report, with tie decisions applied.

    Every player has only their own line: an alternate who stepped in scores their own
    games and inherits nothing (002, ALTERNATES SCORING).
    """
    table = sheet.table
    report = sheet.report
    outcome = {str(p["id"]): (p["place"], _points(p["points"])) for p in report["players"]}
    points_table = event_points_table(event=table.round.event)
    for tie in report.get("unresolved_ties", []):
        decision = tie_decision_for(table=table, tie=tuple(tie))
        if decision is not None:
            outcome.update(
                tie_outcome(
                    tie=tuple(sorted(tie)),
                    order=decision.order,
                    share_points=decision.share_points,
                    report=report,
                    points_table=points_table,
                )
            )
    ResultLine.objects.filter(table=table).delete()
    ResultLine.objects.bulk_create(
        ResultLine(
            table=table,
            player_id=int(p["id"]),
            bankrupt=p["bankrupt"],
            net_worth=p["net_worth"],
            unmortgaged_property_value=p["unmortgaged_property_value"],
            place=outcome[str(p["id"])][0],
            points=outcome[str(p["id"])][1],
        )
        for p in report["players"]
    )


# --- Judges: approval and correction ----------------------------------------------------------


@transaction.atomic
def sheet_approve(*, sheet: TableSheet, by: User | None) -> TableSheet:
    """A judge confirms a signed sheet."""
    sheet = _locked(sheet)
    if sheet.status != TableSheet.Status.SIGNED:
        raise ValidationError(
            _("Only a sheet signed by its table can be approved."), code="not-signed"
        )
    sheet.status = TableSheet.Status.APPROVED
    sheet.approved_at = _now()
    sheet.approved_by = by
    sheet.save(update_fields=["status", "approved_at", "approved_by", "updated_at"])
    return sheet


@transaction.atomic
def sheet_correct(*, sheet: TableSheet, data: Any, reason: str, by: User | None) -> TableSheet:
    """A judge corrects a signed or approved sheet, with a reason.

    The correction must pass the rules engine like any submission; it is kept as a
    revision (who, when, what changed, why), the results are rewritten, and the sheet
    counts as approved by the correcting judge. A posted round is withdrawn first, so
    public scores never change unannounced.
    """
    reason = reason.strip()
    if not reason:
        raise ValidationError(_("Give a reason for the correction."), code="reason")
    sheet = _locked(sheet)
    if not sheet.is_locked:
        raise ValidationError(
            _("This sheet is not signed yet; the banker still edits it."), code="not-signed"
        )
    _refuse_if_posted(sheet.table.round)
    data = _normalized(data=data, event=sheet.table.round.event)
    if data == sheet.data:
        raise ValidationError(_("The correction changes nothing."), code="unchanged")
    report = _examine(table=sheet.table, data=data)
    if not report["valid"]:
        raise SheetInvalid(violations=report["errors"], sheet=sheet)
    now = _now()
    sheet.data = data
    sheet.report = report
    sheet.version += 1
    sheet.updated_by = by
    sheet.status = TableSheet.Status.APPROVED
    sheet.approved_at = now
    sheet.approved_by = by
    sheet.save()
    _revise(sheet=sheet, kind=SheetRevision.Kind.CORRECTION, by=by, reason=reason)
    _write_results(sheet=sheet)
    return sheet


# --- Ties --------------------------------------------------------------------------------------


@transaction.atomic
def tie_decide(
    *,
    table: Table,
    order: list[int | str] | None = None,
    share_points: bool = False,
    by: User | None,
    reason: str,
    players: list[int | str] | None = None,
) -> TieDecision:
    """The head judge settles a tie the engine left open: an order, or shared points.

    ``order`` (best first) names the tied group by itself; to share points, name the group
    with ``players`` unless the table has only one tie. Deciding again replaces the
    earlier decision (which stays stored).
    """
    reason = reason.strip()
    if not reason:
        raise ValidationError(_("Give a reason for the decision."), code="reason")
    if (order is None) == (not share_points):
        raise ValidationError(
            _("Either give the tied players’ order or share their points."), code="choice"
        )
    sheet = TableSheet.objects.filter(table=table).first()
    if sheet is None or not sheet.is_locked:
        raise ValidationError(_("Ties are decided on a signed sheet."), code="not-signed")
    sheet = _locked(sheet)
    _refuse_if_posted(sheet.table.round)
    ties = [tuple(sorted(tie)) for tie in sheet.report.get("unresolved_ties", [])]
    named = order if order is not None else players
    if named is None:
        if len(ties) != 1:
            raise ValidationError(_("Name the tied players."), code="which-tie")
        tie = ties[0]
    else:
        tie = tuple(sorted(str(pid) for pid in named))
        if len(set(tie)) != len(tie) or tie not in ties:
            raise ValidationError(_("These players are not tied at this table."), code="not-a-tie")
    str_order = [str(pid) for pid in order] if order is not None else None
    outcome = tie_outcome(
        tie=tie,
        order=str_order,
        share_points=share_points,
        report=sheet.report,
        points_table=event_points_table(event=sheet.table.round.event),
    )
    decision = TieDecision.objects.create(
        table=sheet.table,
        players=list(tie),
        order=str_order,
        share_points=share_points,
        outcome={
            pid: {"place": place, "points": None if points is None else str(points)}
            for pid, (place, points) in outcome.items()
        },
        by=by,
        at=_now(),
        reason=reason,
    )
    _write_results(sheet=sheet)
    return decision


def standings_tie_decide(
    *, event: Event, order: list[int], by: User | None, reason: str
) -> StandingsTieDecision:
    """The head judge orders players still level after every standings tie-breaker."""
    reason = reason.strip()
    if not reason:
        raise ValidationError(_("Give a reason for the decision."), code="reason")
    pks = [int(pk) for pk in order]
    if len(pks) < 2 or len(set(pks)) != len(pks):
        raise ValidationError(_("Order at least two different players."), code="order")
    if Player.objects.filter(event=event, pk__in=pks).count() != len(pks):
        raise ValidationError(_("Every player must belong to this event."), code="order")
    return StandingsTieDecision.objects.create(
        event=event, order=pks, by=by, at=_now(), reason=reason
    )


@transaction.atomic
def standings_tie_breakers_set(*, event: Event, keys: list[str], by: User | None) -> Event:
    """The organizer's order of the standings tie-breakers, best first.

    ``keys`` must name every tie-breaker of the event's format exactly once (002: the
    organizer's own rule); an empty list goes back to the format's default order. The
    head judge's decision always comes last and is not a key. Refused once the final (or
    its semifinal) is seated: it was seated from the standings as they were ordered then.
    ``by`` is accepted for the views' audit trail; the event records no author.
    """
    event = Event.objects.select_for_update().get(pk=event.pk)
    keys = [str(key) for key in keys]
    if keys and not tie_breakers_valid(event=event, keys=keys):
        raise ValidationError(
            _("Name every tie-breaker exactly once: %(keys)s.")
            % {"keys": ", ".join(default_tie_breakers_for(event=event).keys)},
            code="tie-breakers",
        )
    if Round.objects.filter(
        event=event, kind__in=[Round.Kind.SEMIFINAL, Round.Kind.FINAL]
    ).exists():
        raise ValidationError(
            _("The final is already seated; the tie-breakers can no longer change."),
            code="final-seated",
        )
    if tuple(keys) == default_tie_breakers_for(event=event).keys:
        keys = []  # the default itself: follow the format if it changes later
    event.tie_breakers = keys
    event.save(update_fields=["tie_breakers"])
    return event


# --- Posting ---------------------------------------------------------------------------------


@transaction.atomic
def round_post(*, round_: Round, by: User | None) -> RoundPosting:
    """Publish a round's point scores: only once every table of every wave is settled.

    002, POSTING SCORES: scores are posted at the end of each round, not by wave, so one
    unsigned table anywhere holds the whole round back, as does an undecided tie.
    """
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if _round_is_posted(round_):
        raise ValidationError(_("This round is already posted."), code="posted")
    tables = list(Table.objects.filter(round=round_).order_by("number"))
    if not tables:
        raise ValidationError(_("This round has no tables."), code="empty")
    sheets = {s.table_id: s for s in TableSheet.objects.filter(table__round=round_)}
    problems = []
    for table in tables:
        sheet = sheets.get(table.pk)
        if sheet is None or not sheet.is_locked:
            problems.append(
                ValidationError(
                    _("Table %(number)s: the score sheet is not signed yet.")
                    % {"number": table.number},
                    code="not-signed",
                )
            )
        elif sheet_open_ties(sheet=sheet):
            problems.append(
                ValidationError(
                    _("Table %(number)s: a tie waits for the head judge’s decision.")
                    % {"number": table.number},
                    code="open-tie",
                )
            )
    if problems:
        raise ValidationError(problems)
    return RoundPosting.objects.create(round=round_, posted_at=_now(), posted_by=by)


@transaction.atomic
def round_unpost(*, round_: Round) -> None:
    """Withdraw a posting (e.g. to correct a sheet); posting again is a new posting."""
    deleted, _rows = RoundPosting.objects.filter(round=round_).delete()
    if not deleted:
        raise ValidationError(_("This round is not posted."), code="not-posted")


# --- The final -----------------------------------------------------------------------------


def _cut(rows: list[StandingRow], count: int) -> list[StandingRow]:
    """The first ``count`` rows, refused if players tied in the standings straddle the cut."""
    if len(rows) > count and rows[count - 1].rank == rows[count].rank:
        raise ValidationError(
            _("Players tied at place %(rank)s straddle the cut; the head judge decides first.")
            % {"rank": rows[count - 1].rank},
            code="tie-at-cut",
        )
    return rows[:count]


@transaction.atomic
def advance_to_final(
    *, event: Event, by: User | None, seed: int = 0, time_limit: float = 10.0
) -> Round:
    """Seat the next stage after the preliminaries: the final, or first a semifinal.

    Only posted scores count, so every preliminary round must be posted. Players who left
    the event (withdrawn, ejected) cannot advance and the next player moves up. A tie
    across the cut is refused until the head judge decides it. In formats ranked by assets
    (club, 000) every preliminary table winner (place 1) goes first, in standings order,
    then the best of the rest; if the winners alone are more than the places, the best
    winners go. Up to six finalists (or the event's largest table) play the final at one
    table (002: four finalists; 000: a six-player final). More play a semifinal (kind
    ``semifinal``) seated by the engine; called again once the semifinal is posted, this
    seats each semifinal table's winner at the final table.
    ``by`` is accepted for the audit trail of the views; the round records no author.
    """
    if Round.objects.filter(event=event, kind=Round.Kind.FINAL).exists():
        raise ValidationError(_("This event already has a final."), code="exists")
    semifinal = Round.objects.filter(event=event, kind=Round.Kind.SEMIFINAL).first()
    if semifinal is not None:
        return _final_from_semifinal(event=event, semifinal=semifinal)
    preliminaries = Round.objects.filter(event=event, kind=Round.Kind.PRELIMINARY)
    if not preliminaries.exists():
        raise ValidationError(_("No preliminary round has been played."), code="no-rounds")
    if preliminaries.filter(posting__isnull=True).exists():
        raise ValidationError(
            _("Post every preliminary round before seating the final."), code="not-posted"
        )
    rows = [
        row
        for row in standings(event=event, only_posted=True)
        if row.player.status == Player.Status.PLAYER
    ]
    count = event.advancing
    if len(rows) < count:
        raise ValidationError(
            _("Only %(count)s players can advance.") % {"count": len(rows)}, code="too-few"
        )
    if event_ranking(event=event) == RANKING_ASSETS:
        # 000: "table winners and highest total assets advance to a six-player final".
        winners_ids = table_winners(event=event, only_posted=True)
        winners = [row for row in rows if row.player.pk in winners_ids]
        others = [row for row in rows if row.player.pk not in winners_ids]
        if len(winners) >= count:
            chosen = _cut(winners, count)
        else:
            chosen = winners + _cut(others, count - len(winners))
    else:
        chosen = _cut(rows, count)
    finalists = [row.player for row in chosen]
    if count <= _final_table_max(event):
        return stage_seat(
            event=event, kind=Round.Kind.FINAL, players=finalists, table_sizes=(count, count)
        )
    # More than one table can hold: a semifinal seated by the engine (event's table sizes,
    # households apart, avoiding preliminary rematches); its table winners play the final.
    return stage_seat(
        event=event,
        kind=Round.Kind.SEMIFINAL,
        players=finalists,
        table_sizes=(event.table_size_min, event.table_size_max),
        households_apart=True,
        seed=seed,
        time_limit=time_limit,
    )


def _final_table_max(event: Event) -> int:
    """The most finalists one table seats: six (000's six-player final) or a bigger table."""
    return max(6, event.table_size_max)


def _final_from_semifinal(*, event: Event, semifinal: Round) -> Round:
    """The final: the winner (place 1) of each semifinal table, at one table.

    The semifinal must be posted, so every sheet is signed and every tie decided; a table
    whose first place is shared has no single winner and is refused until the head judge
    orders it.
    """
    if not RoundPosting.objects.filter(round=semifinal).exists():
        raise ValidationError(_("Post the semifinal before seating the final."), code="not-posted")
    finalists = []
    for table in Table.objects.filter(round=semifinal).order_by("number"):
        winners = list(ResultLine.objects.filter(table=table, place=1).select_related("player"))
        if len(winners) != 1:
            raise ValidationError(
                _("Semifinal table %(number)s has no single winner; the head judge decides.")
                % {"number": table.number},
                code="no-winner",
            )
        finalists.append(winners[0].player)
    count = len(finalists)
    return stage_seat(
        event=event, kind=Round.Kind.FINAL, players=finalists, table_sizes=(count, count)
    )


# --- The banker's tablet: private links and live checks --------------------------------------


@transaction.atomic
def banker_link_issue(*, table: Table, by: User | None) -> BankerLink:
    """A new private link for the table's banker; the one in force until now stops working.

    The key is 24 random bytes (``secrets.token_urlsafe``): it is the only thing that opens
    the sheet without a login, so it must not be guessable from the table or the time.
    """
    table = Table.objects.select_for_update().get(pk=table.pk)
    now = _now()
    BankerLink.objects.filter(table=table, revoked_at__isnull=True).update(
        revoked_at=now, revoked_by=by
    )
    return BankerLink.objects.create(table=table, key=secrets.token_urlsafe(24), created_by=by)


@transaction.atomic
def banker_link_revoke(*, table: Table, by: User | None) -> BankerLink:
    """Stop the table's link at once: tablets that opened it lose the sheet on their next tap."""
    link = (
        BankerLink.objects.select_for_update().filter(table=table, revoked_at__isnull=True).first()
    )
    if link is None:
        raise ValidationError(_("This table has no banker link to revoke."), code="no-link")
    link.revoked_at = _now()
    link.revoked_by = by
    link.save(update_fields=["revoked_at", "revoked_by"])
    return link


def sheet_check(*, table: Table, data: Any) -> dict[str, Any]:
    """The engine's report on what the tablet shows now, saving nothing (live validation).

    Same checks as a submission (the rules engine plus the table's seating), so the tablet
    never shows a sheet as valid that the submission would refuse.
    """
    return _examine(table=table, data=_normalized(data=data, event=table.round.event))
