"""The rules of tournament/idempotency.py that the pages' own tests do not reach.

From the module's text: only a write (a POST) with a key is kept; a key is bound to the
action, its URL name *and* its arguments; a failed write (an exception or a 5xx answer)
keeps no key, so the tablet may try again; a JSON request answered with a redirect is told
where it leads and what the page would have said.
"""

from __future__ import annotations

import uuid

import pytest
from django.contrib import messages
from django.contrib.auth.models import AnonymousUser
from django.contrib.messages.storage.fallback import FallbackStorage
from django.contrib.sessions.backends.cache import SessionStore
from django.http import HttpResponse, HttpResponseRedirect
from django.test import RequestFactory
from django.urls import reverse

from tests.banker.banker_setup import BANKER, ORGANIZER, user_with
from tests.banker.offline_helpers import playing_table
from tournament.idempotency import idempotent, official_idempotent, replayed
from tournament.models import OfficialWrite, Player, Table, TabletWrite


def a_post(key: uuid.UUID | None = None, method: str = "post"):
    headers = {"Idempotency-Key": str(key)} if key else {}
    request = getattr(RequestFactory(), method)("/", headers=headers)
    request.session = SessionStore()
    request._messages = FallbackStorage(request)
    return request


def answering(*answers: HttpResponse):
    """A banker write that answers ``answers`` in turn, and counts how often it ran."""
    queue = list(answers)

    def table_write(request, table_pk=None):
        table_write.ran += 1
        return queue.pop(0)

    table_write.ran = 0
    return table_write


@pytest.mark.django_db
def test_a_write_answered_with_a_server_error_keeps_no_key_so_the_retry_is_applied():
    """A 500 is the server failing, not an answer: the retry with the same key runs."""
    table = playing_table()
    key = uuid.uuid4()
    view = answering(HttpResponse("down", status=500), HttpResponse("done", status=200))
    wrapped = idempotent(view)
    assert wrapped(a_post(key), table_pk=table.pk).status_code == 500
    assert not TabletWrite.objects.exists()
    retry = wrapped(a_post(key), table_pk=table.pk)
    assert retry.status_code == 200 and not replayed(retry)
    # Now it is kept: the same key again is answered without running the write.
    again = wrapped(a_post(key), table_pk=table.pk)
    assert replayed(again) and again.content == b"done"
    # A page kept is replayed as that page, leading nowhere else.
    assert not again.has_header("Location")
    assert view.ran == 2
    assert TabletWrite.objects.get().status_code == 200


@pytest.mark.django_db
def test_only_a_post_is_kept_a_get_with_a_key_runs_each_time():
    table = playing_table()
    key = uuid.uuid4()
    view = answering(HttpResponse("one"), HttpResponse("two"))
    wrapped = idempotent(view)
    assert wrapped(a_post(key, "get"), table_pk=table.pk).content == b"one"
    assert wrapped(a_post(key, "get"), table_pk=table.pk).content == b"two"
    assert not TabletWrite.objects.exists()


@pytest.mark.django_db
def test_a_write_for_no_table_is_not_kept():
    """The key is the table's: a write naming no table (no ``table_pk``) runs as before."""
    key = uuid.uuid4()
    view = answering(HttpResponse("one"), HttpResponse("two"))
    wrapped = idempotent(view)
    assert wrapped(a_post(key)).content == b"one"
    assert wrapped(a_post(key)).content == b"two"
    assert not TabletWrite.objects.exists()


@pytest.mark.django_db
def test_a_json_request_answered_with_a_redirect_is_told_where_it_leads_and_why(client):
    """The tablet's queue asks for JSON: game over answers where the page would lead and
    what it would say; a refusal (the game is over already) says "refused"."""
    table = playing_table()
    banker = user_with(BANKER, "bea")
    Table.objects.filter(pk=table.pk).update(banker=banker)
    client.force_login(banker)
    url = reverse("banker:table_finished", kwargs={"table_pk": table.pk})
    page = reverse("banker:banker_table", kwargs={"table_pk": table.pk})
    done = client.post(url, headers={"Accept": "application/json"})
    assert done.json() == {
        "status": "done",
        "redirect": page,
        "messages": [f"{table}: game over. Score entry is open for this table."],
    }
    refused = client.post(url, headers={"Accept": "application/json"}).json()
    assert refused["status"] == "refused" and refused["redirect"] == page
    # Without asking for JSON (a form with no JavaScript), the redirect itself.
    plain = client.post(url)
    assert plain.status_code == 302 and plain["Location"] == page


@pytest.mark.django_db
def test_one_key_for_the_same_action_on_another_player_is_a_new_write(
    judge_client, small_event, full_house
):
    """The action is the URL's name and its arguments: checking in Ada, then Grace, under
    one key checks in both, and the second is not Ada's answer replayed."""
    key = str(uuid.uuid4())
    answers = []
    for player in full_house[:2]:
        url = reverse(
            "players:player_check_in", kwargs={"pk": small_event.pk, "player_pk": player.pk}
        )
        answers.append(judge_client.post(url, {"idempotency_key": key}, HTTP_HX_REQUEST="true"))
    assert not any(replayed(answer) for answer in answers)
    checked_in = Player.objects.filter(pk__in=[p.pk for p in full_house[:2]])
    assert all(player.checked_in_at is not None for player in checked_in)


@pytest.mark.django_db
@pytest.mark.parametrize("status", [200, 400, 422])
def test_a_json_request_answered_without_a_redirect_gets_that_answer(status):
    """Only a redirect is turned into JSON; a page or a refusal goes back as it is."""
    table = playing_table()
    wrapped = idempotent(answering(HttpResponse("as it is", status=status)))
    request = a_post()
    request.META["HTTP_ACCEPT"] = "application/json"
    answer = wrapped(request, table_pk=table.pk)
    assert (answer.status_code, answer.content) == (status, b"as it is")


