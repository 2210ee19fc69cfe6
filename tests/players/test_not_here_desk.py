"""The check-in desk at the start: the players not here, one tap each, the undo beside it,
and a no-show still found at the desk when they walk in.

Championship Rules, PLAYER NO SHOW: "Game starts will not wait on any player. If a player is not
seated at the official start time of any round, the player abdicates his/her seat for the rest
of the tournament to an alternate." (Every round: tests/players/test_no_show_any_round.py.)
"""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import Group, User
from django.urls import reverse
from django.utils import timezone

from cockpit.plan import next_action
from cockpit.selectors import event_facts
from tests.players.test_cockpit_no_show import ada, make_event
from tournament.models import Player


@pytest.fixture
def judge_client(client, db):
    user = User.objects.create_user("jules")
    user.groups.add(Group.objects.get(name="Judge"))
    client.force_login(user)
    return client


def desk(client, event) -> str:
    return client.get(reverse("players:check_in", kwargs={"pk": event.pk})).content.decode()


def checked_in_but_ada(event) -> None:
    Player.objects.filter(event=event, status=Player.Status.PLAYER).exclude(
        alias="Lucky Thimble"
    ).update(checked_in_at=timezone.now())


def test_after_the_start_the_desk_lists_who_is_not_here_one_tap_each(judge_client, db):
    event = make_event(starts=timezone.now() - datetime.timedelta(minutes=5))
    checked_in_but_ada(event)
    page = desk(judge_client, event)
    start = page.index('id="not-here"')
    section = page[start : page.index("</section>", start)]
    assert "Lucky Thimble" in section and "Golden Top Hat" not in section
    no_show = reverse("players:player_no_show", kwargs={"pk": event.pk, "player_pk": ada(event).pk})
    assert f'action="{no_show}"' in section
    # One tap: Ada is a no-show, alternate 1 takes the seat, and the desk offers the undo.
    judge_client.post(no_show, {"next": reverse("players:check_in", kwargs={"pk": event.pk})})
    assert ada(event).status == Player.Status.NO_SHOW
    page = desk(judge_client, event)
    undo = reverse(
        "players:player_no_show_undo", kwargs={"pk": event.pk, "player_pk": ada(event).pk}
    )
    assert "Marked no-show" in page and f'action="{undo}"' in page
    judge_client.post(undo, {})
    assert ada(event).status == Player.Status.PLAYER


def test_before_the_start_or_before_anyone_checked_in_there_is_no_list(judge_client, db):
    # Before the start everyone may still come; at a desk nobody used, it would be everyone.
    soon = make_event(starts=timezone.now() + datetime.timedelta(hours=1))
    checked_in_but_ada(soon)
    assert 'id="not-here"' not in desk(judge_client, soon)
    unused = make_event(starts=timezone.now() - datetime.timedelta(minutes=5))
    assert 'id="not-here"' not in desk(judge_client, unused)


def test_a_no_show_who_walks_in_is_found_at_the_desk_with_the_undo(judge_client, db):
    event = make_event(starts=timezone.now() - datetime.timedelta(minutes=5))
    player = ada(event)
    judge_client.post(
        reverse("players:player_no_show", kwargs={"pk": event.pk, "player_pk": player.pk})
    )
    found = judge_client.get(
        reverse("players:check_in", kwargs={"pk": event.pk}), {"q": "thimble"}
    ).content.decode()
    row = found[found.index(f'id="check-in-{player.pk}"') :]
    assert "No-show" in row and "Undo the no-show: Lucky Thimble is here" in row


def test_the_cockpits_no_show_step_opens_the_desk_at_the_list(db):
    event = make_event(starts=timezone.now() - datetime.timedelta(minutes=5))
    checked_in_but_ada(event)
    stage, action = next_action(event_facts(event=event))
    assert action.url_name == "players:check_in" and action.anchor == "not-here"


def test_the_bracket_planner_counts_an_alternate_here_for_a_player_who_is_not(db):
    # Tournament Kit: "You must have a minimum of 24 players"; 23 seated players are here and
    # alternate 1 is too: the field is 24, not a field asking for a reason to play short.
    from knockout.selectors import knockout_planner
    from tests.builders import an_event, registered_players

    club = an_event(fmt="club", expected_players=24, alternates=3)
    people = registered_players(club, count=26, checked_in=False)
    seated = [p for p in people if p.status == Player.Status.PLAYER]
    alternates = [p for p in people if p.status == Player.Status.ALTERNATE]
    Player.objects.filter(pk__in=[p.pk for p in seated[:23]]).update(checked_in_at=timezone.now())
    assert knockout_planner(event=club).checked_in == 23
    Player.objects.filter(pk=alternates[0].pk).update(checked_in_at=timezone.now())
    planner = knockout_planner(event=club)
    assert planner.checked_in == 24 and not planner.below_minimum
    # A second alternate here takes no seat: nobody else is missing.
    Player.objects.filter(pk=alternates[1].pk).update(checked_in_at=timezone.now())
    assert knockout_planner(event=club).checked_in == 24
