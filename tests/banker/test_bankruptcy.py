"""Bankruptcies recorded on the banker's table page, as they happen.

Championship Rules, SPECTATORS: "When players are bankrupt, they should promptly sign their score
sheet and leave the table." Tournament Kit, BANKRUPTCY: "If your debt is to another player, you must
turn over to that player all that you have of value and retire from the game ... Should you owe the
Bank ... you must turn over all assets to the Bank ... The last player left in the game wins."
"""

from __future__ import annotations

import datetime
import re
import uuid

import pytest
from django.contrib.auth.models import Group, User
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from banker.bankruptcy_services import bankruptcy_record, bankruptcy_undo
from clock.services import clock_start, table_mark_finished
from printouts.selectors import filled_table_pages
from scoring.bankruptcy_selectors import players_in_game, table_bankruptcies, table_bankruptcy_view
from scoring.models import ResultLine, SheetSignature
from scoring.services.sheets import sheet_save_draft, sheet_submit
from scoring.services.signatures import sheet_sign
from tournament.models import Bankruptcy, Player, Round, Seat, Table, Wave
from tournament.roles import BANKER

# Two hours ago: the pages read the clock at the real "now", the services at the given one.
START = timezone.now().replace(microsecond=0) - datetime.timedelta(hours=2)


def at(minutes: int) -> datetime.datetime:
    return START + datetime.timedelta(minutes=minutes)


@pytest.fixture
def table(event) -> Table:
    """Table 1 of round 1, Boot, Car, Hat and Dog in seats 1 to 4, not started yet."""
    round_ = Round.objects.create(event=event, number=1)
    wave = Wave.objects.create(round=round_, number=1)
    table = Table.objects.create(round=round_, wave=wave, number=1)
    for position, alias in enumerate(["Boot", "Car", "Hat", "Dog"], start=1):
        player = Player.objects.create(
            event=event,
            first_name=f"Real{alias}",
            last_name="Name",
            date_of_birth=datetime.date(1990, 1, 1),
            signature="x",
            signed_at=timezone.now(),
            alias=alias,
        )
        Seat.objects.create(round=round_, table=table, player=player, position=position)
    return table


@pytest.fixture
def playing(table) -> Table:
    clock_start(wave=table.wave, now=START)
    return table


def seated(table: Table) -> list[Player]:
    return [s.player for s in table.seats.order_by("position")]


# --- the service --------------------------------------------------------------------------


def test_a_bankruptcy_records_who_when_to_whom_and_the_initials(playing):
    boot, car, hat, dog = seated(playing)
    record = bankruptcy_record(
        table=playing, player=dog, creditor=hat, initials="  DG ", now=at(35)
    )
    assert (record.player, record.creditor, record.at, record.initials) == (dog, hat, at(35), "DG")
    bankruptcy_record(table=playing, player=boot, creditor=None, initials="BT", now=at(50))
    assert players_in_game(table=playing) == [car, hat]
    view = table_bankruptcy_view(table=playing, now=at(51))
    assert [(b.player, b.creditor) for b in view.bankruptcies] == [(dog, hat), (boot, None)]
    assert view.may_record and view.last_player is None


def test_the_last_player_left_wins_and_cannot_go_bankrupt(playing):
    """ "The last player left in the game wins": after three are out, Hat is the winner."""
    boot, car, hat, dog = seated(playing)
    for minutes, (player, creditor) in enumerate([(dog, hat), (boot, None), (car, hat)]):
        bankruptcy_record(
            table=playing, player=player, creditor=creditor, initials="x", now=at(10 + minutes)
        )
    view = table_bankruptcy_view(table=playing, now=at(20))
    assert view.last_player == hat and not view.may_record
    with pytest.raises(ValidationError, match="Hat is the last player left and wins"):
        bankruptcy_record(table=playing, player=hat, creditor=None, initials="H", now=at(21))
    assert Bankruptcy.objects.count() == 3


