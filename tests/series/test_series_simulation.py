"""``simulate_event --series``: a season played through the real services, checked against
the rules, recomputed here from the regionals' posted standings.

Championship Rules: "There will be 4 Regional Championships ... From each event the 4 players with
the highest Point scores (not net worth) will progress through to the MONOPOLY Championship
Finals"; "From the 4 regional Junior Championships, 1 junior competitor from each will
progress to the MONOPOLY Championship Finals".
"""

from __future__ import annotations

import csv
import io

import pytest
from django.core.management import call_command
from django.db import transaction

from scoring.selectors import event_winner, standings
from series.models import JUNIOR, SENIOR, Entrant, Series, SeriesEvent
from tournament.models import Player, Round

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def season(django_db_setup, django_db_blocker, tmp_path_factory):
    """One simulated season (four regionals of 16, four junior regionals), and its export;
    rolled back when the module is done."""
    quiet = io.StringIO()
    with django_db_blocker.unblock(), transaction.atomic():
        call_command("simulate_event", series=4, players=16, seed=5, stdout=quiet)
        series = Series.objects.get(name="Simulated Championship Series (seed 5)")
        out = tmp_path_factory.mktemp("export")
        call_command("export_results", series.finals_id, out=str(out), stdout=quiet)
        yield series, out
        transaction.set_rollback(True)


def _email(player: Player) -> str:
    return player.email.lower()


def _expected(series: Series, division: str) -> dict[int, list[int]]:
    """Each regional's qualifiers recomputed: its posted standings best first, passing over
    whoever already holds a place from an earlier regional or declined."""
    declined = {_email(e.player) for e in Entrant.objects.filter(series=series, status="declined")}
    held: set[str] = set()
    found = {}
    members = SeriesEvent.objects.filter(series=series, division=division).order_by(
        "event__date", "event__pk"
    )
    for member in members:
        chosen = []
        for row in standings(event=member.event, only_posted=True):
            email = _email(row.player)
            if email in held or email in declined or row.player.status != Player.Status.PLAYER:
                continue
            if len(chosen) < member.places:
                chosen.append(row.player_id)
                held.add(email)
        found[member.event_id] = chosen
    return found


def test_sixteen_qualifiers_and_four_juniors_from_the_posted_standings(season):
    series, _out = season
    for division, places, count in ((SENIOR, 4, 16), (JUNIOR, 1, 4)):
        members = SeriesEvent.objects.filter(series=series, division=division)
        assert members.count() == 4 and {m.places for m in members} == {places}
        qualifiers = Entrant.objects.filter(series=series, division=division, status="qualifier")
        assert qualifiers.count() == count
        assert set(qualifiers.values_list("response", flat=True)) == {"accepted"}
        got = {
            m.event_id: sorted(qualifiers.filter(source=m).values_list("player_id", flat=True))
            for m in members
        }
        assert got == {k: sorted(v) for k, v in _expected(series, division).items()}
        emails = [_email(e.player) for e in qualifiers]
        assert len(emails) == len(set(emails))  # nobody holds two places


def test_the_regionals_end_with_their_qualifiers_not_a_same_day_final(season):
    series, _out = season
    for member in SeriesEvent.objects.filter(series=series):
        rounds = Round.objects.filter(event=member.event)
        assert not rounds.exclude(kind=Round.Kind.PRELIMINARY).exists()
        assert not rounds.filter(posting__isnull=True).exists()


def test_one_declined_place_passed_to_the_next_of_the_same_regional(season):
    """The requirement: "A declined place passes to the next player of the same regional"."""
    series, _out = season
    declined = Entrant.objects.get(series=series, status="declined")
    assert declined.response == "declined" and declined.division == SENIOR
    from_there = Entrant.objects.filter(source=declined.source, status="qualifier")
    assert from_there.count() == 4
    assert max(from_there.values_list("rank", flat=True)) > declined.rank


def test_both_finals_are_registered_and_played_to_a_winner(season):
    series, _out = season
    finals = series.finals
    assert finals.players.filter(status=Player.Status.PLAYER).count() == 16
    assert finals.players.filter(status=Player.Status.ALTERNATE).count() == 3
    assert Round.objects.filter(event=finals, kind="final", posting__isnull=False).exists()
    winner = event_winner(event=finals)
    entrant_players = set(
        Entrant.objects.filter(series=series, division=SENIOR).values_list(
            "finals_player", flat=True
        )
    )
    assert winner is not None and winner.lines[0].player_id in entrant_players
    juniors = series.junior_finals
    assert juniors.players.filter(status=Player.Status.PLAYER).count() == 4
    assert event_winner(event=juniors) is not None


def test_the_export_writes_the_entrants_with_the_issues_columns(season):
    """``event-<id>-entrants.csv`` with ``Alias,Qualified from,Qualifying rank,
    Status``; Qualified from is the source event's id."""
    series, out = season
    with (out / f"event-{series.finals_id}-entrants.csv").open(encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    assert rows[0] == ["Alias", "Qualified from", "Qualifying rank", "Status"]
    statuses = [row[3] for row in rows[1:]]
    assert statuses.count("qualifier") == 16
    assert statuses.count("alternate") == 3
    assert statuses.count("declined") == 1
    sources = {
        str(pk)
        for pk in SeriesEvent.objects.filter(series=series, division=SENIOR).values_list(
            "event_id", flat=True
        )
    }
    assert {row[1] for row in rows[1:]} <= sources
    finals_aliases = set(series.finals.players.values_list("alias", flat=True))
    assert {row[0] for row in rows[1:] if row[3] != "declined"} <= finals_aliases
