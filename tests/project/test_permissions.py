"""Who may open what: every organizer and judge route against every role.

The routes are read from the URL modules, not listed here, so a page added later is
checked without anyone remembering to add it.
"""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import Group, User
from django.urls import URLPattern, reverse
from django.utils import timezone

from banker import bankruptcy_urls
from banker import urls as banker_urls
from clock import urls as clock_urls
from cockpit import urls as cockpit_urls
from knockout import urls as knockout_urls
from players import registration_urls
from players import urls as organizer_urls
from players.services import Registration, player_register
from seating import urls as seating_urls
from spectator import urls as spectator_urls
from tests.url_names import qualified
from tournament import urls as tournament_urls
from tournament.models import Announcement, Event, JudgeCall, Player, Round, Seat, Table, Wave
from tournament.roles import (
    BANK,
    BANKER,
    HEAD_JUDGE,
    HEAD_JUDGE_PERMISSION,
    JUDGE,
    JUDGE_PERMISSION,
    MANAGE,
    ORGANIZER,
)
from tournament.services import event_create

ANONYMOUS = "anonymous"
ROLES = [ANONYMOUS, BANKER, JUDGE, HEAD_JUDGE, ORGANIZER]
# What each role's permissions let it through; anything else must be refused.
ALLOWED = {
    ANONYMOUS: set(),
    BANKER: {BANK},
    JUDGE: {JUDGE_PERMISSION},
    HEAD_JUDGE: {JUDGE_PERMISSION, HEAD_JUDGE_PERMISSION},
    ORGANIZER: {JUDGE_PERMISSION, HEAD_JUDGE_PERMISSION, MANAGE},
}
# Judges work the check-in desk and may record no-shows and ejections; nothing else.
JUDGE_ROUTES = {
    "check_in",
    "player_check_in",
    "player_undo_check_in",
    "player_no_show",
    "player_eject",
    # Judges move people before a round starts (seating_change).
    "seating_change",
    # A no-show is confirmed first and can be undone.
    "player_no_show_confirm",
    "player_no_show_undo",
    # An ejection's result and its undo (a withdrawal's undo is refused
    # to judges inside the view, with the reason).
    "player_leave_result",
    "player_leave_undo",
    # Championship Rules, JUDGING: a table's "Judge, please" is taken and closed by a judge.
    "judge_call_take",
    "judge_call_close",
    "judge_calls_panel",
}
# Only the head judge (and the organizer) starts a round.
HEAD_JUDGE_ROUTES = {"seating_start"}
# Championship Rules, ALTERNATES: "Use of alternates is at the discretion of the Head Judge":
# the round's start page, the choice on its empty seats, and the official start it calls.
HEAD_JUDGE_ROUTES |= {"seating_vacancies", "seating_vacancies_decide", "seating_call_start"}
# The official clock: the head judge holds the timepiece (Championship Rules, TIME KEEPING).
HEAD_JUDGE_ROUTES |= {
    "clock_control",
    # One wave's card, which the clock page fetches when another official changed it.
    "clock_card",
    *(f"clock_{a}" for a in ("start", "pause", "resume", "adjust", "end")),
}
# Bankers reach their table page and its end-of-game buttons, nothing else.
BANKER_ROUTES = {
    "banker_table",
    "table_last_turn",
    "table_finished",
    "table_reopen",
    # Championship Rules, SPECTATORS: bankrupt players sign as they leave, on the banker's tablet.
    "bankruptcy_record",
    "bankruptcy_undo",
    # Championship Rules, JUDGING: the banker "will raise their arm": "Judge, please" on the tablet.
    "table_judge_please",
    # Championship Rules, BANKERS: "They will also have a copy of the rules".
    "table_rules",
}


# Registration routes that act (POST only); the others are pages.
REGISTRATION_ACTIONS = {"player_import_retry"}


def _protected_registration_patterns(*, actions: bool = False) -> list[URLPattern]:
    return [
        pattern
        for pattern in registration_urls.urlpatterns
        if hasattr(pattern.callback, "required_permission")
        and (pattern.name in REGISTRATION_ACTIONS) == actions
    ]


def _judge_call(pattern: URLPattern) -> bool:
    return pattern.name.startswith("judge_call")


def _table_page(pattern: URLPattern) -> bool:
    return pattern.name in BANKER_ROUTES


