"""Score sheets from the banker's draft to the judge's correction, and ties at a table."""

from __future__ import annotations

import uuid
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from scoring.models import ResultLine, SheetRevision, SheetSignature, TableSheet, TieDecision
from scoring.services.posting import round_post, round_unpost
from scoring.services.sheets import (
    SheetConflict,
    SheetInvalid,
    sheet_approve,
    sheet_correct,
    sheet_save_draft,
    sheet_submit,
)
from scoring.services.signatures import sheet_sign
from scoring.services.ties import tie_decide
from tests.builders import players_with_aliases
from tests.scoring.scoring_helpers import make_round, play, sheet_data, table_of
from tournament.models import Table


def points_of(table) -> dict[str, tuple[int | None, Decimal | None]]:
    return {
        line.player.alias: (line.place, line.points)
        for line in ResultLine.objects.filter(table=table).select_related("player")
    }


def submit(table, data, *, version, key=None, by=None):
    return sheet_submit(
        table=table, data=data, expected_version=version, submission_key=key or uuid.uuid4(), by=by
    )


# --- Drafts and conflicts ------------------------------------------------------------------


def test_drafts_count_versions_and_take_the_events_edition(table, four, banker, event):
    boot, car, hat, dog = four.values()
    data = sheet_data({boot: 100, car: 200, hat: 300, dog: 400})
    data["edition"] = "uk-pound"
    sheet = sheet_save_draft(table=table, data=data, expected_version=0, by=banker)
    assert (sheet.version, sheet.status, sheet.data["edition"]) == (1, "draft", event.edition)
    data["players"][0]["cash"] = 150
    sheet = sheet_save_draft(table=table, data=data, expected_version=1, by=banker)
    assert sheet.version == 2
    # Saving the same thing again is not a change.
    assert sheet_save_draft(table=table, data=data, expected_version=2, by=banker).version == 2
    assert TableSheet.objects.count() == 1


def test_a_stale_save_is_refused_with_what_changed_and_loses_nothing(table, four, banker):
    boot, car, hat, dog = four.values()
    first = sheet_data({boot: 100, car: 200, hat: 300, dog: 400})
    sheet_save_draft(table=table, data=first, expected_version=0, by=banker)
    # A second tablet, still at version 0, changed Car's cash and mortgaged a deed.
    other = sheet_data({boot: 100, car: 250, hat: 300, dog: 400})
    other["properties"] = [{"position": 39, "owner": str(dog.pk), "mortgaged": True}]
    with pytest.raises(SheetConflict) as caught:
        sheet_save_draft(table=table, data=other, expected_version=0, by=banker)
    conflict = caught.value
    assert isinstance(conflict, ValidationError)
    assert conflict.messages == [
        "This score sheet was changed on another device (it is now at version 1). "
        "Check what changed, then save again."
    ]
    assert conflict.code == "conflict"
    assert (conflict.current_version, conflict.current_status) == (1, "draft")
    assert conflict.current_data == TableSheet.objects.get().data
    assert conflict.changes == [
        {"kind": "player", "key": str(car.pk), "field": "cash", "before": 200, "after": 250},
        {
            "kind": "property",
            "key": "39",
            "field": None,
            "before": None,
            "after": {"position": 39, "owner": str(dog.pk), "mortgaged": True},
        },
    ]
    assert TableSheet.objects.get().data["players"][1]["cash"] == 200


# --- Submission ------------------------------------------------------------------------------


def test_a_valid_submission_waits_for_signatures(table, four, banker):
    boot, car, hat, dog = four.values()
    sheet = submit(table, sheet_data({boot: 3000, car: 2000, hat: 1500, dog: 1000}), version=0)
    assert (sheet.status, sheet.version, sheet.report["valid"]) == ("submitted", 1, True)
    assert [r.kind for r in sheet.revisions.all()] == ["submission"]
    assert not ResultLine.objects.exists()


