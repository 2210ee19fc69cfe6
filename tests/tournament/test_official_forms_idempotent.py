"""Every officials' form that changes shared state is applied once, under its page's key.

The actions are read from the URL modules (the ``action_patterns`` the permission tests
walk, and the pages whose own form posts back), and the forms from the templates, so a
route or a form added later is held to the same rule. A double tap, or a page sent again,
carries the key its page drew (``{% idempotency_key %}``); the second post is answered with
the first one's answer (the same redirect, saying the same) and applies nothing.
"""

from __future__ import annotations

import re
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import URLPattern, reverse

from clock import urls as clock_urls
from cockpit import urls as cockpit_urls
from knockout import urls as knockout_urls
from knockout.services import bracket_confirm
from players import urls as players_urls
from scoring import results_urls
from scoring.models import RoundPosting
from seating import urls as seating_urls
from seating.services import preseat_event
from tests.builders import event_with_players
from tests.scoring.results_pages import login as results_login
from tests.scoring.results_pages import players, round1  # noqa: F401 (fixtures)
from tournament.idempotency import replayed
from tournament.models import OfficialWrite, Player, Round, Table
from tournament.roles import HEAD_JUDGE

# Pages that answer GET and whose own form posts back to them (a form with errors, a
# question asked first): their POST changes shared state too.
SELF_POSTING_PAGES = {
    "player_alias",
    "player_eject",
    "waiting_promote",
    "seating_change",
    "results_correct",
}
APPS = {
    "players": players_urls,
    "seating": seating_urls,
    "knockout": knockout_urls,
    "clock": clock_urls,
    "scoring": results_urls,
    "cockpit": cockpit_urls,
}


def official_actions() -> dict[str, URLPattern]:
    """``namespace:name`` of every officials' write, from the URL modules."""
    found = {}
    for namespace, module in APPS.items():
        for pattern in module.action_patterns:
            found[f"{namespace}:{pattern.name}"] = pattern
        for pattern in module.page_patterns:
            if pattern.name in SELF_POSTING_PAGES:
                found[f"{namespace}:{pattern.name}"] = pattern
    return found


ACTIONS = official_actions()


def test_the_list_holds_the_writes_the_rules_name():
    """The list is read from the URL modules; these are the writes issue-by-issue named."""
    names = {name.split(":")[1] for name in ACTIONS}
    assert {
        "alternate_move",
        "alternate_fill_seat",
        "player_no_show",
        "player_withdraw",
        "player_eject",
        "player_leave_undo",
        "player_check_in",
        "player_undo_check_in",
        "waiting_promote",
        "waiting_return",
        "seating_preseat",
        "seating_publish",
        "seating_start",
        "seating_redraw",
        "seating_fill_vacancies",
        "seating_reseat_undo",
        "seating_change",
        "seating_banker",
        "seating_table_language",
        "seating_record_rolls",
        "knockout_confirm",
        "knockout_seat",
        "knockout_override",
        "final_seat",
        "results_post",
        "results_unpost",
        "results_approve",
        "results_tie",
        "standings_tie",
        "standings_tie_breakers",
        "clock_adjust",
        "judge_call_take",
    } <= names


@pytest.mark.parametrize("name", sorted(ACTIONS))
def test_every_officials_write_is_applied_once_per_key(name):
    """``official_idempotent`` marks the view; the access check and require_POST keep the
    mark (functools.wraps), so it is read from the view the URL calls."""
    mark = getattr(ACTIONS[name].callback, "idempotent", False)
    assert mark == "official", f"{name} is not applied once per official's key"


# --- The forms --------------------------------------------------------------------------

FORM = re.compile(r"<form\b(?P<tag>[^>]*)>(?P<body>.*?)</form>", re.S | re.I)
URL_NAME = re.compile(r"""(?:action|hx-post)="\{% url '([\w:]+)'""")
# Officials' pages whose forms post to an address given by the view ({{ post_url }}).
OFFICIAL_TEMPLATES = (
    "players/",
    "seating/",
    "cockpit/judge_calls/",
    "clock/control.html",
    "clock/_clock_card_body.html",
    "scoring/results/",
)
# The event's settings (tournament app) are a page of their own, not a shared-state tap.
NOT_AN_ACTION = ("tournament/event_form.html",)


