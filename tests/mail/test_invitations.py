"""Finals invitations by email, answered by a personal link, against a real SMTP server.

Issue: "each qualifier (a junior's guardian too) receives a personal link to accept or
decline (a signed, single-use token that expires at the Finals' confirmation deadline the
organizer sets). The answer is recorded on the series page with its time; a decline passes
the place on at once and invites the next player; the organizer can resend, and sees who
has not answered. A reminder goes out a set number of days before the deadline."

North's twelve players sit at three tables (tests/series/series_helpers.py): I, E and A win
theirs and B beats F and J on cash for fourth, so I, E, A and B qualify and F is next.
"""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import Group, User
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from series import services
from series.models import Entrant, Invitation, Series
from tests.mail_server import smtp_server
from tests.series.series_helpers import enter, play_round, regional, three_tables
from tournament.roles import ORGANIZER

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def inbox():
    with smtp_server() as received:
        yield received


def _series(name: str, *, due: datetime.timedelta | None = datetime.timedelta(days=10)):
    finals = regional(f"{name} Finals", day=28)
    series = services.series_create(name=name, season="2030", finals=finals)
    if due is not None:
        Series.objects.filter(pk=series.pk).update(answers_due=timezone.now() + due)
        series.refresh_from_db()
    north = regional(f"{name} North", day=10)
    services.series_add_event(series=series, event=north)
    return series, north


@pytest.fixture
def north(inbox):
    series, event = _series("UK Championship")
    players = enter(event, "ABCDEFGHIJKL")
    play_round(event, three_tables(players))
    return series, players


def link_of(inbox, player) -> str:
    [mail] = inbox.to(player.email)[-1:]
    [link] = mail.links("/answer/")
    return link.removeprefix("http://testserver")


def entrant(player) -> Entrant:
    return Entrant.objects.get(player=player)


def test_each_qualifier_is_emailed_a_link_of_their_own(north, inbox):
    series, p = north
    assert sorted(r for m in inbox.received for r in m.envelope_to) == sorted(
        p[k].email for k in "IEAB"
    )
    [mail] = inbox.to(p["I"].email)
    assert mail.subject == "Your place in the UK Championship Finals"
    assert "You qualified at UK Championship North (rank 1) for the Finals." in mail.text
    assert "UK Championship Finals is on April 28, 2030 at Hall." in mail.text
    links = {link_of(inbox, p[k]) for k in "IEAB"}
    assert len(links) == 4
    assert all(link.startswith(f"/series/{series.pk}/answer/") for link in links)
    assert link_of(inbox, p["I"]) in mail.html
    assert Invitation.objects.filter(sent_at__isnull=False).count() == 4


def test_opening_the_link_changes_nothing_and_accepting_is_recorded_with_its_time(
    north, inbox, client
):
    _series_, p = north
    link = link_of(inbox, p["I"])
    page = client.get(link)
    assert page.status_code == 200 and "Accept my place" in page.content.decode()
    assert page["Cache-Control"].startswith("max-age=0") or "no-cache" in page["Cache-Control"]
    assert entrant(p["I"]).response == "pending"
    before = timezone.now()
    assert client.post(link, {"answer": "accept"}).status_code == 302
    row = entrant(p["I"])
    assert row.response == "accepted" and before <= row.answered_at <= timezone.now()
    assert row.invitation.used_at == row.answered_at
    assert "you accepted your place" in client.get(link).content.decode()


def test_a_decline_passes_the_place_on_and_invites_the_next_player(north, inbox, client):
    _series_, p = north
    link = link_of(inbox, p["B"])
    # Without ticking "I give up my place" nothing happens.
    page = client.post(link, {"answer": "decline"})
    assert "Tick the box" in page.content.decode()
    assert entrant(p["B"]).status == "qualifier" and inbox.to(p["F"].email) == []
    client.post(link, {"answer": "decline", "sure": "yes"})
    assert entrant(p["B"]).status == "declined"
    assert entrant(p["F"]).status == "qualifier"
    [mail] = inbox.to(p["F"].email)
    assert "rank 5" in mail.text and client.get(link_of(inbox, p["F"])).status_code == 200


def test_a_link_works_once(north, inbox, client):
    _series_, p = north
    link = link_of(inbox, p["A"])
    client.post(link, {"answer": "accept"})
    again = client.post(link, {"answer": "decline", "sure": "yes"})
    assert "Nothing was changed." in again.content.decode()
    assert entrant(p["A"]).response == "accepted" and entrant(p["A"]).status == "qualifier"
    assert "This link has been used" in client.get(link).content.decode()


def test_a_link_stops_at_the_deadline(north, inbox, client):
    series, p = north
    link = link_of(inbox, p["E"])
    Series.objects.filter(pk=series.pk).update(answers_due=timezone.now())
    page = client.post(link, {"answer": "accept"})
    assert "The time to answer ended" in page.content.decode()
    assert entrant(p["E"]).response == "pending"


def test_a_link_of_another_series_does_nothing_there(north, inbox, client):
    series, p = north
    other, _event = _series("Other Championship")
    token = link_of(inbox, p["E"]).rstrip("/").rsplit("/", 1)[1]
    url = reverse("series:answer", kwargs={"series_pk": other.pk, "token": token})
    assert "belongs to another series" in client.get(url).content.decode()
    page = client.post(url, {"answer": "decline", "sure": "yes"})
    assert "belongs to another series" in page.content.decode()
    assert p["E"].alias not in page.content.decode()
    assert entrant(p["E"]).response == "pending"