def test_an_invalid_submission_keeps_the_draft_and_names_each_violation(table, four, banker):
    boot, car, hat, dog = four.values()
    data = sheet_data({boot: 3000, car: 2000, hat: 1500, dog: 1000})
    data["properties"] = [{"position": 39, "owner": str(boot.pk), "houses": 2}]
    with pytest.raises(SheetInvalid) as caught:
        submit(table, data, version=0, by=banker)
    assert caught.value.violations == [
        {
            "code": "building-without-monopoly",
            "message": caught.value.violations[0]["message"],
            "player": str(boot.pk),
            "positions": [39],
            "params": {"player": str(boot.pk), "group": "dark-blue", "positions": [39]},
        }
    ]
    assert "Boardwalk" in caught.value.messages[0]
    # The person reading it sees the player's alias, never the id the engine uses.
    assert boot.alias in caught.value.messages[0]
    sheet = TableSheet.objects.get()
    assert (sheet.status, sheet.version) == ("draft", 1)
    assert sheet.data["properties"] == data["properties"]  # nothing typed is lost
    assert not sheet.revisions.exists()


def test_the_sheet_must_list_exactly_the_tables_players(table, four, event):
    boot, car, hat, dog = four.values()
    (stranger,) = players_with_aliases(event, aliases=["Iron"]).values()
    with pytest.raises(SheetInvalid) as caught:
        submit(table, sheet_data({boot: 1, car: 2, hat: 3, stranger: 4}), version=0)
    codes = {(v["code"], v["player"]) for v in caught.value.violations}
    assert codes == {("player-not-at-table", str(stranger.pk)), ("player-missing", str(dog.pk))}


def test_a_retried_submission_is_applied_once(table, four, banker):
    boot, car, hat, dog = four.values()
    data = sheet_data({boot: 3000, car: 2000, hat: 1500, dog: 1000})
    key = uuid.uuid4()
    first = submit(table, data, version=0, key=key)
    # The tablet never saw the answer and sends the same request again.
    again = submit(table, data, version=0, key=str(key))
    assert again.pk == first.pk and again.version == first.version == 1
    assert SheetRevision.objects.count() == 1
    # A different key with the old version is a conflict, not a second submission.
    with pytest.raises(SheetConflict):
        submit(table, data, version=0)


def test_a_retried_invalid_submission_gives_the_same_answer_and_changes_nothing(table, four):
    boot, car, hat, dog = four.values()
    data = sheet_data({boot: 3000, car: 2000, hat: 1500, dog: 1000})
    data["players"][0]["cash"] = -5
    key = uuid.uuid4()
    with pytest.raises(SheetInvalid) as first:
        submit(table, data, version=0, key=key)
    with pytest.raises(SheetInvalid) as second:
        submit(table, data, version=0, key=key)
    assert first.value.violations == second.value.violations
    assert TableSheet.objects.get().version == 1


def test_a_game_still_being_played_cannot_be_submitted(event, four):
    round_ = make_round(event, 1, [list(four.values())], finished=False)
    boot, car, hat, dog = four.values()
    with pytest.raises(ValidationError, match="not finished"):
        submit(table_of(round_, 1), sheet_data({boot: 1, car: 2, hat: 3, dog: 4}), version=0)
    assert not TableSheet.objects.exists()


# --- Signatures ----------------------------------------------------------------------------------


def test_players_sign_then_the_banker_and_the_sheet_locks(table, four, banker):
    boot, car, hat, dog = four.values()
    data = sheet_data({boot: 3000, car: 2000, hat: 1500}, bankrupt=[dog])
    draft = sheet_save_draft(table=table, data=data, expected_version=0, by=banker)
    # Dog went bankrupt and signs on the way out, before the sheet is even submitted.
    sheet_sign(sheet=draft, player=dog, initials="D", by=banker)
    with pytest.raises(ValidationError, match="once the banker has submitted"):
        sheet_sign(sheet=draft, player=boot, initials="B", by=banker)
    with pytest.raises(ValidationError, match="once the sheet has been submitted"):
        sheet_sign(sheet=draft, initials="BNK", by=banker)
    sheet = submit(table, data, version=1)
    sheet_sign(sheet=sheet, player=boot, initials="B", by=banker)
    with pytest.raises(ValidationError, match="already signed"):
        sheet_sign(sheet=sheet, player=boot, initials="B", by=banker)
    with pytest.raises(ValidationError, match="before the banker: Car, Hat"):
        sheet_sign(sheet=sheet, initials="BNK", by=banker)
    with pytest.raises(ValidationError, match="initials"):
        sheet_sign(sheet=sheet, player=car, initials="  ", by=banker)
    sheet_sign(sheet=sheet, player=car, initials="C", by=banker)
    sheet_sign(sheet=sheet, player=hat, initials="H", by=banker)
    sheet_sign(sheet=sheet, initials="BNK", by=banker)

    sheet.refresh_from_db()
    assert sheet.status == "signed" and sheet.signed_at is not None
    assert SheetSignature.objects.filter(sheet=sheet, role="banker").count() == 1
    # Three players remained: 22, 12, 6 (Championship Rules, SCORING); bankrupt Dog scores nothing.
    assert points_of(table) == {
        "Boot": (1, Decimal(22)),
        "Car": (2, Decimal(12)),
        "Hat": (3, Decimal(6)),
        "Dog": (4, Decimal(0)),
    }
    assert Table.objects.get(pk=table.pk).status == "scored"
    with pytest.raises(ValidationError, match="already signed"):
        sheet_sign(sheet=sheet, initials="BNK", by=banker)
    with pytest.raises(ValidationError, match="only a judge"):
        sheet_save_draft(table=table, data=data, expected_version=2, by=banker)