def template_forms() -> list[tuple[str, str, str]]:
    """(template, form tag, form body) of every form posting in the project's templates."""
    root = Path(settings.BASE_DIR) / "templates"
    found = []
    for path in sorted(root.rglob("*.html")):
        text = path.read_text()
        for match in FORM.finditer(text):
            if 'method="post"' in match["tag"].lower():
                found.append((str(path.relative_to(root)), match["tag"], match["body"]))
    return found


def _posts_to_an_official_action(template: str, tag: str) -> bool:
    named = URL_NAME.search(tag)
    if named:
        return named[1] in ACTIONS
    return template.startswith(OFFICIAL_TEMPLATES) and template not in NOT_AN_ACTION


FORMS = [f for f in template_forms() if _posts_to_an_official_action(f[0], f[1])]


def test_the_forms_are_found():
    # The seating page's, the player list's and the results' forms at least.
    templates = {template for template, _tag, _body in FORMS}
    assert {
        "seating/seating.html",
        "players/player_list.html",
        "scoring/results/round.html",
        "knockout/_bracket.html",
    } <= templates
    assert len(FORMS) >= 50


@pytest.mark.parametrize(
    "template,tag,body", FORMS, ids=[f"{t}:{i}" for i, (t, _a, _b) in enumerate(FORMS)]
)
def test_every_officials_form_carries_a_key(template, tag, body):
    assert "{% idempotency_key %}" in body, f"a form in {template} has no key: {tag.strip()}"


KEY = re.compile(r'name="idempotency_key" value="([0-9a-f-]{36})"')
# Forms on an official's page that are not a shared-state write of the event.
NOT_OFFICIAL_WRITES = ("/accounts/logout/", "/i18n/", "/language/", "/public/")


def _unkeyed_forms(html: str) -> list[str]:
    unkeyed = []
    for match in FORM.finditer(html):
        tag = match["tag"]
        action = re.search(r'action="([^"]*)"', tag)
        if 'method="post"' not in tag.lower() or (
            action and any(part in action[1] for part in NOT_OFFICIAL_WRITES)
        ):
            continue
        if not KEY.search(match["body"]):
            unkeyed.append(tag.strip())
    return unkeyed


@pytest.mark.django_db
def test_the_rendered_pages_give_every_form_a_fresh_key(org_client):
    event = event_with_players(
        players=8, extra_players=2, alternates=2, table_size_min=4, preliminary_rounds=1
    )
    preseat_event(event=event, only_checked_in=False, time_limit=1.0)
    pages = [
        reverse("players:player_list", kwargs={"pk": event.pk}),
        reverse("players:check_in", kwargs={"pk": event.pk}),
        reverse("seating:seating", kwargs={"pk": event.pk}),
        reverse("seating:seating_change", kwargs={"pk": event.pk, "round_number": 1}),
        reverse("scoring:results_round", kwargs={"pk": event.pk, "round_number": 1}),
        reverse("scoring:standings", kwargs={"pk": event.pk}),
        reverse("clock:clock_control", kwargs={"pk": event.pk}),
    ]
    keys = []
    for page in pages:
        html = org_client.get(page).content.decode()
        assert _unkeyed_forms(html) == [], page
        keys += KEY.findall(html)
    # The player list's alternates (up, down), the seating page's tables and more.
    assert len(keys) >= 20
    assert len(set(keys)) == len(keys)


# --- A double tap: the first answer, twice ------------------------------------------------


def _messages(client, response) -> list[str]:
    """What the page a redirect leads to says."""
    page = client.get(response["Location"])
    return [str(m) for m in page.context["messages"]]