@pytest.mark.django_db
def test_an_officials_write_is_kept_only_for_someone_signed_in(db):
    """The key is the official's: a post from no one signed in runs as before."""
    key = uuid.uuid4()
    wrapped = official_idempotent(answering(HttpResponse("one"), HttpResponse("two")))
    for expected in (b"one", b"two"):
        request = a_post(key)
        request.user = AnonymousUser()
        assert wrapped(request).content == expected
    assert not OfficialWrite.objects.exists()


@pytest.mark.django_db
def test_an_officials_write_reached_by_no_url_name_is_bound_to_its_address(db):
    official = user_with(ORGANIZER, "olive")
    key = uuid.uuid4()
    wrapped = official_idempotent(answering(HttpResponse("a"), HttpResponse("b")))
    for path, expected in (("/first/", b"a"), ("/second/", b"b"), ("/first/", b"a")):
        request = RequestFactory().post(path, {"idempotency_key": str(key)})
        request.user = official
        assert wrapped(request).content == expected
    assert sorted(OfficialWrite.objects.values_list("action", flat=True)) == ["/first/", "/second/"]


@pytest.mark.django_db
def test_a_repeat_says_what_the_first_answer_said_as_it_said_it(
    org_client, small_event, full_house
):
    """The browser dropped the first answer's page: the repeat's page shows its message,
    with the same level (a success is shown as a success, nothing added)."""
    url = reverse(
        "players:player_withdraw", kwargs={"pk": small_event.pk, "player_pk": full_house[2].pk}
    )
    form = {"reason": "Train", "idempotency_key": str(uuid.uuid4())}
    org_client.post(url, form)
    org_client.cookies.pop("messages", None)
    repeat = org_client.post(url, form)
    assert replayed(repeat)
    said = list(org_client.get(repeat["Location"]).context["messages"])
    assert [(m.level_tag, m.tags) for m in said] == [("success", "success")]


def key_committed_just_after_the_first_look(monkeypatch) -> list:
    """The race's moment, staged: the first look for the key finds nothing, as if the other
    request committed it just after; every later look finds it. Returns the looks made."""
    real_filter = TabletWrite.objects.filter
    looks: list = []

    def committed_just_after_the_first_look(**claim):
        looks.append(claim)
        found = real_filter(**claim)
        return found.none() if len(looks) == 1 else found

    monkeypatch.setattr(TabletWrite.objects, "filter", committed_just_after_the_first_look)
    return looks


@pytest.mark.django_db
def test_a_retry_that_finds_its_key_claimed_just_after_looking_gets_the_first_answer(
    monkeypatch,
):
    """Two requests with one key: the first commits between the second's look for the key
    and its claim of it. The second's claim then fails on the unique key, and it gets the
    first one's answer, the write not run again. (On PostgreSQL the real race is
    tests/banker/test_offline_idempotency.py's; SQLite cannot race, so the moment is
    staged: the look misses the record the first request has just committed.)"""
    table = playing_table()
    key = uuid.uuid4()
    TabletWrite.objects.create(
        table=table,
        key=key,
        action="table_write",
        status_code=200,
        content_type="text/plain",
        body=b"the first answer",
    )
    looks = key_committed_just_after_the_first_look(monkeypatch)
    view = answering(HttpResponse("run again"))
    answer = idempotent(view)(a_post(key), table_pk=table.pk)
    assert (answer.status_code, answer.content) == (200, b"the first answer")
    assert replayed(answer) and answer["Content-Type"] == "text/plain"
    assert view.ran == 0 and len(looks) == 2


@pytest.mark.django_db
def test_a_retry_that_loses_the_race_to_a_redirect_says_what_the_first_said(monkeypatch):
    """The first answer was a redirect with a message the tablet may never have shown: the
    retry that lost the race leads to the same page, which says the same."""
    table = playing_table()
    key = uuid.uuid4()
    TabletWrite.objects.create(
        table=table,
        key=key,
        action="table_write",
        status_code=302,
        location="/bank/",
        said=[[messages.SUCCESS, "Game over.", ""]],
    )
    key_committed_just_after_the_first_look(monkeypatch)
    request = a_post(key)
    answer = idempotent(answering(HttpResponse("run again")))(request, table_pk=table.pk)
    assert (answer.status_code, answer["Location"]) == (302, "/bank/")
    assert [str(m) for m in messages.get_messages(request)] == ["Game over."]


@pytest.mark.django_db
def test_a_repeat_says_the_first_twenty_things_the_first_answer_said_tags_and_all(db):
    """A write that said more than a page shows (a long import's warnings) is repeated with
    its first 20 messages; each keeps its extra tags, which the pages style and the tablet
    reads ("error" in a message's tags is a refusal)."""
    official = user_with(ORGANIZER, "olive")
    key = uuid.uuid4()

    def noisy_write(request):
        messages.error(request, "Seat 1 is taken.", extra_tags="ask-judge")
        for n in range(2, 26):
            messages.info(request, f"Note {n}.")
        return HttpResponseRedirect("/seating/")

    wrapped = official_idempotent(noisy_write)
    said = []
    for _ in range(2):
        request = a_post(key)
        request.user = official
        answer = wrapped(request)
        said.append(
            [(m.level, m.message, m.extra_tags) for m in request._messages._queued_messages]
        )
    assert replayed(answer) and answer["Location"] == "/seating/"
    first, repeat = said
    assert len(first) == 25
    assert repeat == [(messages.ERROR, "Seat 1 is taken.", "ask-judge")] + [
        (messages.INFO, f"Note {n}.", "") for n in range(2, 21)
    ]