def _routes() -> list[tuple[URLPattern, str]]:
    """Every protected route with the method that exercises it (pages GET, actions POST)."""
    return [
        *[(pattern, "GET") for pattern in organizer_urls.page_patterns],
        *[(pattern, "POST") for pattern in organizer_urls.action_patterns],
        *[(pattern, "GET") for pattern in _protected_registration_patterns()],
        *[(pattern, "POST") for pattern in _protected_registration_patterns(actions=True)],
        *[(pattern, "GET") for pattern in seating_urls.page_patterns],
        *[(pattern, "POST") for pattern in seating_urls.action_patterns],
        *[(pattern, "GET") for pattern in knockout_urls.page_patterns],
        *[(pattern, "POST") for pattern in knockout_urls.action_patterns],
        *[(pattern, "GET") for pattern in clock_urls.page_patterns],
        *[(pattern, "POST") for pattern in clock_urls.action_patterns],
        *[(pattern, "GET") for pattern in tournament_urls.page_patterns],
        # The judges' calls (cockpit) and the banker's table page (banker).
        *[(pattern, "GET") for pattern in cockpit_urls.page_patterns if _judge_call(pattern)],
        *[(pattern, "POST") for pattern in cockpit_urls.action_patterns if _judge_call(pattern)],
        *[(pattern, "GET") for pattern in banker_urls.page_patterns if _table_page(pattern)],
        *[(pattern, "POST") for pattern in banker_urls.action_patterns if _table_page(pattern)],
        *[(pattern, "GET") for pattern in bankruptcy_urls.page_patterns],
        *[(pattern, "POST") for pattern in bankruptcy_urls.action_patterns],
        # The organizer's release switches for the public pages (spectator app).
        *[(pattern, "GET") for pattern in spectator_urls.page_patterns],
        *[(pattern, "POST") for pattern in spectator_urls.action_patterns],
    ]


ROUTES = _routes()


def test_every_organizer_route_is_a_page_or_an_action():
    assert organizer_urls.urlpatterns == [
        *registration_urls.urlpatterns,
        *organizer_urls.page_patterns,
        *organizer_urls.action_patterns,
    ]


def test_every_seating_route_is_a_page_or_an_action():
    """The public tables moved to the spectator app (walked by tests/project/test_security.py)."""
    assert seating_urls.urlpatterns == [*seating_urls.page_patterns, *seating_urls.action_patterns]


@pytest.mark.parametrize(
    "pattern",
    [*organizer_urls.page_patterns, *organizer_urls.action_patterns],
    ids=lambda p: p.name,
)
def test_every_organizer_view_carries_a_permission(pattern):
    """The decorators in access.py set ``required_permission``; no view goes without one."""
    assert pattern.callback.required_permission in (MANAGE, JUDGE_PERMISSION)


@pytest.mark.parametrize(
    "pattern",
    [
        *seating_urls.page_patterns,
        *seating_urls.action_patterns,
        *knockout_urls.page_patterns,
        *knockout_urls.action_patterns,
    ],
    ids=lambda p: p.name,
)
def test_every_seating_official_view_carries_a_permission(pattern):
    assert pattern.callback.required_permission in (MANAGE, HEAD_JUDGE_PERMISSION, JUDGE_PERMISSION)


@pytest.mark.parametrize(
    "pattern",
    [p for p in registration_urls.urlpatterns if str(p.pattern).startswith("organizer/")],
    ids=lambda p: p.name,
)
def test_colleagues_organizer_routes_carry_a_permission(pattern):
    assert pattern.callback.required_permission == MANAGE


def test_the_colleagues_organizer_pages_are_in_the_matrix():
    names = {pattern.name for pattern, _method in ROUTES}
    assert {"player_add", "player_import", "player_export"} <= names


def test_judges_reach_exactly_the_desk_routes():
    judge_routes = {
        pattern.name
        for pattern, _method in ROUTES
        if pattern.callback.required_permission == JUDGE_PERMISSION
    }
    assert judge_routes == JUDGE_ROUTES


def test_head_judges_alone_start_rounds():
    head_judge_routes = {
        pattern.name
        for pattern, _method in ROUTES
        if pattern.callback.required_permission == HEAD_JUDGE_PERMISSION
    }
    assert head_judge_routes == HEAD_JUDGE_ROUTES


