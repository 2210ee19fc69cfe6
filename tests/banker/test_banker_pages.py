"""The banker's score sheet pages: private links, live validation, submission, signatures.

Tables are seated and finished through the services (banker_setup.finished_tables), the
way a tournament day makes them; the pages are driven with Django's test client.
"""

from __future__ import annotations

import re
import uuid

import pytest
from django.urls import reverse
from django.utils.html import escape

from banker.links import banker_link_issue, banker_link_revoke
from gameplay import load_edition
from scoring.models import BankerLink, SheetRevision, TableSheet
from scoring.selectors import banker_table_players
from scoring.services.sheets import sheet_save_draft
from tests.banker.banker_setup import BANKER, JUDGE, ORGANIZER, finished_tables, user_with
from tournament.models import Table


@pytest.fixture
def tables(db) -> list[Table]:
    return finished_tables(players=8)


@pytest.fixture
def table(tables) -> Table:
    return tables[0]


@pytest.fixture
def banker_client(client, table):
    """Logged in as the banker the organizer assigned to ``table``."""
    banker = user_with(BANKER, "banker")
    Table.objects.filter(pk=table.pk).update(banker=banker)
    client.force_login(banker)
    return client


def sheet_url(table: Table, action: str = "") -> str:
    name = "banker:banker_sheet" if not action else f"banker:sheet_{action}"
    return reverse(name, kwargs={"table_pk": table.pk})


def form_data(table: Table, *, version: int = 0, key: str | None = None, **fields) -> dict:
    """A sheet where everyone holds $1,500 in cash and no deeds, plus ``fields``."""
    data = {"version": str(version), "submission_key": key or str(uuid.uuid4())}
    for player in banker_table_players(table=table):
        data[f"cash_{player.pk}"] = "1500"
    data.update({k: str(v) for k, v in fields.items()})
    return data


# --- The private link ------------------------------------------------------------------------


def test_a_private_link_opens_its_table_and_nothing_else(client, tables):
    first, second = tables
    link = banker_link_issue(table=first, by=None)
    response = client.get(reverse("banker:banker_link_open", kwargs={"key": link.key}))
    assert response.status_code == 302
    assert response.url == sheet_url(first)
    assert client.get(sheet_url(first)).status_code == 200
    # Its own table's clock page too: the tablet calls the last turn and game over there.
    clock_page = reverse("banker:banker_table", kwargs={"table_pk": first.pk})
    assert client.get(clock_page).status_code == 200
    # The same tablet cannot open the other table, its clock page or an organizer page.
    response = client.get(sheet_url(second))
    assert response.status_code == 302 and response.url.startswith(reverse("login"))
    response = client.post(sheet_url(second, "validate"), form_data(second))
    assert response.status_code == 302 and response.url.startswith(reverse("login"))
    response = client.get(reverse("banker:banker_table", kwargs={"table_pk": second.pk}))
    assert response.url.startswith(reverse("login"))
    response = client.get(reverse("banker:banker_link", kwargs={"table_pk": first.pk}))
    assert response.url.startswith(reverse("login"))


def test_a_revoked_link_is_refused_and_a_reissued_one_works(client, table):
    old = banker_link_issue(table=table, by=None)
    assert client.get(reverse("banker:banker_link_open", kwargs={"key": old.key})).status_code
    assert client.get(sheet_url(table)).status_code == 200

    new = banker_link_issue(table=table, by=None)
    old.refresh_from_db()
    assert old.revoked_at is not None and new.key != old.key
    assert len(new.key) >= 32
    # The tablet that opened the old link loses the sheet on its next request.
    assert client.get(sheet_url(table)).status_code == 302
    response = client.get(reverse("banker:banker_link_open", kwargs={"key": old.key}))
    assert response.status_code == 403
    assert "no longer opens a table" in response.content.decode()

    client.get(reverse("banker:banker_link_open", kwargs={"key": new.key}))
    assert client.get(sheet_url(table)).status_code == 200
    banker_link_revoke(table=table, by=None)
    assert client.get(sheet_url(table)).status_code == 302
    assert BankerLink.objects.filter(table=table, revoked_at__isnull=True).count() == 0