def test_someone_not_at_the_table_cannot_sign(table, four, event):
    boot, car, hat, dog = four.values()
    (stranger,) = players_with_aliases(event, aliases=["Iron"]).values()
    sheet = submit(table, sheet_data({boot: 1, car: 2, hat: 3, dog: 4}), version=0)
    with pytest.raises(ValidationError, match="not seated"):
        sheet_sign(sheet=sheet, player=stranger, initials="I", by=None)


def test_reopening_a_submitted_sheet_asks_the_remaining_players_to_sign_again(table, four):
    boot, car, hat, dog = four.values()
    data = sheet_data({boot: 3000, car: 2000, hat: 1500}, bankrupt=[dog])
    sheet = submit(table, data, version=0)
    for player in (dog, boot, car):
        sheet_sign(sheet=sheet, player=player, initials="x", by=None)
    data["players"][1]["cash"] = 2100
    sheet = sheet_save_draft(table=table, data=data, expected_version=1, by=None)
    assert (sheet.status, sheet.version) == ("draft", 2)
    assert [s.player for s in sheet.signatures.all()] == [dog]
    reopened = sheet.revisions.get(kind="reopened")
    assert reopened.changes == [
        {"kind": "player", "key": str(car.pk), "field": "cash", "before": 2000, "after": 2100}
    ]


def test_a_table_scored_without_a_clock_keeps_its_status(event, four):
    """table_mark_scored refuses a table whose wave never had a clock; the sheet still signs."""
    round_ = make_round(event, 1, [list(four.values())])
    table = table_of(round_, 1)
    table.wave.clock.delete()
    boot, car, hat, dog = four.values()
    sheet = play(table, {boot: 4, car: 3, hat: 2, dog: 1}, approve=False)
    assert sheet.status == "signed"
    assert Table.objects.get(pk=table.pk).status == "finished"


# --- Points by format ----------------------------------------------------------------------------


def test_championship_tables_score_19_10_5_3(table, four):
    boot, car, hat, dog = four.values()
    play(table, {boot: 1000, car: 3000, hat: 1500, dog: 2000})
    assert points_of(table) == {
        "Car": (1, Decimal(19)),
        "Dog": (2, Decimal(10)),
        "Hat": (3, Decimal(5)),
        "Boot": (4, Decimal(3)),
    }


@pytest.mark.parametrize("format_key", ["club", "junior"])
def test_club_and_junior_tables_rank_by_assets_without_points(event, four, format_key):
    event.format = format_key
    event.save()
    boot, car, hat, dog = four.values()
    table = table_of(make_round(event, 1, [[boot, car, hat, dog]]), 1)
    play(table, {boot: 1000, car: 3000, hat: 1500, dog: 2000})
    assert points_of(table) == {
        "Car": (1, None),
        "Dog": (2, None),
        "Hat": (3, None),
        "Boot": (4, None),
    }


# --- Judges --------------------------------------------------------------------------------