@pytest.mark.parametrize(
    ("who", "to", "initials", "message"),
    [
        ("Dog", "Dog", "DG", "cannot go bankrupt to themselves"),
        ("Dog", "Hat", "   ", "The player writes their initials"),
        ("Boot", "Hat", "BT", "Boot is not in the game at this table"),
        ("Dog", "Boot", "DG", "Boot is not in the game at this table, so nothing can be owed"),
    ],
)
def test_refused_bankruptcies_change_nothing(playing, who, to, initials, message):
    players = {p.alias: p for p in seated(playing)}
    bankruptcy_record(
        table=playing, player=players["Boot"], creditor=None, initials="BT", now=at(5)
    )
    with pytest.raises(ValidationError, match=message):
        bankruptcy_record(
            table=playing, player=players[who], creditor=players[to], initials=initials, now=at(9)
        )
    assert list(Bankruptcy.objects.values_list("player__alias", flat=True)) == ["Boot"]


def test_a_player_from_another_table_cannot_go_bankrupt_here(playing, event):
    stranger = Player.objects.create(
        event=event,
        first_name="Other",
        last_name="Table",
        date_of_birth=datetime.date(1990, 1, 1),
        signature="x",
        signed_at=timezone.now(),
        alias="Iron",
    )
    with pytest.raises(ValidationError, match="Iron is not in the game at this table"):
        bankruptcy_record(table=playing, player=stranger, creditor=None, initials="I", now=at(5))


def test_no_bankruptcy_before_the_clock_starts_or_after_the_game(table):
    boot, car, hat, dog = seated(table)
    with pytest.raises(ValidationError, match="has not started yet"):
        bankruptcy_record(table=table, player=dog, creditor=None, initials="DG", now=at(5))
    clock_start(wave=table.wave, now=START)
    record = bankruptcy_record(table=table, player=dog, creditor=None, initials="DG", now=at(5))
    table_mark_finished(table=table, now=at(60))
    with pytest.raises(ValidationError, match="bankruptcies go on the score sheet now"):
        bankruptcy_record(table=table, player=boot, creditor=None, initials="BT", now=at(61))
    with pytest.raises(ValidationError, match="bankruptcies go on the score sheet now"):
        bankruptcy_undo(bankruptcy=record, now=at(61))
    assert Bankruptcy.objects.count() == 1


def test_an_undo_puts_the_player_back_in_the_game(playing):
    boot, car, hat, dog = seated(playing)
    record = bankruptcy_record(table=playing, player=dog, creditor=hat, initials="DG", now=at(5))
    bankruptcy_undo(bankruptcy=record, now=at(6))
    assert players_in_game(table=playing) == [boot, car, hat, dog]
    assert not Bankruptcy.objects.exists()


# --- the banker's pages ---------------------------------------------------------------------


@pytest.fixture
def banker_client(client, playing):
    banker = User.objects.create_user("banker", password="pw")
    banker.groups.add(Group.objects.get(name=BANKER))
    Table.objects.filter(pk=playing.pk).update(banker=banker)
    client.force_login(banker)
    return client


def urls(table: Table) -> dict[str, str]:
    kwargs = {"table_pk": table.pk}
    return {
        "table": reverse("banker:banker_table", kwargs=kwargs),
        "record": reverse("banker:bankruptcy_record", kwargs=kwargs),
        "undo": reverse("banker:bankruptcy_undo", kwargs=kwargs),
    }


def test_the_banker_records_a_bankruptcy_and_the_player_signs_on_the_tablet(banker_client, playing):
    boot, car, hat, dog = seated(playing)
    url = urls(playing)
    table_page = banker_client.get(url["table"]).content.decode()
    assert url["record"] in table_page and "Nobody has gone bankrupt at this table." in table_page
    form = banker_client.get(url["record"]).content.decode()
    # Each player still in the game is a choice, and the Bank is a creditor.
    for player in (boot, car, hat, dog):
        assert f'value="{player.pk}"' in form
    assert 'value="bank"' in form and "The Bank" in form
    assert "they should promptly sign their score sheet and leave the table" in form

    response = banker_client.post(
        url["record"],
        {"player": dog.pk, "creditor": hat.pk, "initials": "DG"},
        follow=True,
    )
    assert response.redirect_chain[-1][0] == url["table"]
    body = response.content.decode()
    assert "Dog is out, bankrupt to Hat, and has signed." in body
    assert "went bankrupt to Hat at" in body and "signed DG" in body
    assert f'name="bankruptcy" value="{Bankruptcy.objects.get().pk}"' in body  # the undo
    record = Bankruptcy.objects.get()
    assert (record.player, record.creditor, record.recorded_by.username) == (dog, hat, "banker")
    # Dog is out: no longer a choice on the next bankruptcy.
    form = banker_client.get(url["record"]).content.decode()
    assert f'value="{dog.pk}"' not in form


