"""What scoring's services say when they refuse, and what they keep when they accept.

The sentences are the ones a head judge or a banker reads on the page (the views show the
error's messages as they are); the codes are what the pages and the tablet branch on. Each
is written out here by hand.
"""

from __future__ import annotations

import uuid

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext

from gameplay import SheetFormatError, check_sheet
from scoring.models import SheetRevision, StandingsTieDecision, TableSheet, TieDecision
from scoring.services.posting import round_post
from scoring.services.results import tie_outcome
from scoring.services.sheets import (
    SheetConflict,
    SheetInvalid,
    sheet_check,
    sheet_save_draft,
    sheet_save_draft_answer,
    sheet_submit,
    sheet_submit_answer,
)
from scoring.services.signatures import sheet_sign
from scoring.services.ties import standings_tie_decide, tie_decide
from tests.builders import an_event, players_with_aliases
from tests.scoring.scoring_helpers import make_round, play, sheet_data, table_of
from tournament.formats import event_edition, event_points_table
from tournament.models import Table


def refusal(call) -> tuple[list[str], list[str | None]]:
    with pytest.raises(ValidationError) as caught:
        call()
    return caught.value.messages, [error.code for error in caught.value.error_list]


# --- The head judge's order of players level in the standings ------------------------------


def test_a_standings_decision_needs_a_reason(event, four, judge):
    boot, car = four["Boot"], four["Car"]

    def decide():
        standings_tie_decide(event=event, order=[boot.pk, car.pk], by=judge, reason="   ")

    assert refusal(decide) == (["Give a reason for the decision."], ["reason"])
    assert not StandingsTieDecision.objects.exists()


@pytest.mark.parametrize("order", ["one", "twice"])
def test_a_standings_decision_orders_two_different_players(event, four, judge, order):
    boot, car = four["Boot"], four["Car"]
    pks = [boot.pk] if order == "one" else [boot.pk, car.pk, boot.pk]

    def decide():
        standings_tie_decide(event=event, order=pks, by=judge, reason="Coin")

    assert refusal(decide) == (["Order at least two different players."], ["order"])
    assert not StandingsTieDecision.objects.exists()


def test_a_standings_decision_orders_only_this_events_players(event, four, judge):
    stranger = players_with_aliases(an_event(name="Autumn Open"), aliases=["Iron"])["Iron"]

    def decide():
        standings_tie_decide(
            event=event, order=[four["Boot"].pk, stranger.pk], by=judge, reason="Coin"
        )

    assert refusal(decide) == (["Every player must belong to this event."], ["order"])
    assert not StandingsTieDecision.objects.exists()


def test_a_standings_decision_keeps_who_decided_why_and_the_order(event, four, judge):
    hat, boot = four["Hat"], four["Boot"]
    decision = standings_tie_decide(
        event=event, order=[str(hat.pk), boot.pk], by=judge, reason="  Coin toss  "
    )
    kept = StandingsTieDecision.objects.get()
    assert kept == decision
    assert (kept.by, kept.reason, kept.order) == (judge, "Coin toss", [hat.pk, boot.pk])


# --- The banker's sheet: a conflict, mistakes, a draft -------------------------------------


def test_a_sheets_mistakes_keep_the_engines_codes_one_error_each(table, four, banker):
    boot, car, hat, dog = four.values()
    # Car appears twice, Dog not at all: the sheet must list exactly the table's players.
    data = sheet_data({boot: 100, car: 200, hat: 300})
    data["players"].append(dict(data["players"][1]))
    answer = sheet_submit_answer(
        table=table,
        data=data,
        expected_version=0,
        submission_key=uuid.uuid4(),
        by=banker,
    )
    invalid = answer.invalid
    assert isinstance(invalid, SheetInvalid)
    codes = [violation["code"] for violation in invalid.violations]
    assert codes and all(codes)
    assert [error.code for error in invalid.error_list] == codes


def test_wording_a_sheets_mistakes_reads_the_tables_aliases_in_one_query(table, four, banker):
    boot, car, hat, dog = four.values()
    sheet_save_draft(
        table=table,
        data=sheet_data({boot: 1, car: 2, hat: 3, dog: 4}),
        expected_version=0,
        by=banker,
    )
    sheet = TableSheet.objects.select_related("table__round__event").get()
    violation = {"code": "negative-count", "message": "", "player": str(car.pk), "positions": []}
    with CaptureQueriesContext(connection) as queries:
        SheetInvalid(violations=[violation], sheet=sheet)
    # The seats with their players' aliases, joined: never one more query per player.
    player_reads = [
        q["sql"] for q in queries if 'FROM "tournament_player"' in q["sql"].replace("`", '"')
    ]
    assert player_reads == []