def test_the_organizer_issues_and_revokes_links_on_a_page_with_a_qr_code(client, table):
    client.force_login(user_with(ORGANIZER, "organizer"))
    page = reverse("banker:banker_link", kwargs={"table_pk": table.pk})
    assert "has no banker link" in client.get(page).content.decode()
    client.post(reverse("banker:banker_link_issue", kwargs={"table_pk": table.pk}))
    link = BankerLink.objects.get(table=table, revoked_at__isnull=True)
    body = client.get(page).content.decode()
    assert f"/bank/k/{link.key}/" in body
    assert "<svg" in body
    client.post(reverse("banker:banker_link_revoke", kwargs={"table_pk": table.pk}))
    link.refresh_from_db()
    assert link.revoked_at is not None


@pytest.mark.parametrize("role", [BANKER, JUDGE, None])
def test_the_link_page_is_the_organizers_alone(client, table, role):
    client.force_login(user_with(role, "someone"))
    page = reverse("banker:banker_link", kwargs={"table_pk": table.pk})
    assert client.get(page).status_code == 403
    issue = reverse("banker:banker_link_issue", kwargs={"table_pk": table.pk})
    assert client.post(issue).status_code == 403
    assert not BankerLink.objects.exists()


def test_anonymous_goes_to_login_and_a_user_without_a_role_gets_403(client, table):
    response = client.get(sheet_url(table))
    assert response.status_code == 302
    assert response.url.startswith(reverse("login") + "?next=")
    client.force_login(user_with(None, "spectator"))
    assert client.get(sheet_url(table)).status_code == 403
    assert client.post(sheet_url(table, "submit"), form_data(table)).status_code == 403
    assert not TableSheet.objects.exists()


def test_a_banker_opens_only_the_tables_assigned_to_them(client, tables):
    mine, theirs = tables
    banker = user_with(BANKER, "banker")
    Table.objects.filter(pk=mine.pk).update(banker=banker)
    client.force_login(banker)
    assert client.get(sheet_url(mine)).status_code == 200
    response = client.get(sheet_url(theirs))
    assert response.status_code == 403
    body = response.content.decode()
    assert "This is not your table" in body
    # The refusal points to the banker's own table.
    assert sheet_url(mine) in body and sheet_url(theirs) not in body
    for action in ("validate", "draft", "submit", "sign"):
        response = client.post(sheet_url(theirs, action), form_data(theirs))
        assert response.status_code == 403, action
    clock_page = reverse("banker:banker_table", kwargs={"table_pk": theirs.pk})
    assert client.get(clock_page).status_code == 403
    game_over = reverse("banker:table_finished", kwargs={"table_pk": theirs.pk})
    assert client.post(game_over).status_code == 403
    assert not TableSheet.objects.exists()


@pytest.mark.parametrize("role", [JUDGE, ORGANIZER])
def test_judges_and_organizers_open_any_table(client, tables, role):
    """They help at tables (a dead tablet, a dispute) without being anyone's banker."""
    client.force_login(user_with(role, "official"))
    for table in tables:
        assert table.banker_id is None
        assert client.get(sheet_url(table)).status_code == 200
    response = client.post(sheet_url(tables[1], "draft"), form_data(tables[1]))
    assert response.status_code == 302
    assert TableSheet.objects.get().table_id == tables[1].pk


def test_a_banker_without_a_table_lands_on_a_clear_message(client, tables):
    banker = user_with(BANKER, "banker")
    client.force_login(banker)
    response = client.get(reverse("tournament:signed_in"), follow=True)
    assert response.redirect_chain[-1][0] == reverse("banker:banker_tables")
    assert "No table is assigned to you yet" in response.content.decode()
    Table.objects.filter(pk=tables[1].pk).update(banker=banker)
    body = client.get(reverse("banker:banker_tables")).content.decode()
    assert "No table is assigned to you yet" not in body
    assert sheet_url(tables[1]) in body and sheet_url(tables[0]) not in body