def test_bad_input_comes_back_with_the_choices_kept_and_nothing_recorded(banker_client, playing):
    boot, car, hat, dog = seated(playing)
    url = urls(playing)
    response = banker_client.post(url["record"], {"player": dog.pk, "creditor": "bank"})
    assert response.status_code == 422
    body = response.content.decode()
    assert "The player writes their initials" in body
    assert re.search(rf'name="player" value="{dog.pk}"[^>]*checked', body)
    assert re.search(r'name="creditor" value="bank"[^>]*checked', body)
    response = banker_client.post(
        url["record"], {"player": dog.pk, "creditor": dog.pk, "initials": "DG"}
    )
    assert response.status_code == 422
    assert "cannot go bankrupt to themselves" in response.content.decode()
    response = banker_client.post(url["record"], {})
    assert response.status_code == 422
    assert "Choose the player who is out." in response.content.decode()
    assert not Bankruptcy.objects.exists()


def test_the_last_bankruptcy_names_the_outright_winner(banker_client, playing):
    boot, car, hat, dog = seated(playing)
    url = urls(playing)
    for player in (dog, boot):
        bankruptcy_record(table=playing, player=player, creditor=hat, initials="x")
    response = banker_client.post(
        url["record"], {"player": car.pk, "creditor": "bank", "initials": "CR"}, follow=True
    )
    body = response.content.decode()
    assert "Car is out, bankrupt to the Bank, and has signed." in body
    assert "Hat is the last player left and wins outright" in body
    assert url["record"] + '"' not in body  # nobody left to go bankrupt
    assert "Game over: one player remains" in body
    form = banker_client.get(url["record"]).content.decode()
    assert "Hat is the last player left and wins outright" in form
    assert 'name="initials"' not in form


def test_an_undo_from_the_table_page(banker_client, playing):
    boot, car, hat, dog = seated(playing)
    url = urls(playing)
    record = bankruptcy_record(table=playing, player=dog, creditor=hat, initials="DG")
    response = banker_client.post(url["undo"], {"bankruptcy": record.pk}, follow=True)
    assert "Dog’s bankruptcy is undone: they are back in the game." in response.content.decode()
    assert not Bankruptcy.objects.exists()
    response = banker_client.post(url["undo"], {"bankruptcy": record.pk}, follow=True)
    assert "There is no such bankruptcy at this table." in response.content.decode()
    response = banker_client.post(url["undo"], {"bankruptcy": "²"}, follow=True)
    assert "There is no such bankruptcy at this table." in response.content.decode()


# --- the score sheet starts from the record -------------------------------------------------


def _sheet_page(client, table: Table):
    return client.get(reverse("banker:banker_sheet", kwargs={"table_pk": table.pk}))


def _three_out(table: Table, by: User | None = None) -> list[Player]:
    """Dog to Hat at 10:05, Boot to the Bank at 10:20, Car to Hat at 10:40: Hat is left."""
    boot, car, hat, dog = seated(table)
    for minutes, player, creditor, initials in [
        (5, dog, hat, "DG"),
        (20, boot, None, "BT"),
        (40, car, hat, "CR"),
    ]:
        bankruptcy_record(
            table=table,
            player=player,
            creditor=creditor,
            initials=initials,
            by=by,
            now=at(minutes),
        )
    return [boot, car, hat, dog]