@pytest.mark.django_db
def test_a_withdrawal_sent_twice_with_one_key_withdraws_once(org_client, small_event, full_house):
    grace = full_house[2]
    url = reverse("players:player_withdraw", kwargs={"pk": small_event.pk, "player_pk": grace.pk})
    form = {"reason": "Train", "idempotency_key": str(uuid.uuid4())}
    first = org_client.post(url, form)
    # The browser drops the first answer for the repeat's, its messages cookie with it.
    assert org_client.cookies.pop("messages", None) is not None
    second = org_client.post(url, form)
    assert (first.status_code, second.status_code) == (302, 302)
    assert not replayed(first) and replayed(second)
    assert second["Location"] == first["Location"]
    # The first answer's page was never read (the browser dropped it for the repeat's):
    # the repeat leads there saying what the first did, not "already withdrawn".
    said = _messages(org_client, second)
    assert len(said) == 1 and "Swift Boot" in said[0]
    assert "already" not in said[0]
    # Barbara and Edsger closed up behind her: 002 ALTERNATES, a list with no gaps.
    assert list(
        Player.objects.filter(event=small_event, alternate_position__isnull=False)
        .order_by("alternate_position")
        .values_list("first_name", "alternate_position")
    ) == [("Edsger", 1), ("Barbara", 2)]
    assert OfficialWrite.objects.count() == 1


@pytest.mark.django_db
def test_a_withdrawal_sent_again_without_a_key_still_says_already_done(
    org_client, small_event, full_house
):
    grace = full_house[2]
    url = reverse("players:player_withdraw", kwargs={"pk": small_event.pk, "player_pk": grace.pk})
    org_client.post(url, {"reason": "Train", "idempotency_key": str(uuid.uuid4())})
    # A new key (the page drawn again) is a new write: the service's refusal answers it.
    again = org_client.post(url, {"reason": "Train", "idempotency_key": str(uuid.uuid4())})
    assert not replayed(again)
    assert "Swift Boot has already withdrawn" in " ".join(_messages(org_client, again))


@pytest.mark.django_db
def test_a_round_posted_twice_with_one_key_is_posted_once(client, event, round1):  # noqa: F811
    client = results_login(client, HEAD_JUDGE)
    url = reverse("scoring:results_post", kwargs={"pk": event.pk, "round_number": 1})
    form = {"idempotency_key": str(uuid.uuid4())}
    first = client.post(url, form)
    second = client.post(url, form)
    assert first.status_code == second.status_code == 302
    assert replayed(second) and second["Location"] == first["Location"]
    assert "Round 1 is posted" in " ".join(_messages(client, second))
    assert RoundPosting.objects.filter(round=round1).count() == 1


@pytest.mark.django_db
def test_seat_round_1_sent_twice_with_one_key_seats_once(org_client):
    knockout = event_with_players(players=26, fmt="club", name="Charity Night")
    bracket_confirm(event=knockout, method="table_winners", by=None)
    url = reverse("knockout:knockout_seat", kwargs={"pk": knockout.pk})
    form = {"idempotency_key": str(uuid.uuid4())}
    first = org_client.post(url, form)
    tables = sorted(Table.objects.filter(round__event=knockout).values_list("pk", flat=True))
    second = org_client.post(url, form)
    assert first.status_code == second.status_code == 302
    assert replayed(second) and second["Location"] == first["Location"]
    # 26 players: 4+4+4+4+5+5 (the kit's plan, tests/knockout/test_knockout_pages.py).
    # The first answer's message still waits (its cookie was kept): said once, not twice.
    assert _messages(org_client, second) == [
        "Round 1 is seated at 6 tables. Next: publish it, then start it."
    ]
    assert sorted(Table.objects.filter(round__event=knockout).values_list("pk", flat=True)) == (
        tables
    )
    assert Round.objects.filter(event=knockout).count() >= 1


@pytest.mark.django_db
def test_a_check_in_tapped_twice_over_htmx_gets_the_same_row(judge_client, small_event, full_house):
    ada = full_house[0]
    url = reverse("players:player_check_in", kwargs={"pk": small_event.pk, "player_pk": ada.pk})
    form = {"idempotency_key": str(uuid.uuid4())}
    first = judge_client.post(url, form, HTTP_HX_REQUEST="true")
    second = judge_client.post(url, form, HTTP_HX_REQUEST="true")
    assert first.status_code == second.status_code == 200
    assert replayed(second) and second.content == first.content
    assert Player.objects.get(pk=ada.pk).checked_in_at is not None