# --- The sheet ---------------------------------------------------------------------------------


def test_the_sheet_lists_every_deed_of_the_edition_by_group(banker_client, table):
    body = banker_client.get(sheet_url(table)).content.decode()
    edition = load_edition(table.round.event.edition)
    for group in edition.groups.values():
        assert f'data-group="{group.key}"' in body
        assert group.colour in body
    for deed in edition.deeds:
        assert escape(deed.name) in body
        assert f'name="owner_{deed.position}"' in body
        assert f'name="mortgaged_{deed.position}"' in body
    # Colour groups in board order, railroads and utilities after the streets.
    rows = [body.index(f'data-position="{pos}"') for pos in (1, 3, 37, 39, 5, 12)]
    assert rows == sorted(rows)
    for player in banker_table_players(table=table):
        assert player.alias in body
        for bill in edition.denominations:
            assert f'name="bills_{player.pk}_{bill}"' in body
    assert "Real0" not in body


def test_live_validation_puts_the_violation_beside_the_deed_and_shows_net_worths(
    banker_client, table
):
    boot = banker_table_players(table=table)[0]
    # A hotel on Boardwalk without Park Place: uneven building, no monopoly.
    data = form_data(table, owner_39=boot.pk, buildings_39="hotel")
    response = banker_client.post(sheet_url(table, "validate"), data)
    assert response.status_code == 200
    body = response.content.decode()
    deed_block = body.split('id="deed-msgs-39"')[1].split("</div>")[0]
    assert "<p>" in deed_block
    assert 'id="deed-msgs-37"' in body  # cleared too (out of band, empty)
    assert "disabled" in body.split('id="sheet-submit"')[1].split(">")[0]
    # Net worth: 1500 cash + 400 Boardwalk + hotel 5 x 200 = 2900.
    assert "$2,900" in body
    supply = re.sub(r"<[^>]+>", "", body.split('class="sheet-supply"')[1].split("</div>")[0])
    assert "Hotels: 1 / 12" in supply
    # Nothing was saved.
    assert not TableSheet.objects.filter(version__gt=0).exists()


def test_live_validation_of_a_valid_sheet_enables_submit(banker_client, table):
    body = banker_client.post(sheet_url(table, "validate"), form_data(table)).content.decode()
    assert "ready to submit" in body
    assert "disabled" not in body.split('id="sheet-submit"')[1].split(">")[0]


def test_an_invalid_submission_is_refused_with_the_reason_and_keeps_the_data(banker_client, table):
    boot = banker_table_players(table=table)[0]
    data = form_data(table, owner_39=boot.pk, buildings_39="hotel", bills_1=0)
    data[f"bills_{boot.pk}_500"] = "3"
    response = banker_client.post(sheet_url(table, "submit"), data)
    assert response.status_code == 422
    body = response.content.decode()
    assert "was not submitted" in body
    form = response.context["form"]
    assert form[f"bills_{boot.pk}_500"].value() == "3"
    assert form["owner_39"].value() == str(boot.pk)
    assert form["buildings_39"].value() == "hotel"
    row = next(r for g in response.context["groups"] for r in g.rows if r.space.position == 39)
    assert row.messages
    sheet = TableSheet.objects.get(table=table)
    assert sheet.status == TableSheet.Status.DRAFT
    # The draft is saved and the page's next submission carries its version and a new key.
    assert f'name="version" value="{sheet.version}"' in body
    key = re.search(r'name="submission_key" value="([^"]*)"', body)
    assert key is not None and key.group(1) not in ("", data["submission_key"])