def test_a_draft_answered_keeps_who_saved_it(table, four, banker):
    boot, car, hat, dog = four.values()
    answer = sheet_save_draft_answer(
        table=table,
        data=sheet_data({boot: 1, car: 2, hat: 3, dog: 4}),
        expected_version=0,
        by=banker,
    )
    assert answer.saved
    assert TableSheet.objects.get().updated_by == banker


# --- A tie decided at a table ----------------------------------------------------------------


def test_a_tie_order_that_leaves_out_a_tied_player_is_refused_not_half_applied():
    report = {
        "players": [
            {"id": "1", "place": 1, "bankrupt": False},
            {"id": "2", "place": 1, "bankrupt": False},
            {"id": "3", "place": 3, "bankrupt": False},
        ]
    }
    with pytest.raises(ValueError):
        tie_outcome(
            tie=("1", "2"), order=["2"], share_points=False, report=report, points_table=None
        )


def test_a_posted_rounds_tie_is_not_decided_again_until_the_posting_is_withdrawn(
    table, four, judge
):
    boot, car, hat, dog = four.values()
    play(table, {boot: 3000, car: 3000, hat: 1000, dog: 500})
    tie_decide(table=table, order=[car.pk, boot.pk], by=judge, reason="Lot")
    round_post(round_=table.round, by=judge)

    def decide_again():
        tie_decide(table=table, order=[boot.pk, car.pk], by=judge, reason="Second thoughts")

    assert refusal(decide_again) == (
        ["This round’s scores are posted; withdraw the posting before changing them."],
        ["posted"],
    )
    assert TieDecision.objects.get().order == [str(car.pk), str(boot.pk)]


# --- The tablet's answers: the engine's report beside every refusal ------------------------


def test_a_submission_answered_keeps_who_sent_it(table, four, banker):
    boot, car, hat, dog = four.values()
    answer = sheet_submit_answer(
        table=table,
        data=sheet_data({boot: 4, car: 3, hat: 2, dog: 1}),
        expected_version=0,
        submission_key=uuid.uuid4(),
        by=banker,
    )
    assert answer.saved and answer.sheet.updated_by == banker


def test_a_conflict_answered_comes_with_the_engines_report_on_what_was_sent(table, four, banker):
    boot, car, hat, dog = four.values()
    saved = sheet_data({boot: 4, car: 3, hat: 2, dog: 1})
    sheet_save_draft(table=table, data=saved, expected_version=0, by=banker)
    sent = sheet_data({boot: 40, car: 30, hat: 20, dog: 10})
    answer = sheet_save_draft_answer(table=table, data=sent, expected_version=0, by=banker)
    assert not answer.saved and isinstance(answer.conflict, SheetConflict)
    assert answer.report == sheet_check(table=table, data=sent)
    assert [p["net_worth"] for p in answer.report["players"]] == [40, 30, 20, 10]


def test_a_refusal_answered_comes_with_the_engines_report_on_what_was_sent(table, four, banker):
    boot, car, hat, dog = four.values()
    sent = sheet_data({boot: 4, car: 3, hat: 2, dog: 1})
    play(table, {boot: 4, car: 3, hat: 2, dog: 1})  # signed: only a judge changes it now
    answer = sheet_save_draft_answer(
        table=table, data=sent, expected_version=TableSheet.objects.get().version, by=banker
    )
    assert not answer.saved and answer.refused
    assert answer.report == sheet_check(table=table, data=sent)


def test_the_banker_signing_last_marks_the_finished_table_scored_in_their_name(table, four, banker):
    boot, car, hat, dog = four.values()
    assert table.status == Table.Status.FINISHED
    play(table, {boot: 4, car: 3, hat: 2, dog: 1}, by=banker, approve=False)
    table.refresh_from_db()
    assert (table.status, table.status_changed_by) == (Table.Status.SCORED, banker)


def test_a_sheet_the_engine_cannot_read_is_one_violation_in_the_engines_words(table, event):
    data = {"players": "nobody", "properties": []}
    with pytest.raises(SheetFormatError) as engine:
        check_sheet(
            {**data, "edition": event.edition},
            edition=event_edition(event=event),
            points_table=event_points_table(event=event),
        )
    assert sheet_check(table=table, data=data) == {
        "valid": False,
        "errors": [
            {
                "code": "unreadable-sheet",
                "message": str(engine.value),
                "player": None,
                "positions": [],
            }
        ],
        "players": [],
        "unresolved_ties": [],
    }


# --- Players' signatures ---------------------------------------------------------------------


