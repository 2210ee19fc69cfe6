"""The kit's staffing and its 90-minute rounds (Tournament Kit, STAFFING and REQUIREMENTS).

"Bankers Ideally, a non-player should serve as Banker at each table ... If neither is
possible, a player from each table must act as that table's Banker. To determine the Banker,
each player rolls the dice. The player with the highest roll is Banker for that round but only
for that round. The Banker for the final round should not be one of the players."
"""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from cockpit.selectors import event_facts
from scoring.selectors import results_csv_rows, standings_csv_rows
from seating.table_settings import table_assign_banker, table_assign_player_banker
from tests.builders import an_event, players_with_aliases, user_with
from tests.scoring.scoring_helpers import make_round, play, table_of
from tournament.models import Round, Table
from tournament.roles import BANKER, ORGANIZER


@pytest.fixture
def club(db):
    return an_event(name="Charity Night", fmt="club", date=datetime.date(2031, 6, 7))


@pytest.fixture
def seated(club):
    players = players_with_aliases(club, aliases=["AA", "BB", "CC", "DD", "EE", "FF", "GG"])
    round_ = make_round(club, 1, [list(players.values())[:4], list(players.values())[4:]])
    return round_, players


def test_a_player_at_the_table_banks_it_when_no_volunteer_can(seated):
    # Tournament Kit: "a player from each table must act as that table's Banker".
    round_, players = seated
    table = table_of(round_, 1)
    table_assign_player_banker(table=table, player=players["BB"])
    table.refresh_from_db()
    assert table.banker_player == players["BB"]
    # The cockpit counts the table as having its banker.
    facts = event_facts(event=round_.event)
    assert [r.first_without_banker for r in facts.rounds] == [2]
    # A player of another table is not "a player from each table" of this one.
    with pytest.raises(ValidationError, match="EE is not seated at this table"):
        table_assign_player_banker(table=table, player=players["EE"])
    table_assign_player_banker(table=table, player=None)
    table.refresh_from_db()
    assert table.banker_player is None


def test_the_final_is_never_banked_by_one_of_its_players(club, seated):
    # Tournament Kit: "The Banker for the final round should not be one of the players."
    _round1, players = seated
    finalists = [players[a] for a in ("AA", "BB", "CC", "DD", "EE", "FF")]
    final = make_round(club, 2, [finalists])
    Round.objects.filter(pk=final.pk).update(kind=Round.Kind.FINAL)
    table = Table.objects.get(round=final)
    with pytest.raises(ValidationError, match="should not be one of the players"):
        table_assign_player_banker(table=table, player=players["AA"])
    # A banker account that is a finalist's own (the same email) is refused there too ...
    finalists[2].email = "cc@example.org"
    finalists[2].save(update_fields=["email"])
    banker = user_with(BANKER, "cee")
    banker.email = "CC@example.org"
    banker.save(update_fields=["email"])
    with pytest.raises(ValidationError, match="plays in this final"):
        table_assign_banker(table=table, banker=banker)
    # ... while a volunteer who is not playing banks it.
    volunteer = user_with(BANKER, "val")
    volunteer.email = "val@example.org"
    volunteer.save(update_fields=["email"])
    assert table_assign_banker(table=table, banker=volunteer).banker == volunteer


def test_the_seating_page_records_a_player_banker_and_answers_bad_input(client, seated):
    round_, players = seated
    client.force_login(user_with(ORGANIZER, "olive"))
    url = reverse(
        "seating:seating_player_banker",
        kwargs={"pk": round_.event.pk, "round_number": 1, "table_number": 1},
    )
    page = client.get(reverse("seating:seating", kwargs={"pk": round_.event.pk}))
    assert "Or a player banks (the highest roll, this round only)" in page.content.decode()
    response = client.post(url, {"player": players["CC"].pk}, follow=True)
    assert response.status_code == 200
    assert table_of(round_, 1).banker_player == players["CC"]
    for bad in ("x", "²", "99999999", str(players["GG"].pk)):
        response = client.post(url, {"player": bad}, follow=True)
        assert response.status_code == 200
    assert table_of(round_, 1).banker_player == players["CC"]


def test_a_club_round_under_90_minutes_is_warned_about(client, club):
    # Tournament Kit: "The tournament must have at least two rounds, each with a 90-minute time
    # limit."
    client.force_login(user_with(ORGANIZER, "olive"))
    edit = reverse("tournament:event_edit", kwargs={"pk": club.pk})
    form = client.get(edit).context["form"]
    data = {name: value for name, value in form.initial.items() if value is not None}
    data.update(round_minutes=60)
    data = {k: ("on" if v is True else v) for k, v in data.items() if v is not False}
    response = client.post(edit, data, follow=True)
    said = [str(m) for m in response.context["messages"]]
    assert any("Rounds of 60 minutes are shorter than the kit's" in m for m in said), said
    bracket = client.get(reverse("knockout:knockout_bracket", kwargs={"pk": club.pk}))
    assert "90-minute time limit" in bracket.content.decode()
    data.update(round_minutes=90)
    response = client.post(edit, data, follow=True)
    assert not any("shorter than the kit" in str(m) for m in response.context["messages"])


def test_club_csv_files_carry_no_column_of_points(seated):
    # The Tournament Kit's format ranks by "highest total assets"; its day awards no points, so
    # neither file has a Points column of zeros (the championship's keeps it).
    round_, players = seated
    play(
        table_of(round_, 1),
        {players["AA"]: 4, players["BB"]: 3, players["CC"]: 2, players["DD"]: 1},
    )
    results = results_csv_rows(round_=round_)
    assert "Points" not in results[0] and results[0][-1] == "Place"
    standings = standings_csv_rows(event=round_.event, only_posted=False)
    assert "Points" not in standings[0] and "Total net worth" in standings[0]
    championship = an_event(name="Regional")
    champs = players_with_aliases(championship, aliases=["P1", "P2", "P3", "P4"])
    champ_round = make_round(championship, 1, [list(champs.values())])
    assert results_csv_rows(round_=champ_round)[0][-1] == "Points"
    assert "Points" in standings_csv_rows(event=championship, only_posted=False)[0]