def test_a_valid_submission_and_the_signatures_lock_the_sheet(banker_client, table):
    players = banker_table_players(table=table)
    boot, car, hat, dog = players
    data = form_data(table)
    data.update({f"cash_{car.pk}": "2000", f"cash_{dog.pk}": "0", f"bankrupt_{dog.pk}": "on"})
    data[f"out_order_{dog.pk}"] = "1"
    response = banker_client.post(sheet_url(table, "submit"), data)
    assert response.status_code == 302
    sheet = TableSheet.objects.get(table=table)
    assert sheet.status == TableSheet.Status.SUBMITTED

    page = banker_client.get(sheet_url(table)).content.decode()
    assert f"Sign as {boot.alias}" in page
    # The banker cannot sign before the players.
    banker_client.post(sheet_url(table, "sign"), {"initials": "BNK"})
    assert TableSheet.objects.get(table=table).status == TableSheet.Status.SUBMITTED
    for player in players:
        banker_client.post(sheet_url(table, "sign"), {"player": player.pk, "initials": "XY"})
    banker_client.post(sheet_url(table, "sign"), {"initials": "BNK"})
    sheet.refresh_from_db()
    assert sheet.status == TableSheet.Status.SIGNED
    page = banker_client.get(sheet_url(table))
    body = page.content.decode()
    assert "signed and locked" in body
    assert 'name="owner_39"' not in body
    results = {c.player.alias: (c.place, c.points) for c in page.context["results"]}
    assert results[car.alias][0] == 1 and results[dog.alias][0] == 4
    assert results[car.alias][1] is not None
    table.refresh_from_db()
    assert table.status == Table.Status.SCORED
    # A locked sheet refuses any further submission.
    response = banker_client.post(sheet_url(table, "submit"), form_data(table, version=9))
    assert response.status_code in (400, 409)
    # A draft over it is refused the same way; without JavaScript what was typed stays.
    late = form_data(table, version=sheet.version, **{f"cash_{car.pk}": "2100"})
    response = banker_client.post(sheet_url(table, "draft"), late)
    assert response.status_code == 400
    assert "only a judge can correct it now" in response.content.decode()
    assert response.context["form"][f"cash_{car.pk}"].value() == "2100"
    json = banker_client.post(
        sheet_url(table, "draft"), late, headers={"Accept": "application/json"}
    )
    assert json.status_code == 400 and json.json()["status"] == "refused"
    assert TableSheet.objects.get(table=table).data == sheet.data


def test_a_retried_submission_is_applied_once(banker_client, table):
    data = form_data(table)
    headers = {"Accept": "application/json"}
    first = banker_client.post(sheet_url(table, "submit"), data, headers=headers)
    again = banker_client.post(sheet_url(table, "submit"), data, headers=headers)
    assert first.json()["status"] == again.json()["status"] == "submitted"
    sheet = TableSheet.objects.get(table=table)
    assert sheet.version == 1
    assert sheet.revisions.filter(kind=SheetRevision.Kind.SUBMISSION).count() == 1


def test_a_bankrupt_player_signs_as_they_leave(banker_client, table):
    dog = banker_table_players(table=table)[3]
    data = form_data(table, **{f"cash_{dog.pk}": 0, f"bankrupt_{dog.pk}": "on"})
    data.update({"player": str(dog.pk), f"initials_{dog.pk}": "DG"})
    response = banker_client.post(sheet_url(table, "sign"), data)
    assert response.status_code == 302
    sheet = TableSheet.objects.get(table=table)
    assert sheet.status == TableSheet.Status.DRAFT
    assert sheet.signatures.get().player == dog


