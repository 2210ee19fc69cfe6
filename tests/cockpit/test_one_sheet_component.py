"""One sheet component: "Judge's correction: the same sheet component as the
tablet (deeds by colour group, same order, same controls)". Both pages draw their title
deeds with scoring/_deed_rows.html, so the rows and controls are compared as rendered."""

from __future__ import annotations

import re

from django.urls import reverse

from scoring.models import SheetRevision, TableSheet
from tests.banker.banker_setup import BANKER, user_with
from tests.scoring.test_results_pages import _correction_post, login, url
from tests.scoring.test_results_pages import players as players
from tests.scoring.test_results_pages import round1 as round1
from tournament.models import Table
from tournament.roles import JUDGE

DEED_TABLE = re.compile(r'<table class="sheet-deeds">.*?</table>', re.S)


def _controls(html: str) -> list[tuple[str, str]]:
    """Each deed row's position and the names of its form controls, in page order."""
    deeds = DEED_TABLE.search(html).group(0)
    rows = re.findall(r'<tr class="deed" data-position="(\d+)">(.*?)</tr>', deeds, re.S)
    return [
        (pos, " ".join(re.sub(r"_\d+$", "", n) for n in re.findall(r'name="([^"]+)"', row)))
        for pos, row in rows
    ]


def _options(html: str, name: str) -> list[str]:
    select = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', html, re.S).group(1)
    return re.findall(r"<option [^>]*>([^<]*)</option>", select)


def test_the_correction_draws_the_tablets_deed_rows(client, event, round1):
    table = Table.objects.get(round=round1, number=1)
    banker = user_with(BANKER, "banker")
    Table.objects.filter(pk=table.pk).update(banker=banker)
    client.force_login(banker)
    # The tablet's sheet of a signed table is read-only; the controls come from the form
    # as drawn for a draft, so compare with the sheet before it was locked.
    TableSheet.objects.filter(table=table).update(status=TableSheet.Status.DRAFT)
    tablet = client.get(reverse("banker:banker_sheet", kwargs={"table_pk": table.pk}))
    tablet = tablet.content.decode()
    TableSheet.objects.filter(table=table).update(status=TableSheet.Status.SIGNED)
    judge = login(client, JUDGE)
    correction = judge.get(url("results_correct", event, round_number=1, table_number=1))
    correction = correction.content.decode()
    assert DEED_TABLE.search(tablet) and DEED_TABLE.search(correction)
    # The same rows in the same order with the same controls: owner, mortgaged and one
    # control for houses or a hotel (no separate houses count and hotel box).
    assert _controls(correction) == _controls(tablet)
    assert ("39", "owner mortgaged buildings") in _controls(correction)
    assert ("5", "owner mortgaged") in _controls(correction)  # a railroad: no buildings
    assert 'name="houses_39"' not in correction and 'name="hotel_39"' not in correction
    assert _options(correction, "buildings_39") == _options(tablet, "buildings_39")
    assert _options(correction, "buildings_39")[-1] == "Hotel"


def test_a_hotel_chosen_in_the_combined_control_is_saved(client, event, players, round1):
    judge = login(client, JUDGE)
    boot = players["Boot"]
    # Park Place (37) with four houses and Boardwalk (39) with a hotel, both Boot's.
    data = _correction_post(
        judge,
        event,
        players,
        owner_37=str(boot.pk),
        owner_39=str(boot.pk),
        buildings_37="4",
        buildings_39="hotel",
        reason="The deeds were left off",
    )
    response = judge.post(url("results_correct", event, round_number=1, table_number=1), data)
    assert response.status_code == 302, response.context and response.context["violations"]
    sheet = TableSheet.objects.get(table__round=round1, table__number=1)
    held = {d["position"]: d for d in sheet.data["properties"]}
    assert (held[39]["hotel"], held[39].get("houses", 0)) == (True, 0)
    assert (held[37].get("hotel", False), held[37]["houses"]) == (False, 4)
    assert SheetRevision.objects.filter(kind=SheetRevision.Kind.CORRECTION).exists()