def test_the_sheet_starts_with_the_recorded_bankruptcies_signed(banker_client, playing):
    boot, car, hat, dog = _three_out(playing)
    table_mark_finished(table=playing)
    response = _sheet_page(banker_client, playing)
    initial = response.context["form"].initial
    # Out in the order recorded, holding nothing: their creditor has it all (Tournament Kit).
    for player, order in [(dog, 1), (boot, 2), (car, 3)]:
        assert initial[f"bankrupt_{player.pk}"] is True
        assert (initial[f"out_order_{player.pk}"], initial[f"cash_{player.pk}"]) == (order, 0)
    assert initial[f"bankrupt_{hat.pk}"] is False
    assert f"cash_{hat.pk}" not in initial  # nothing typed for the winner yet
    body = response.content.decode()
    for initials in ("DG", "BT", "CR"):
        assert f"Signed: {initials}" in body
    assert "Bankrupt to Hat at" in body and "Bankrupt to the Bank at" in body
    basis = ",".join(str(b.pk) for b in Bankruptcy.objects.order_by("at"))
    assert f'data-basis="{basis}"' in body


def test_recorded_initials_sign_the_sheet_and_the_winner_takes_28_points(banker_client, playing):
    """Hat, the last player left, wins outright: 28 points (Championship Rules, SCORING, one player
    remaining); the others score nothing, placed last out first."""
    banker = User.objects.get(username="banker")  # banker_client's, who records them
    boot, car, hat, dog = _three_out(playing, by=banker)
    table_mark_finished(table=playing)
    data = {
        "edition": "classic-us",
        "players": [
            {"id": str(boot.pk), "bankrupt": True, "cash": 0, "out_order": 2},
            {"id": str(car.pk), "bankrupt": True, "cash": 0, "out_order": 3},
            # $6,550 cash + Boardwalk $400 + Park Place $350 = $7,300.
            {"id": str(hat.pk), "bankrupt": False, "cash": 6550},
            {"id": str(dog.pk), "bankrupt": True, "cash": 0, "out_order": 1},
        ],
        "properties": [
            {"position": 39, "owner": str(hat.pk)},
            {"position": 37, "owner": str(hat.pk)},
        ],
    }
    sheet = sheet_submit(
        table=playing, data=data, expected_version=0, submission_key=uuid.uuid4(), by=None
    )
    signatures = {s.player: s for s in sheet.signatures.all()}
    assert {p.alias: s.initials for p, s in signatures.items()} == {
        "Dog": "DG",
        "Boot": "BT",
        "Car": "CR",
    }
    assert signatures[dog].signed_at == at(5)  # when they left, not when the sheet came
    assert signatures[dog].role == SheetSignature.Role.PLAYER
    assert signatures[dog].by == banker  # who recorded the bankruptcy, not who submitted
    # Reopened by the banker (a changed count), the leavers' signatures stand; Hat's goes.
    sheet_sign(sheet=sheet, player=hat, initials="HT", by=None)
    data["players"][2]["cash"] = 6560
    sheet = sheet_save_draft(table=playing, data=data, expected_version=sheet.version, by=None)
    assert sorted(s.initials for s in sheet.signatures.all()) == ["BT", "CR", "DG"]
    data["players"][2]["cash"] = 6550
    sheet = sheet_submit(
        table=playing,
        data=data,
        expected_version=sheet.version,
        submission_key=uuid.uuid4(),
        by=None,
    )
    with pytest.raises(ValidationError, match="Dog has already signed"):
        sheet_sign(sheet=sheet, player=dog, initials="D2", by=None)
    # Only the player still in the game signs now, then the banker.
    with pytest.raises(ValidationError, match="Every player still in the game signs"):
        sheet_sign(sheet=sheet, initials="BNK", by=None)
    sheet_sign(sheet=sheet, player=hat, initials="HT", by=None)
    sheet_sign(sheet=sheet, initials="BNK", by=None)
    results = {
        line.player.alias: (line.place, line.points, line.net_worth)
        for line in ResultLine.objects.filter(table=playing)
    }
    assert results == {"Hat": (1, 28, 7300), "Car": (2, 0, 0), "Boot": (3, 0, 0), "Dog": (4, 0, 0)}
    printed = {
        page.player.alias: page.signature
        for page in filled_table_pages(event=playing.round.event, table=playing)
    }
    assert printed == {"Boot": "BT", "Car": "CR", "Hat": "HT", "Dog": "DG"}