def test_the_second_tablet_gets_a_conflict_showing_what_changed(banker_client, table):
    boot, car = banker_table_players(table=table)[:2]
    # Tablet A saves a draft: Boardwalk to Boot.
    sheet_save_draft(
        table=table,
        data={
            "players": [
                {"id": str(p.pk), "bankrupt": False, "cash": 1500}
                for p in banker_table_players(table=table)
            ],
            "properties": [{"position": 39, "owner": str(boot.pk)}],
        },
        expected_version=0,
        by=None,
    )
    # Tablet B, still at version 0, submits Boardwalk to Car.
    data = form_data(table, version=0, owner_39=car.pk)
    response = banker_client.post(sheet_url(table, "submit"), data)
    assert response.status_code == 409
    body = response.content.decode()
    assert "Another tablet changed this sheet" in body
    change = next(c for c in response.context["conflict"]["changes"] if c["what"] == "Boardwalk")
    assert (change["before"], change["after"]) == (boot.alias, car.alias)
    # Tablet B's own entries stay on screen, ready to re-apply.
    assert response.context["form"]["owner_39"].value() == str(car.pk)
    assert 'name="version_override" value="1"' in body
    # As JSON (sheet.js) the same conflict comes as a fragment.
    response = banker_client.post(
        sheet_url(table, "draft"), data, headers={"Accept": "application/json"}
    )
    assert response.status_code == 409 and response.json()["version"] == 1
    assert "Boardwalk" in response.json()["html"]
    # Keeping one's own entries saves them over.
    data["version_override"] = "1"
    response = banker_client.post(sheet_url(table, "draft"), data)
    assert response.status_code == 302
    sheet = TableSheet.objects.get(table=table)
    assert sheet.version == 2
    assert sheet.data["properties"][0]["owner"] == str(car.pk)


def test_a_draft_comes_back_on_reload(banker_client, table):
    boot = banker_table_players(table=table)[0]
    data = form_data(table, owner_5=boot.pk, mortgaged_5="on")
    data[f"bills_{boot.pk}_100"] = "7"
    response = banker_client.post(
        sheet_url(table, "draft"), data, headers={"Accept": "application/json"}
    )
    assert response.json() == {"status": "saved", "version": 1}
    page = banker_client.get(sheet_url(table))
    form = page.context["form"]
    assert form["owner_5"].value() == str(boot.pk)
    assert form["mortgaged_5"].value() is True
    assert str(form[f"bills_{boot.pk}_100"].value()) == "7"
    assert str(form["version"].value()) == "1"
    assert 'name="version" value="1"' in page.content.decode()


def test_the_table_page_links_to_the_sheet_once_the_game_is_over(banker_client, table):
    body = banker_client.get(
        reverse("banker:banker_table", kwargs={"table_pk": table.pk})
    ).content.decode()
    assert sheet_url(table) in body


def test_a_violation_beside_the_deed_names_the_player_by_alias_only(banker_client, table):
    """The engine names players by id; the tablet once left "but 1 does not own" in a message."""
    boot = banker_table_players(table=table)[0]
    data = form_data(table, owner_39=boot.pk, buildings_39="1")
    body = banker_client.post(sheet_url(table, "validate"), data).content.decode()
    sentence = escape(
        f"{boot.alias}: Boardwalk has buildings, but {boot.alias} does not own every property "
        "of the Dark Blue group."
    )
    deed_block = body.split('id="deed-msgs-39"')[1].split("</div>")[0]
    player_block = body.split(f'id="player-msgs-{boot.pk}"')[1].split("</div>")[0]
    assert f"<p>{sentence}</p>" in deed_block
    # Shown once: beside its deed, not again under the player.
    assert f"<p>{sentence}</p>" not in player_block
    # The id is nowhere in either message, at the start or after "but".
    assert f"{boot.pk}:" not in deed_block and f"but {boot.pk} " not in deed_block
    # The submission refused over JSON words it the same way.
    response = banker_client.post(
        sheet_url(table, "submit"), data, headers={"Accept": "application/json"}
    )
    assert response.status_code == 422
    assert response.json()["messages"] == [
        f"{boot.alias}: Boardwalk has buildings, but {boot.alias} does not own every property "
        "of the Dark Blue group."
    ]