def test_a_made_up_or_altered_link_is_refused(north, inbox, client):
    _series_, p = north
    link = link_of(inbox, p["E"])
    altered = link[:-3] + ("x" if link[-3] != "x" else "y") + link[-2:]
    refused = "This link is not one we sent"
    assert refused in client.post(altered, {"answer": "accept"}).content.decode()
    assert refused in client.get(link.replace("/answer/", "/answer/1")).content.decode()
    assert entrant(p["E"]).response == "pending"


@pytest.fixture
def organizer(client):
    user = User.objects.create_user("olive", password="pw")
    user.groups.add(Group.objects.get(name=ORGANIZER))
    client.force_login(user)
    return client


def test_invitations_wait_for_the_deadline_and_the_page_shows_who_has_not_answered(
    inbox, organizer
):
    series, event = _series("Late Series", due=None)
    p = enter(event, "ABCDEFGHIJKL")
    play_round(event, three_tables(p))
    assert len(inbox) == 0
    detail = reverse("series:detail", kwargs={"series_pk": series.pk})
    page = organizer.get(detail).content.decode()
    assert "Set the date by which qualifiers answer" in page
    assert "4 have not answered yet" in page
    due = timezone.localtime() + datetime.timedelta(days=7)
    organizer.post(
        reverse("series:deadline", kwargs={"series_pk": series.pk}),
        {"answers_due": due.strftime("%Y-%m-%dT%H:%M"), "reminder_days": "2"},
    )
    assert len(inbox) == 4
    series.refresh_from_db()
    assert series.reminder_days == 2
    link = link_of(inbox, p["I"])
    organizer.post(link, {"answer": "accept"})
    page = organizer.get(detail).content.decode()
    assert "3 have not answered yet" in page and "by their link" in page


def test_the_organizer_sends_the_same_link_again(north, inbox, organizer):
    series, p = north
    first = link_of(inbox, p["E"])
    organizer.post(
        reverse("series:resend", kwargs={"series_pk": series.pk, "entrant_pk": entrant(p["E"]).pk})
    )
    assert len(inbox.to(p["E"].email)) == 2 and link_of(inbox, p["E"]) == first


def test_a_reminder_goes_once_to_those_who_have_not_answered(north, inbox, client):
    series, p = north
    client.post(link_of(inbox, p["I"]), {"answer": "accept"})
    Series.objects.filter(pk=series.pk).update(
        answers_due=timezone.now() + datetime.timedelta(days=2), reminder_days=3
    )
    call_command("send_reminders")
    assert len(inbox) == 4  # invited after the reminder time: no reminder yet
    # The invitations went out five days ago.
    Invitation.objects.update(first_sent_at=timezone.now() - datetime.timedelta(days=5))
    call_command("send_reminders")
    reminders = [m for m in inbox.received if m.subject.startswith("Reminder")]
    assert sorted(r for m in reminders for r in m.envelope_to) == sorted(p[k].email for k in "EAB")
    assert "We have not had your answer yet." in reminders[0].text
    assert reminders[0].links("/answer/") == inbox.to(reminders[0].envelope_to[0])[0].links(
        "/answer/"
    )
    call_command("send_reminders")
    assert len(inbox) == 7


def test_the_reminder_is_queued_for_its_day(inbox, organizer, settings):
    from django_tasks_db.models import DBTaskResult

    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    series, _event = _series("Queued Series", due=None)
    due = (timezone.localtime() + datetime.timedelta(days=7)).replace(second=0, microsecond=0)
    organizer.post(
        reverse("series:deadline", kwargs={"series_pk": series.pk}),
        {"answers_due": due.strftime("%Y-%m-%dT%H:%M"), "reminder_days": "3"},
    )
    [task] = DBTaskResult.objects.filter(task_path="series.invitation_mail.reminders_task")
    assert task.run_after == due - datetime.timedelta(days=3)


def test_a_junior_guardian_gets_the_invitation_too(inbox):
    series, _event = _series("Junior Series")
    juniors = regional("Junior North", day=11, fmt="junior")
    services.series_add_event(series=series, event=juniors)
    p = enter(juniors, "ABCD")
    for player in p.values():
        player.guardian_email = f"parent-{player.email}"
        player.save()
    play_round(juniors, [{p["A"]: 4000, p["B"]: 3000, p["C"]: 2000, p["D"]: 1000}])
    [mail] = inbox.received
    assert sorted(mail.envelope_to) == sorted([p["A"].email, f"parent-{p['A'].email}"])
    assert "Junior finals" in mail.subject and "parent or guardian" in mail.text


def test_an_invited_entrant_is_emailed_at_the_address_typed(north, inbox):
    series, _p = north
    services.entrant_invite(
        series=series,
        division="senior",
        first_name="Last",
        last_name="Champion",
        email="champ@example.org",
        date_of_birth=datetime.date(1980, 1, 1),
        alias="Old Champ",
        reason="Last season's champion",
        by=None,
    )
    [mail] = inbox.to("champ@example.org")
    assert "You are invited to the Finals: Last season's champion" in mail.text
