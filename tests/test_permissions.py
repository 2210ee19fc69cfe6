"""Who may open what: every organizer and judge route against every role.

The routes are read from the URL modules, not listed here, so a page added later is
checked without anyone remembering to add it.
"""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import Group, User
from django.urls import URLPattern, reverse

from tournament import organizer_urls, registration_urls
from tournament.models import Event, Player
from tournament.roles import BANKER, HEAD_JUDGE, JUDGE, JUDGE_PERMISSION, MANAGE, ORGANIZER
from tournament.services import Registration, event_create, player_register

ANONYMOUS = "anonymous"
ROLES = [ANONYMOUS, BANKER, JUDGE, HEAD_JUDGE, ORGANIZER]
# What each role's permissions let it through; anything else must be refused.
ALLOWED = {
    ANONYMOUS: set(),
    BANKER: set(),
    JUDGE: {JUDGE_PERMISSION},
    HEAD_JUDGE: {JUDGE_PERMISSION},
    ORGANIZER: {JUDGE_PERMISSION, MANAGE},
}
# Judges work the check-in desk and may record no-shows and ejections; nothing else.
JUDGE_ROUTES = {
    "judge_dashboard",
    "check_in",
    "player_check_in",
    "player_undo_check_in",
    "player_no_show",
    "player_eject",
}


def _protected_registration_patterns() -> list[URLPattern]:
    return [
        pattern
        for pattern in registration_urls.urlpatterns
        if hasattr(pattern.callback, "required_permission")
    ]


def _routes() -> list[tuple[URLPattern, str]]:
    """Every protected route with the method that exercises it (pages GET, actions POST)."""
    return [
        *[(pattern, "GET") for pattern in organizer_urls.page_patterns],
        *[(pattern, "POST") for pattern in organizer_urls.action_patterns],
        *[(pattern, "GET") for pattern in _protected_registration_patterns()],
    ]


ROUTES = _routes()


def test_every_organizer_route_is_a_page_or_an_action():
    assert organizer_urls.urlpatterns == [
        *organizer_urls.page_patterns,
        *organizer_urls.action_patterns,
    ]


@pytest.mark.parametrize("pattern", organizer_urls.urlpatterns, ids=lambda p: p.name)
def test_every_organizer_view_carries_a_permission(pattern):
    """The decorators in access.py set ``required_permission``; no view goes without one."""
    assert pattern.callback.required_permission in (MANAGE, JUDGE_PERMISSION)


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


@pytest.fixture
def setting(db) -> dict[str, object]:
    """An event with one seated player and one alternate to act on."""
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
    return {"event": event, "seated": people[0], "alternate": people[1]}


def _url(pattern: URLPattern, setting: dict) -> str:
    kwargs = {}
    converters = pattern.pattern.converters
    if "pk" in converters:
        kwargs["pk"] = setting["event"].pk
    if "player_pk" in converters:
        person = "alternate" if pattern.name == "alternate_move" else "seated"
        kwargs["player_pk"] = setting[person].pk
    return reverse(f"tournament:{pattern.name}", kwargs=kwargs)


def _client_for(client, role: str):
    if role != ANONYMOUS:
        user = User.objects.create_user(f"{role.lower().replace(' ', '-')}-user", password="pw")
        user.groups.add(Group.objects.get(name=role))
        client.force_login(user)
    return client


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
    elif pattern.callback.required_permission not in ALLOWED[role]:
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
    response = client.post(
        reverse("tournament:player_no_show", kwargs={"pk": event.pk, "player_pk": seated.pk})
    )
    # Judges cannot open the player list, so they go back to the check-in desk.
    assert response.url == reverse("tournament:check_in", kwargs={"pk": event.pk})
    seated.refresh_from_db()
    alternate.refresh_from_db()
    assert (seated.status, alternate.status) == (Player.Status.NO_SHOW, Player.Status.PLAYER)

    response = client.post(
        reverse("tournament:player_eject", kwargs={"pk": event.pk, "player_pk": alternate.pk}),
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
        url = reverse(f"tournament:{name}", kwargs={"pk": event.pk, "player_pk": seated.pk})
        assert client.post(url, data).status_code == 403
    seated.refresh_from_db()
    assert seated.status == Player.Status.PLAYER and seated.alias != "Renamed"


@pytest.mark.django_db
def test_nav_shows_the_right_links_per_role(client):
    assert 'href="/accounts/login/' in client.get("/").content.decode()
    judge = _client_for(client, JUDGE)
    body = judge.get("/").content.decode()
    assert reverse("tournament:judge_dashboard") in body
    assert f'href="{reverse("tournament:organizer_dashboard")}"' not in body


def test_event_pages_for_a_missing_event_are_404(client, db):
    client = _client_for(client, ORGANIZER)
    assert client.get(reverse("tournament:player_list", kwargs={"pk": 999})).status_code == 404
    assert Event.objects.count() == 0


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("role", "landing"),
    [
        ("Organizer", "/organizer/"),
        ("Head judge", "/organizer/judging/"),
        ("Judge", "/organizer/judging/"),
        ("Banker", "/"),
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