@pytest.fixture
def setting(db) -> dict[str, object]:
    """An event with one seated player and one alternate to act on, and a round 1 whose
    table 1 seats that player (for the seating routes)."""
    event = event_create(
        name="Matrix Cup",
        organization="Club",
        venue="Hall",
        date=datetime.date(2030, 4, 20),
        start_time=datetime.time(9, 30),
        expected_players=1,
    )
    people = [
        player_register(
            event=event,
            registration=Registration(
                first_name=first,
                last_name="Tester",
                date_of_birth=datetime.date(1990, 1, 1),
                signature=f"{first} Tester",
                eligibility_declared=True,
                citizenship_declared=True,
            ),
            source=Player.Source.ON_THE_DAY,
        )
        for first in ("Sam", "Alex")
    ]
    round_1 = Round.objects.create(event=event, number=1)
    table = Table.objects.create(
        round=round_1, wave=Wave.objects.create(round=round_1, number=1), number=1
    )
    Seat.objects.create(round=round_1, table=table, player=people[0], position=1)
    return {"event": event, "seated": people[0], "alternate": people[1]}


def _url(pattern: URLPattern, setting: dict) -> str:
    kwargs = {}
    converters = pattern.pattern.converters
    if "pk" in converters:
        kwargs["pk"] = setting["event"].pk
    if "player_pk" in converters:
        person = "alternate" if pattern.name == "alternate_move" else "seated"
        kwargs["player_pk"] = setting[person].pk
    if "round_number" in converters:
        kwargs["round_number"] = 1
    if "table_number" in converters:
        kwargs["table_number"] = 1
    kwargs.update(_clock_kwargs(pattern, setting))
    spectator = [*spectator_urls.page_patterns, *spectator_urls.action_patterns]
    name = f"spectator:{pattern.name}" if pattern in spectator else qualified(pattern.name)
    return reverse(name, kwargs=kwargs)


def _clock_kwargs(pattern: URLPattern, setting: dict) -> dict[str, int]:
    """The clock routes act on round 1's wave and table (and an announcement of round 1)."""
    converters = pattern.pattern.converters
    event = setting["event"]
    kwargs = {}
    if "wave_pk" in converters:
        kwargs["wave_pk"] = Wave.objects.get(round__event=event, round__number=1).pk
    if "table_pk" in converters:
        kwargs["table_pk"] = Table.objects.get(round__event=event, round__number=1).pk
    if "call_pk" in converters:
        table = Table.objects.get(round__event=event, round__number=1)
        kwargs["call_pk"] = JudgeCall.objects.create(table=table, called_at=timezone.now()).pk
    if "round_pk" in converters:
        kwargs["round_pk"] = Round.objects.get(event=event, number=1).pk
    if "announcement_pk" in converters:
        round_1 = Round.objects.get(event=event, number=1)
        kwargs["announcement_pk"] = Announcement.objects.create(
            round=round_1, at_remaining_seconds=600, text="Matrix"
        ).pk
    return kwargs


def _client_for(client, role: str):
    """Logged in with ``role``; the banker banks every table (another table's banker is
    tests/project/test_security.py's)."""
    if role != ANONYMOUS:
        user = User.objects.create_user(f"{role.lower().replace(' ', '-')}-user", password="pw")
        user.groups.add(Group.objects.get(name=role))
        if role == BANKER:
            Table.objects.update(banker=user)
        client.force_login(user)
    return client


def _allowed(pattern: URLPattern, role: str) -> bool:
    """A role's permissions, plus: judges and above open any table's banker pages."""
    callback = pattern.callback
    if callback.required_permission in ALLOWED[role]:
        return True
    return getattr(callback, "table_scoped", False) and JUDGE_PERMISSION in ALLOWED[role]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(("pattern", "method"), ROUTES, ids=[p.name for p, _m in ROUTES])
def test_permission_matrix(client, setting, pattern, method, role):
    client = _client_for(client, role)
    url = _url(pattern, setting)
    data = {"reason": "Matrix test"} if pattern.name == "player_withdraw" else {}
    response = client.get(url) if method == "GET" else client.post(url, data)

    if role == ANONYMOUS:
        assert response.status_code == 302
        assert response.url.startswith(reverse("login") + "?next=")
    elif not _allowed(pattern, role):
        assert response.status_code == 403
    elif method == "GET":
        assert response.status_code == 200
    else:
        # Actions redirect back to a page, never to the login page.
        assert response.status_code == 302
        assert not response.url.startswith(reverse("login"))