def test_approval_needs_a_signed_sheet(table, four, judge):
    boot, car, hat, dog = four.values()
    sheet = submit(table, sheet_data({boot: 4, car: 3, hat: 2, dog: 1}), version=0)
    with pytest.raises(ValidationError, match="signed"):
        sheet_approve(sheet=sheet, by=judge)
    sheet = play(table, {boot: 4, car: 3, hat: 2, dog: 1}, approve=False)
    sheet = sheet_approve(sheet=sheet, by=judge)
    assert (sheet.status, sheet.approved_by) == ("approved", judge)
    with pytest.raises(ValidationError):
        sheet_approve(sheet=sheet, by=judge)


def test_a_correction_is_checked_kept_with_its_reason_and_rewrites_results(table, four, judge):
    boot, car, hat, dog = four.values()
    sheet = play(table, {boot: 3000, car: 2000, hat: 1500, dog: 1000})
    corrected = sheet_data({boot: 3000, car: 2000, hat: 1500, dog: 1600})
    with pytest.raises(ValidationError, match="reason"):
        sheet_correct(
            sheet=sheet, data=corrected, reason=" ", by=judge, expected_version=sheet.version
        )
    wrong = sheet_data({boot: 3000, car: 2000, hat: 1500, dog: 1600})
    wrong["properties"] = [{"position": 1, "owner": str(dog.pk), "hotel": True}]
    with pytest.raises(SheetInvalid) as caught:
        sheet_correct(
            sheet=sheet, data=wrong, reason="recount", by=judge, expected_version=sheet.version
        )
    assert caught.value.violations[0]["positions"]
    assert TableSheet.objects.get().version == sheet.version  # refused: nothing changed

    sheet = sheet_correct(
        sheet=sheet,
        data=corrected,
        reason="Dog's $500 bill was counted as $100",
        by=judge,
        expected_version=sheet.version,
    )
    assert (sheet.status, sheet.approved_by, sheet.version) == ("approved", judge, 2)
    history = list(sheet.revisions.order_by("version"))
    assert [(r.kind, r.version) for r in history] == [("submission", 1), ("correction", 2)]
    correction = history[1]
    assert (correction.by, correction.reason) == (judge, "Dog's $500 bill was counted as $100")
    assert correction.changes == [
        {"kind": "player", "key": str(dog.pk), "field": "cash", "before": 1000, "after": 1600}
    ]
    assert history[0].data["players"][3]["cash"] == 1000  # what the table signed is kept
    assert points_of(table)["Dog"] == (3, Decimal(5))
    assert points_of(table)["Hat"] == (4, Decimal(3))


def test_only_signed_sheets_are_corrected(table, four, judge):
    boot, car, hat, dog = four.values()
    sheet = submit(table, sheet_data({boot: 4, car: 3, hat: 2, dog: 1}), version=0)
    with pytest.raises(ValidationError, match="not signed"):
        sheet_correct(
            sheet=sheet,
            data=sheet_data({boot: 5, car: 3, hat: 2, dog: 1}),
            reason="x",
            by=judge,
            expected_version=sheet.version,
        )


# --- Ties at a table ----------------------------------------------------------------------


def test_a_tie_is_left_open_until_the_head_judge_orders_it(table, four, judge):
    boot, car, hat, dog = four.values()
    play(table, {boot: 2000, car: 2000, hat: 1500, dog: 1000})
    assert points_of(table)["Boot"] == (1, None) and points_of(table)["Car"] == (1, None)
    with pytest.raises(ValidationError, match="tie waits"):
        round_post(round_=table.round, by=judge)
    with pytest.raises(ValidationError, match="reason"):
        tie_decide(table=table, order=[car.pk, boot.pk], by=judge, reason="")
    with pytest.raises(ValidationError, match="not tied"):
        tie_decide(table=table, order=[car.pk, hat.pk], by=judge, reason="x")
    with pytest.raises(ValidationError, match="Either"):
        tie_decide(table=table, order=[car.pk, boot.pk], share_points=True, by=judge, reason="x")

    decision = tie_decide(
        table=table, order=[car.pk, boot.pk], share_points=False, by=judge, reason="dice roll-off"
    )
    assert decision.outcome == {
        str(car.pk): {"place": 1, "points": "19"},
        str(boot.pk): {"place": 2, "points": "10"},
    }
    assert points_of(table) == {
        "Car": (1, Decimal(19)),
        "Boot": (2, Decimal(10)),
        "Hat": (3, Decimal(5)),
        "Dog": (4, Decimal(3)),
    }
    round_post(round_=table.round, by=judge)


