"""Two judges correcting the same sheet: the second, from a page loaded
before the first saved, gets the banker's conflict screen instead of erasing the first.

Round 1 is one signed table: Boot 3000, Car 2000, Hat 1500, Dog 1000 (cash only, so each
net worth is the cash written down).
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User
from django.urls import reverse

from scoring.models import ResultLine, SheetRevision, TableSheet
from scoring.services.sheets import SheetConflict, sheet_correct
from tests.builders import players_with_aliases
from tests.scoring.scoring_helpers import (
    make_round,
    play,
    posted_back,
    sheet_data,
    table_of,
)
from tournament.models import Player
from tournament.roles import JUDGE


@pytest.fixture
def players(event) -> dict[str, Player]:
    return players_with_aliases(event, aliases=["Boot", "Car", "Hat", "Dog"])


@pytest.fixture
def signed(event, players) -> TableSheet:
    round_ = make_round(event, 1, [list(players.values())])
    p = players
    return play(
        table_of(round_, 1), {p["Boot"]: 3000, p["Car"]: 2000, p["Hat"]: 1500, p["Dog"]: 1000}
    )


def judge(name: str) -> User:
    person = User.objects.create_user(name, password="pw")
    person.groups.add(Group.objects.get(name=JUDGE))
    return person


def correction_url(event) -> str:
    return reverse(
        "scoring:results_correct", kwargs={"pk": event.pk, "round_number": 1, "table_number": 1}
    )


def opened(client, event) -> dict[str, str]:
    """The correction form as the page fills it in: what the browser would post back."""
    return posted_back(client.get(correction_url(event)).context["form"])


def cash(alias: str) -> int:
    return ResultLine.objects.get(player__alias=alias).net_worth


def test_a_stale_correction_gets_the_conflict_and_erases_nothing(event, players, signed, client):
    car, dog = players["Car"], players["Dog"]
    first, second = client, client.__class__()
    first.force_login(judge("ada"))
    second.force_login(judge("ben"))
    # Both judges open the table's correction.
    page_a, page_b = opened(first, event), opened(second, event)

    page_a.update({f"cash_{car.pk}": "4321", "reason": "Car's 500s were counted as 100s"})
    assert first.post(correction_url(event), page_a).status_code == 302
    assert cash("Car") == 4321

    # B saves from the page loaded before A's correction.
    page_b.update({f"cash_{dog.pk}": "5555", "reason": "Dog's bills recounted"})
    response = second.post(correction_url(event), page_b)
    assert response.status_code == 409
    # A's correction stands; B's is not applied either: B decides after seeing A's.
    assert (cash("Car"), cash("Dog")) == (4321, 1000)
    assert SheetRevision.objects.filter(kind=SheetRevision.Kind.CORRECTION).count() == 1
    # The banker's screen, in a judge's words: what is saved now against this page.
    body = response.content.decode()
    assert "Another judge corrected this sheet" in body
    lines = {(c["what"], c["field"]): c for c in response.context["conflict"]["changes"]}
    assert (lines["Car", "counted cash"]["before"], lines["Car", "counted cash"]["after"]) == (
        "4321",
        "2000",
    )
    assert (lines["Dog", "counted cash"]["before"], lines["Dog", "counted cash"]["after"]) == (
        "1000",
        "5555",
    )
    # Nothing B typed is lost: the page comes back with it, reason included.
    form = response.context["form"]
    assert form[f"cash_{dog.pk}"].value() == "5555"
    assert form["reason"].value() == "Dog's bills recounted"
    assert 'name="version_override" value="2"' in body

    # B takes A's cash for Car and keeps their own for Dog: saved over version 2.
    page_b.update({f"cash_{car.pk}": "4321", "version_override": "2"})
    response = second.post(correction_url(event), page_b)
    assert response.status_code == 302
    assert (cash("Car"), cash("Dog")) == (4321, 5555)
    latest = SheetRevision.objects.filter(kind=SheetRevision.Kind.CORRECTION).latest("version")
    assert [(c["key"], c["field"]) for c in latest.changes] == [(str(dog.pk), "cash")]


def test_a_correction_from_an_old_version_is_refused_by_the_service(players, signed):
    p = players
    corrected = sheet_data({p["Boot"]: 3000, p["Car"]: 2000, p["Hat"]: 1500, p["Dog"]: 1600})
    sheet_correct(
        sheet=signed, data=corrected, reason="recount", by=None, expected_version=signed.version
    )
    stale = sheet_data({p["Boot"]: 3000, p["Car"]: 2500, p["Hat"]: 1500, p["Dog"]: 1000})
    with pytest.raises(SheetConflict) as caught:
        sheet_correct(
            sheet=signed, data=stale, reason="other", by=None, expected_version=signed.version
        )
    assert caught.value.current_version == signed.version + 1
    # before: what is saved now; after: what the stale page sent.
    assert {(c["key"], c["field"], c["before"], c["after"]) for c in caught.value.changes} == {
        (str(p["Car"].pk), "cash", 2000, 2500),
        (str(p["Dog"].pk), "cash", 1600, 1000),
    }
    assert (cash("Car"), cash("Dog")) == (2000, 1600)


def test_a_page_that_does_not_say_its_version_is_refused_with_a_message(
    event, players, signed, client
):
    """An old page (or a hand-made post) without the version cannot tell what it overwrites."""
    client.force_login(judge("ada"))
    data = opened(client, event)
    del data["version"]
    data.update({f"cash_{players['Car'].pk}": "4321", "reason": "recount"})
    response = client.post(correction_url(event), data)
    assert response.status_code == 200
    assert "open the correction again" in response.content.decode()
    assert response.context["form"][f"cash_{players['Car'].pk}"].value() == "4321"
    assert cash("Car") == 2000