def test_a_judge_may_record_a_no_show_and_an_ejection(client, setting):
    client = _client_for(client, JUDGE)
    event, seated, alternate = setting["event"], setting["seated"], setting["alternate"]
    # No-shows only from the start; this event started yesterday.
    Event.objects.filter(pk=event.pk).update(date=datetime.date.today() - datetime.timedelta(1))
    response = client.post(
        reverse("players:player_no_show", kwargs={"pk": event.pk, "player_pk": seated.pk})
    )
    # Judges cannot open the player list, so they go back to the check-in desk.
    assert response.url == reverse("players:check_in", kwargs={"pk": event.pk})
    seated.refresh_from_db()
    alternate.refresh_from_db()
    # The rounds are seated: 002, "Use of alternates is at the discretion of the Head
    # Judge", so the alternate waits for the head judge's choice at the round's start.
    assert (seated.status, alternate.status) == (Player.Status.NO_SHOW, Player.Status.ALTERNATE)

    response = client.post(
        reverse("players:player_eject", kwargs={"pk": event.pk, "player_pk": alternate.pk}),
        {"reason": "Abusive to the banker"},
    )
    assert response.status_code == 302
    alternate.refresh_from_db()
    assert alternate.status == Player.Status.EJECTED
    assert alternate.status_changed_by.groups.get().name == JUDGE


def test_a_judge_cannot_withdraw_reorder_or_rename(client, setting):
    client = _client_for(client, JUDGE)
    event, seated = setting["event"], setting["seated"]
    for name, data in [
        ("player_withdraw", {}),
        ("alternate_move", {"direction": "up"}),
        ("player_alias", {"alias": "Renamed"}),
    ]:
        url = reverse(qualified(name), kwargs={"pk": event.pk, "player_pk": seated.pk})
        assert client.post(url, data).status_code == 403
    seated.refresh_from_db()
    assert seated.status == Player.Status.PLAYER and seated.alias != "Renamed"


@pytest.mark.django_db
def test_nav_shows_the_right_links_per_role(client):
    assert 'href="/accounts/login/' in client.get("/").content.decode()
    judge = _client_for(client, JUDGE)
    body = judge.get("/").content.decode()
    assert reverse("cockpit:judges_desk") in body
    assert f'href="{reverse("cockpit:events_home")}"' not in body


def test_event_pages_for_a_missing_event_are_404(client, db):
    client = _client_for(client, ORGANIZER)
    assert client.get(reverse("players:player_list", kwargs={"pk": 999})).status_code == 404
    assert Event.objects.count() == 0


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("role", "landing"),
    [
        ("Organizer", "/organizer/"),
        ("Head judge", "/organizer/judging/"),
        ("Judge", "/organizer/judging/"),
        ("Banker", "/bank/"),
    ],
)
def test_each_role_lands_on_its_own_start_page_after_login(client, role, landing):
    from django.contrib.auth.models import Group, User

    user = User.objects.create_user("someone", password="a long Boardwalk passphrase")
    user.groups.add(Group.objects.get(name=role))
    response = client.post(
        "/accounts/login/", {"username": "someone", "password": "a long Boardwalk passphrase"}
    )
    assert response.status_code == 302
    response = client.get(response["Location"])
    assert response.status_code == 302
    assert response["Location"] == landing


def test_every_clock_route_is_public_a_page_or_an_action():
    assert clock_urls.urlpatterns == [
        *clock_urls.public_patterns,
        *clock_urls.page_patterns,
        *clock_urls.action_patterns,
    ]


@pytest.mark.parametrize(
    "pattern", [*clock_urls.page_patterns, *clock_urls.action_patterns], ids=lambda p: p.name
)
def test_every_clock_official_view_carries_a_permission(pattern):
    assert pattern.callback.required_permission in (MANAGE, HEAD_JUDGE_PERMISSION, BANK)


@pytest.mark.parametrize("pattern", clock_urls.public_patterns, ids=lambda p: p.name)
def test_the_hall_display_and_clock_state_need_no_login(pattern):
    assert not hasattr(pattern.callback, "required_permission")
    assert not str(pattern.pattern).startswith(("organizer/", "bank/"))


def test_every_spectator_route_is_public_or_the_organizers():
    assert spectator_urls.urlpatterns == [
        *spectator_urls.public_patterns,
        *spectator_urls.page_patterns,
        *spectator_urls.action_patterns,
    ]


@pytest.mark.parametrize(
    "pattern",
    [*spectator_urls.page_patterns, *spectator_urls.action_patterns],
    ids=lambda p: p.name,
)
def test_only_organizers_release_public_pages(pattern):
    assert pattern.callback.required_permission == MANAGE


@pytest.mark.parametrize("pattern", spectator_urls.public_patterns, ids=lambda p: p.name)
def test_the_public_pages_need_no_login(pattern):
    assert not hasattr(pattern.callback, "required_permission")
    assert not str(pattern.pattern).startswith(("organizer/", "bank/"))


def test_bankers_reach_exactly_their_table_routes():
    banker_routes = {
        pattern.name for pattern, _method in ROUTES if pattern.callback.required_permission == BANK
    }
    assert banker_routes == BANKER_ROUTES
