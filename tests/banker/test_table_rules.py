"""The rules at the table (Championship Rules, BANKERS: "They will also have a copy of the rules").

The banker's tablet opens the event edition's rules with the rule book's clarifications: the
championship's "TOURNAMENT POINTS TO REMEMBER" (Championship Rules), the club kit's frequent
questions and end of round (Tournament Kit); the edition's own amounts; the table's or event's
language; a search box (static/js/rules.js) and a copy kept by the service worker.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.builders import an_event, players_with_aliases, user_with
from tests.scoring.scoring_helpers import make_round, table_of
from tournament.models import Event, Table
from tournament.roles import BANKER

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return " ".join(response.content.decode().split())


def table_in(event: Event) -> Table:
    players = players_with_aliases(event, aliases=["AA", "BB", "CC", "DD"])
    return table_of(make_round(event, 1, [list(players.values())]), 1)


def rules_page(client, table: Table) -> str:
    banker = table.banker or user_with(BANKER, f"bank{table.pk}")
    Table.objects.filter(pk=table.pk).update(banker=banker)
    client.force_login(banker)
    return text(client.get(reverse("banker:table_rules", kwargs={"table_pk": table.pk})))


def test_a_championship_table_reads_002s_points_to_remember(client):
    page = rules_page(client, table_in(an_event(name="Regional")))
    # Championship Rules, TOURNAMENT POINTS TO REMEMBER.
    assert "Players may not consult or seek advice from friends or game observers" in page
    assert "You must collect your rent before Player C throws the dice." in page
    # Championship Rules, JUDGES: "the contestant must flag this to the Banker who will raise their
    # arm".
    assert "who will raise their arm" in page
    # The classic board: a $200 salary, a $50 fine, a hotel after four houses.
    assert "pays them a $200 salary" in page and "a $50 fine" in page
    assert "With 4 houses on each property" in page
    assert "Search the rules" in page and "js/rules.js" in page


def test_a_club_table_reads_the_kits_answers_and_end_of_round(client):
    page = rules_page(client, table_in(an_event(name="Charity Night", fmt="club")))
    # Tournament Kit: "Multiply that number by 4 if your opponent only owns one utility, or by 10".
    assert "Multiply that number by 4" in page and "by 10 if they own both" in page
    assert "When time is called, the game must stop." in page
    assert "Players may not consult or seek advice" not in page


def test_the_editions_own_amounts_and_houses_to_a_hotel(client):
    # Market Edition Rules (the market edition): hotels after three houses, rupee amounts.
    event = an_event(name="Mumbai Open", edition="india-rupee")
    page = rules_page(client, table_in(event))
    assert "With 3 houses on each property" in page
    assert "₹" in page


def test_the_rules_are_in_the_tables_language_where_translated(client):
    event = an_event(name="Coupe", language="fr")
    table = table_in(event)
    page = rules_page(client, table)
    assert 'lang="fr"' in page
    Table.objects.filter(pk=table.pk).update(language="de")
    assert 'lang="de"' in rules_page(client, Table.objects.get(pk=table.pk))


def test_the_tablet_keeps_the_rules_offline(client):
    worker = client.get(reverse("banker:tablet_service_worker")).content.decode()
    assert "js/rules.js" in worker
    table = table_in(an_event(name="Regional"))
    banker_page = rules_page(client, table)
    assert "Back to Table 1" in banker_page
    page = text(client.get(reverse("banker:banker_table", kwargs={"table_pk": table.pk})))
    assert reverse("banker:table_rules", kwargs={"table_pk": table.pk}) in page
