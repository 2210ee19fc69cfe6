"""No public answer shows any part of a player's registration.

Real names stay on the officials' screens; everything public shows the alias (the
Player model's rule, and the Championship Rules' publicity consent is for the alias and results
only). A public page that printed "alias (first name)" passed checks that looked only for full
names and surnames; so here every field a registration holds is a marker no page could
spell by chance, and each must be missing from every public page, the hall display, the
JSON the hall and the clocks poll, the series' public pages and whatever the CSV exports
answer someone not signed in.
"""

from __future__ import annotations

import datetime
from urllib.parse import urlencode

import pytest
from django.urls import reverse
from django.utils.formats import date_format

from series import services as series_services
from spectator import following, selectors
from spectator.services import release_set
from tests.series.series_helpers import play_round, regional, three_tables
from tests.spectator.test_crawl import _links
from tournament.models import Player, Round, Wave

LETTERS = "ABCDEFGHIJKL"
EVERYTHING = dict.fromkeys(("home", "tables", "results", "standings", "final", "winner"), True)


def _registrations(event) -> dict[str, Player]:
    """Twelve players whose every registration field is a marker (alias: the letter)."""
    made = {}
    for n, letter in enumerate(LETTERS):
        made[letter] = Player.objects.create(
            event=event,
            alias=letter,
            first_name=f"Qwfirst{letter}",
            last_name=f"Qwlast{letter}",
            email=f"qwmail{letter.lower()}@example.org",
            date_of_birth=datetime.date(1971, 2, 3 + n),
            address=f"{n + 1} Qwaddress Lane",
            city=f"Qwcity{letter}",
            region=f"Qwregion{letter}",
            postal_code=f"QW{n + 10} 9ZZ",
            telephone=f"+44 7700 9{n:02}123",
            family=f"Qwfamily{letter}",
            household=f"qwfamily{letter.lower()}",
            guardian_name=f"Qwguardian{letter}",
            guardian_email=f"qwguardian{letter.lower()}@example.org",
            signature=f"Qwsigned{letter}",
            signed_at=datetime.datetime(2030, 3, 1, tzinfo=datetime.UTC),
            eligibility_declared=True,
            citizenship_declared=True,
        )
    return made


def _secrets(players) -> list[str]:
    fields = (
        "first_name", "last_name", "email", "address", "city", "region", "postal_code",
        "telephone", "family", "household", "guardian_name", "guardian_email", "signature",
    )  # fmt: skip
    found = []
    for player in players:
        found += [getattr(player, field) for field in fields]
        born = player.date_of_birth
        found += [
            born.isoformat(),
            date_format(born, "DATE_FORMAT"),
            date_format(born, "SHORT_DATE_FORMAT"),
            born.strftime("%d/%m/%Y"),
            born.strftime("%m/%d/%Y"),
            born.strftime("%d.%m.%Y"),
        ]
    return found


@pytest.fixture
def played():
    """A regional of a series, its round played and posted (its qualifiers fixed), every
    public page of the event and the series released."""
    finals = regional("Finals", day=28)
    junior = regional("Junior Finals", day=28, fmt="junior")
    series = series_services.series_create(
        name="Privacy Cup", season="2030", finals=finals, junior_finals=junior
    )
    event = regional("North", day=10)
    series_services.series_add_event(series=series, event=event)
    players = _registrations(event)
    round_ = play_round(event, three_tables(players))
    Round.objects.filter(pk=round_.pk).update(assignments_published=True)
    release_set(event=event, pages=EVERYTHING, by=None)
    series_services.release_set(
        series=series, pages={"qualifiers": True, "entrants": True, "champion": True}
    )
    return event, series, players


@pytest.mark.django_db
def test_no_public_answer_shows_any_field_of_a_registration(client, played):
    event, series, players = played
    pk = event.pk
    queue = [reverse("spectator:event_home", kwargs={"pk": pk})]
    for name in ("tables", "results", "tables_live", "results_live"):
        queue.append(reverse(f"spectator:{name}", kwargs={"pk": pk, "number": 1}))
    for name in ("standings", "final", "winner", "follow", "home_live", "standings_live"):
        queue.append(reverse(f"spectator:{name}", kwargs={"pk": pk}))
    release = selectors.release_for(event_pk=pk)
    aliases = following.followable_aliases(event_pk=pk, release=release)
    assert set(aliases) == set(LETTERS)
    for alias in aliases:
        for name in ("follow", "follow_live"):
            url = reverse(f"spectator:{name}", kwargs={"pk": pk})
            queue.append(f"{url}?{urlencode({'alias': alias})}")
    queue += [
        reverse("spectator:hall_display", kwargs={"pk": pk}),
        reverse("spectator:hall_state", kwargs={"pk": pk}),
    ]
    for wave in Wave.objects.filter(round__event=event):
        queue.append(reverse("clock:wave_clock_state", kwargs={"pk": pk, "wave_pk": wave.pk}))
    for name in ("public_home", "public_qualifiers", "public_entrants", "public_champion"):
        queue.append(reverse(f"series:{name}", kwargs={"series_pk": series.pk}))
    # The exports are the officials': someone not signed in gets none of their data.
    queue += [
        reverse("scoring:results_csv", kwargs={"pk": pk, "round_number": 1}),
        reverse("scoring:standings_csv", kwargs={"pk": pk}),
        reverse("players:player_export", kwargs={"pk": pk}),
    ]

    secrets = _secrets(players.values())
    seen: set[str] = set()
    answered = 0
    while queue:
        path = queue.pop(0)
        if path in seen:
            continue
        seen.add(path)
        response = client.get(path)
        assert response.status_code in (200, 302), path
        answered += response.status_code == 200
        body = response.content.decode()
        folded = body.casefold()
        for secret in secrets:
            assert secret.casefold() not in folded, (path, secret)
        if response.status_code == 200 and "html" in response.get("Content-Type", ""):
            queue.extend(
                link
                for link in _links(path, body)
                if link not in seen and not link.startswith(("/organizer/", "/bank/"))
            )
    assert answered > 40
    # The pages did show the players, by alias: the results of table 1 and the qualifiers.
    results = client.get(reverse("spectator:results", kwargs={"pk": pk, "number": 1}))
    assert '<th scope="row" class="alias">A' in results.content.decode()