def test_a_players_signature_is_refused_in_words_until_it_may_be_given(event, banker):
    p = players_with_aliases(event, aliases="ABCDEF")
    round_ = make_round(event, 1, [[p["A"], p["B"], p["C"]], [p["D"], p["E"], p["F"]]])
    table = table_of(round_, 1)
    sheet = sheet_save_draft(
        table=table,
        data=sheet_data({p["A"]: 3, p["B"]: 2, p["C"]: 1}),
        expected_version=0,
        by=banker,
    )

    def sign(player):
        return lambda: sheet_sign(sheet=sheet, player=player, initials="X", by=banker)

    # D plays at table 2 of the same round.
    assert refusal(sign(p["D"])) == (["This player is not seated at this table."], ["not-seated"])
    assert refusal(sign(p["A"])) == (
        ["Players still in the game sign once the banker has submitted the sheet."],
        ["not-submitted"],
    )
    sheet = sheet_submit(
        table=table,
        data=sheet.data,
        expected_version=sheet.version,
        submission_key=uuid.uuid4(),
        by=banker,
    )
    signature = sheet_sign(sheet=sheet, player=p["A"], initials="AAA", by=banker)
    assert (signature.player, signature.initials, signature.by) == (p["A"], "AAA", banker)
    assert refusal(sign(p["A"]))[0] == ["A has already signed."]


# --- A submission refused before anything is saved --------------------------------------------


def test_a_submission_is_refused_in_words_while_the_sheet_page_would_refuse_it(event, banker):
    p = players_with_aliases(event, aliases="ABC")
    playing = table_of(make_round(event, 1, [[p["A"], p["B"], p["C"]]], finished=False), 1)
    full = sheet_data({p["A"]: 3, p["B"]: 2, p["C"]: 1})

    def submit(table, data, version=0):
        return lambda: sheet_submit(
            table=table,
            data=data,
            expected_version=version,
            submission_key=uuid.uuid4(),
            by=banker,
        )

    assert refusal(submit(playing, full)) == (
        ["The game at this table is not finished yet; mark it finished, then submit."],
        ["not-finished"],
    )
    Table.objects.filter(pk=playing.pk).update(status=Table.Status.FINISHED)
    empty = {"edition": event.edition, "players": [], "properties": []}
    assert refusal(submit(playing, empty)) == (
        ["Nothing entered yet: there is nothing to submit."],
        ["empty"],
    )
    sheet = play(playing, {p["A"]: 3, p["B"]: 2, p["C"]: 1}, approve=False)
    assert refusal(submit(playing, full, sheet.version)) == (
        ["This score sheet is already signed; only a judge can correct it now."],
        ["locked"],
    )
    assert TableSheet.objects.get().version == sheet.version


def test_a_player_missing_is_named_beside_the_engines_own_mistakes(table, four):
    boot, car, hat, dog = four.values()
    # Dog left off the sheet, and Boot's cash counted as less than nothing.
    report = sheet_check(table=table, data=sheet_data({boot: -5, car: 2, hat: 1}))
    codes = [error["code"] for error in report["errors"]]
    assert "negative-count" in codes and "player-missing" in codes
    missing = [error for error in report["errors"] if error["code"] == "player-missing"]
    assert [error["player"] for error in missing] == [str(dog.pk)]
    assert report["valid"] is False
    assert report["unresolved_ties"] == []
    assert all(p["place"] is None and p["points"] is None for p in report["players"])


def test_a_sheet_that_leaves_out_a_seated_player_places_nobody_and_holds_no_tie(table, four, event):
    boot, car, hat, dog = four.values()
    # Boot and Car level: valid to the engine alone, which places them and names their tie.
    data = sheet_data({boot: 300, car: 300, hat: 100})
    engine = check_sheet(
        {**data, "edition": event.edition},
        edition=event_edition(event=event),
        points_table=event_points_table(event=event),
    ).to_dict()
    assert engine["valid"] and engine["unresolved_ties"]
    assert all(p["place"] is not None for p in engine["players"])
    report = sheet_check(table=table, data=data)
    assert [e["code"] for e in report["errors"]] == ["player-missing"]
    assert report["unresolved_ties"] == []
    assert [(p["place"], p["points"]) for p in report["players"]] == [(None, None)] * 3


def test_a_sheet_that_is_not_a_set_of_entries_is_refused_in_words(table, banker):
    def save():
        sheet_save_draft(table=table, data=["Boot", 300], expected_version=0, by=banker)

    assert refusal(save) == (["A score sheet must be a set of entries."], ["unreadable"])
    assert not TableSheet.objects.exists()


def test_a_submission_is_kept_as_a_revision_with_no_reason_and_who_sent_it(table, four, banker):
    boot, car, hat, dog = four.values()
    play(table, {boot: 4, car: 3, hat: 2, dog: 1}, by=banker, approve=False)
    revision = SheetRevision.objects.get()
    assert (revision.kind, revision.version, revision.by) == (
        SheetRevision.Kind.SUBMISSION,
        1,
        banker,
    )
    # A banker's submission gives no reason (only a judge's correction does), and the first
    # revision has nothing before it to differ from.
    assert (revision.reason, revision.changes) == ("", [])
