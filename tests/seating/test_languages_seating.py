"""Same-language tables in the app (Championship Rules: "same-language games"): the organizer
asks, players say which language they play in, and every table of a pre-seated round is one
language, marked with it."""

import datetime

import pytest
from django.core.exceptions import ValidationError

from players.registration_forms import RegistrationForm
from players.services import Registration, player_register
from seating.services import preseat_event
from seating.table_settings import table_set_language
from tournament.models import Player, Table


def _register(event, count, language, start):
    for i in range(start, start + count):
        player_register(
            event=event,
            registration=Registration(
                first_name=f"P{i}",
                last_name="Player",
                date_of_birth=datetime.date(1990, 1, 1),
                signature=f"P{i} Player",
                game_language=language,
                eligibility_declared=True,
                citizenship_declared=True,
            ),
            source=Player.Source.ON_THE_DAY,
        )


@pytest.mark.django_db
def test_an_event_that_asks_seats_each_language_at_its_own_tables(event):
    event.same_language_tables = True
    event.language = "fr"
    event.expected_players = 40
    event.preliminary_rounds = 2
    event.save()
    _register(event, 12, "", 0)  # the event's language: French
    _register(event, 8, "hi", 100)
    _register(event, 2, "de", 200)  # too few for a table: they play with the largest group
    preseat_event(event=event, only_checked_in=False, time_limit=2.0)
    tables = Table.objects.filter(round__event=event).prefetch_related("seats__player")
    assert tables.count() == 2 * 5
    for table in tables:
        languages = {seat.player.game_language or "fr" for seat in table.seats.all()}
        if table.language == "fr":
            assert languages <= {"fr", "de"}
        else:
            assert table.language == "hi" and languages == {"hi"}
    assert sorted(t.language for t in tables if t.round.number == 1) == ["fr"] * 3 + ["hi"] * 2


@pytest.mark.django_db
def test_without_the_organizers_request_tables_mix_and_are_not_marked(event):
    event.expected_players = 40
    event.save()
    _register(event, 8, "hi", 0)
    _register(event, 8, "fr", 100)
    preseat_event(event=event, only_checked_in=False, time_limit=2.0)
    assert set(Table.objects.filter(round__event=event).values_list("language", flat=True)) == {""}


@pytest.mark.django_db
def test_the_registration_form_asks_the_language_only_when_the_event_seats_by_it(event):
    assert "game_language" not in RegistrationForm(event=event).fields
    event.same_language_tables = True
    assert "game_language" in RegistrationForm(event=event).fields


@pytest.mark.django_db
def test_a_table_is_marked_with_a_known_language_only(event):
    event.expected_players = 8
    event.save()
    _register(event, 8, "", 0)
    preseat_event(event=event, only_checked_in=False, time_limit=1.0)
    table = Table.objects.filter(round__event=event).first()
    assert table_set_language(table=table, language="es").language == "es"
    with pytest.raises(ValidationError):
        table_set_language(table=table, language="xx")


@pytest.mark.django_db
def test_the_organizer_marks_a_tables_language_on_the_seating_page(client, event):
    from django.contrib.auth.models import Group, User

    event.expected_players = 8
    event.save()
    _register(event, 8, "", 0)
    preseat_event(event=event, only_checked_in=False, time_limit=1.0)
    organizer = User.objects.create_user("olga", password="pw")
    organizer.groups.add(Group.objects.get(name="Organizer"))
    client.force_login(organizer)
    url = f"/organizer/events/{event.pk}/seating/1/tables/1/language/"
    client.post(url, {"language": "hi"})
    assert Table.objects.get(round__event=event, round__number=1, number=1).language == "hi"
    page = client.get(f"/organizer/events/{event.pk}/seating/").content.decode()
    assert 'class="flag table-language" lang="hi"' in page
    assert client.post(url, {"language": "xx"}).status_code == 302
    assert Table.objects.get(round__event=event, round__number=1, number=1).language == "hi"


@pytest.mark.django_db
def test_the_long_search_job_keeps_same_language_tables_too(event):
    from seating.search import MIN_SECONDS, search_submit

    event.same_language_tables = True
    event.language = "fr"
    event.expected_players = 40
    event.preliminary_rounds = 2
    event.save()
    _register(event, 8, "", 0)
    _register(event, 8, "hi", 100)
    search_submit(event=event, only_checked_in=False, seed=1, seconds=MIN_SECONDS)
    tables = Table.objects.filter(round__event=event).prefetch_related("seats__player")
    assert tables.count() == 2 * 4
    for table in tables:
        languages = {seat.player.game_language or "fr" for seat in table.seats.all()}
        assert languages == {table.language}