def test_a_draft_saved_during_play_takes_later_bankruptcies_only(banker_client, playing):
    """A bankruptcy recorded after the banker last saved the draft is laid on it; one the
    banker took off the draft after it was recorded stays off."""
    boot, car, hat, dog = seated(playing)
    bankruptcy_record(table=playing, player=boot, creditor=None, initials="BT")
    draft = {
        "edition": "classic-us",
        "players": [
            {"id": str(boot.pk), "bankrupt": False, "cash": 10},
            {"id": str(car.pk), "bankrupt": False, "cash": 200},
            {"id": str(hat.pk), "bankrupt": False, "cash": 300},
            {"id": str(dog.pk), "bankrupt": False, "cash": 400},
        ],
        "properties": [],
    }
    sheet_save_draft(table=playing, data=draft, expected_version=0, by=None)
    bankruptcy_record(table=playing, player=dog, creditor=car, initials="DG")
    initial = _sheet_page(banker_client, playing).context["form"].initial
    assert (initial[f"bankrupt_{dog.pk}"], initial[f"cash_{dog.pk}"]) == (True, 0)
    assert initial[f"out_order_{dog.pk}"] == 2  # Boot went out first
    assert (initial[f"bankrupt_{boot.pk}"], initial[f"cash_{boot.pk}"]) == (False, 10)
    assert initial[f"cash_{car.pk}"] == 200


def test_once_the_game_is_over_the_table_page_offers_no_bankruptcy(playing):
    # Once the table's game is finished, bankruptcies go on the score sheet: the table page
    # stops offering to record one, and names no last player left.
    boot, car, hat, dog = seated(playing)
    bankruptcy_record(table=playing, player=dog, creditor=None, initials="DG", now=at(5))
    assert table_bankruptcy_view(table=playing, now=at(30)).may_record
    table_mark_finished(table=playing, now=at(60))
    view = table_bankruptcy_view(table=Table.objects.get(pk=playing.pk), now=at(61))
    assert (view.game_on, view.may_record) == (False, False)
    assert [p.alias for p in view.in_game] == ["Boot", "Car", "Hat"]


def test_bankruptcies_are_listed_first_out_first_by_the_time_each_went_out(playing):
    # The service is given the time each player went out; the list goes by that time, not
    # by the order the records were written (the same on the table page, which writes each
    # at once, but not for a record written with an earlier time).
    boot, car, hat, dog = seated(playing)
    bankruptcy_record(table=playing, player=dog, creditor=None, initials="DG", now=at(20))
    bankruptcy_record(table=playing, player=boot, creditor=None, initials="BT", now=at(10))
    view = table_bankruptcy_view(table=playing, now=at(30))
    assert [b.player for b in view.bankruptcies] == [boot, dog]


def test_two_bankruptcies_in_the_same_instant_are_listed_in_the_order_recorded(playing):
    boot, car, hat, dog = seated(playing)
    bankruptcy_record(table=playing, player=hat, creditor=None, initials="HT", now=at(15))
    bankruptcy_record(table=playing, player=dog, creditor=None, initials="DG", now=at(15))
    view = table_bankruptcy_view(table=playing, now=at(30))
    assert [b.player for b in view.bankruptcies] == [hat, dog]


def test_the_bankruptcies_are_read_with_their_players_and_creditors_at_once(playing):
    # The table page names each player out and to whom: one read, however many are out.
    boot, car, hat, dog = seated(playing)
    bankruptcy_record(table=playing, player=dog, creditor=hat, initials="DG", now=at(5))

    def names() -> list[tuple[str, str]]:
        return [(b.player.alias, b.creditor.alias) for b in table_bankruptcies(table=playing)]

    with CaptureQueriesContext(connection) as one:
        assert names() == [("Dog", "Hat")]
    bankruptcy_record(table=playing, player=car, creditor=boot, initials="CR", now=at(6))
    with CaptureQueriesContext(connection) as two:
        assert names() == [("Dog", "Hat"), ("Car", "Boot")]
    assert len(two) == len(one) == 1