def test_a_tie_may_share_the_points_of_the_places_it_covers(table, four, judge):
    boot, car, hat, dog = four.values()
    play(table, {boot: 2000, car: 2000, hat: 1500, dog: 1000})
    tie_decide(table=table, order=[car.pk, boot.pk], by=judge, reason="first try")
    # The head judge changes their mind; the later decision applies, both are kept.
    tie_decide(table=table, share_points=True, by=judge, reason="share")
    assert TieDecision.objects.count() == 2
    # (19 + 10) / 2 = 14.5 each, both keep first place.
    assert points_of(table)["Boot"] == points_of(table)["Car"] == (1, Decimal("14.50"))
    assert points_of(table)["Hat"] == (3, Decimal(5))


def test_three_sharing_get_a_third_of_the_points_to_the_cent(event, four, judge):
    boot, car, hat, dog = four.values()
    table = table_of(make_round(event, 1, [[boot, car, hat, dog]]), 1)
    play(table, {boot: 900, car: 2000, hat: 2000, dog: 2000})
    tie_decide(
        table=table, share_points=True, players=[car.pk, hat.pk, dog.pk], by=judge, reason="x"
    )
    # (19 + 10 + 5) / 3 = 11.333... -> 11.33; Boot keeps fourth place's 3.
    assert {alias: pts for alias, (_place, pts) in points_of(table).items()} == {
        "Car": Decimal("11.33"),
        "Hat": Decimal("11.33"),
        "Dog": Decimal("11.33"),
        "Boot": Decimal(3),
    }


def test_ties_are_decided_on_signed_sheets_only(table, four, judge):
    boot, car, hat, dog = four.values()
    submit(table, sheet_data({boot: 2000, car: 2000, hat: 1500, dog: 1000}), version=0)
    with pytest.raises(ValidationError, match="signed sheet"):
        tie_decide(table=table, order=[car.pk, boot.pk], by=judge, reason="x")


# --- Posting -------------------------------------------------------------------------------------


def test_a_round_is_posted_only_when_every_waves_tables_are_signed(event, judge):
    players = list(players_with_aliases(event, aliases=[f"P{i}" for i in range(8)]).values())
    round_ = make_round(event, 1, [players[:4], players[4:]], tables_per_wave=1)
    assert round_.waves.count() == 2
    play(table_of(round_, 1), dict(zip(players[:4], (4, 3, 2, 1), strict=True)))
    with pytest.raises(ValidationError) as caught:
        round_post(round_=round_, by=judge)
    assert caught.value.messages == ["Table 2: the score sheet is not signed yet."]
    submit(
        table_of(round_, 2),
        sheet_data(dict(zip(players[4:], (4, 3, 2, 1), strict=True))),
        version=0,
    )
    with pytest.raises(ValidationError, match="Table 2"):
        round_post(round_=round_, by=judge)
    sheet = TableSheet.objects.get(table__number=2)
    for player in players[4:]:
        sheet_sign(sheet=sheet, player=player, initials="x", by=None)
    sheet_sign(sheet=sheet, initials="BNK", by=None)
    # Signed is not enough for a championship: a judge approves it (see below).
    with pytest.raises(ValidationError) as caught:
        round_post(round_=round_, by=judge)
    assert caught.value.messages == ["Table 2: a judge has not approved the score sheet yet."]
    sheet_approve(sheet=sheet, by=judge)

    posting = round_post(round_=round_, by=judge)
    assert posting.posted_by == judge
    with pytest.raises(ValidationError, match="already posted"):
        round_post(round_=round_, by=judge)
    # A posted round is not corrected behind the public's back.
    with pytest.raises(ValidationError, match="withdraw the posting"):
        sheet_correct(
            sheet=sheet,
            data=sheet_data(dict(zip(players[4:], (5, 3, 2, 1), strict=True))),
            reason="x",
            by=judge,
            expected_version=sheet.version,
        )
    round_unpost(round_=round_)
    with pytest.raises(ValidationError, match="not posted"):
        round_unpost(round_=round_)
    sheet_correct(
        sheet=sheet,
        data=sheet_data(dict(zip(players[4:], (5, 3, 2, 1), strict=True))),
        reason="x",
        by=judge,
        expected_version=sheet.version,
    )
    round_post(round_=round_, by=judge)
