"""Registration confirmations, received by a real SMTP server on this machine.

Issue: "Registration confirmation to the player (and the guardian for a junior): the event,
date and place, the player's alias, the public page to follow them, what to bring and when
to arrive, and how to withdraw. Sent for self-registration, on-the-day entry with an email,
and CSV imports (a choice on the import: send or not)." Plain text with an HTML alternative,
from DEFAULT_FROM_EMAIL, in the player's language; nothing sent without a mail server.
"""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import Group, User
from django.urls import reverse

from mail.models import Message
from players.services import Registration, player_register
from tests.mail_server import smtp_server
from tests.url_names import qualified
from tournament.models import Player
from tournament.roles import ORGANIZER
from tournament.services import event_update

pytestmark = pytest.mark.django_db(transaction=True)

FORM = {
    "first_name": "Ada",
    "last_name": "Lovelace",
    "email": "ada@example.org",
    "date_of_birth": "1990-05-01",
    "eligibility_declared": "on",
    "citizenship_declared": "on",
    "signature": "Ada Lovelace",
}


@pytest.fixture
def inbox():
    with smtp_server(site_url="https://boardwalk.example.org") as received:
        yield received


@pytest.fixture
def hosted(event):
    """The conftest's event (20 April 2030, 9:30, Library Annex) with a contact to answer."""
    return event_update(
        event=event,
        contact_name="Rita Director",
        contact_email="rita@example.org",
        address="1 Main Street",
        city="Atlantic City",
    )


@pytest.fixture
def organizer(client):
    user = User.objects.create_user("olive", password="pw")
    user.groups.add(Group.objects.get(name=ORGANIZER))
    client.force_login(user)
    return client


def test_self_registration_is_confirmed_in_the_language_it_was_made_in(client, hosted, inbox):
    response = client.post(
        reverse("players:register", kwargs={"pk": hosted.pk}),
        FORM,
        HTTP_ACCEPT_LANGUAGE="fr",
    )
    assert response.status_code == 302
    player = Player.objects.get(email="ada@example.org")
    [mail] = inbox.to("ada@example.org")
    assert mail.message["From"] == "Boardwalk <boardwalk@example.org>"
    assert mail.message["Reply-To"] == "rita@example.org"  # answering reaches the organizer
    assert mail.message["Content-Language"] == "fr"
    assert "Spring Championship" in mail.subject
    text = mail.text
    assert player.alias in text
    # The date and times as a French reader writes them: 9:30 start, 45 minutes earlier.
    assert "20 avril 2030" in text and "09:30" in text and "08:45" in text
    assert "Library Annex, 1 Main Street, Atlantic City" in text
    assert "rita@example.org" not in text and "Rita Director" in text  # answer to withdraw
    follow = mail.links("/follow/")
    assert follow == [
        f"https://boardwalk.example.org/events/{hosted.pk}/follow/?alias="
        + player.alias.replace(" ", "+")
    ]
    assert '<html lang="fr">' in mail.html and player.alias in mail.html
    assert client.get(follow[0].removeprefix("https://boardwalk.example.org")).status_code == 200
    # Sent, so its text is gone from the database (no body kept once delivered).
    stored = Message.objects.get()
    assert (stored.status, stored.attempts, stored.text, stored.html) == ("sent", 1, "", "")


def test_a_junior_guardian_gets_the_same_email(client, hosted, inbox):
    event_update(event=hosted, minimum_age=8)
    form = {
        **FORM,
        "date_of_birth": "2019-01-01",  # 11 on the day: under the guardian-consent age of 16
        "guardian_name": "Grace Lovelace",
        "guardian_email": "grace@example.org",
        "guardian_consent": "on",
    }
    client.post(reverse("players:register", kwargs={"pk": hosted.pk}), form)
    [mail] = inbox.to("ada@example.org")
    assert sorted(mail.envelope_to) == ["ada@example.org", "grace@example.org"]
    assert "Grace Lovelace" in mail.text and "parent or guardian" in mail.text


def test_an_adult_with_an_old_guardian_address_is_written_to_alone(hosted, inbox):
    player_register(
        event=hosted,
        registration=Registration(
            first_name="Bo",
            last_name="Adult",
            email="bo@example.org",
            guardian_email="parent@example.org",
            date_of_birth=datetime.date(1980, 1, 1),
            signature="Bo Adult",
            eligibility_declared=True,
            citizenship_declared=True,
        ),
    )
    assert [m.envelope_to for m in inbox.received] == [["bo@example.org"]]


def test_on_the_day_entry_is_confirmed_in_the_events_language(organizer, hosted, inbox):
    event_update(event=hosted, language="de", players_note="Bring your own dice cup.")
    response = organizer.post(
        reverse("players:player_add", kwargs={"pk": hosted.pk}),
        {**FORM, "email": "door@example.org"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 302
    [mail] = inbox.received
    assert mail.message["Content-Language"] == "de"
    assert "20. April 2030" in mail.text  # the German date, not the organizer's English
    assert "Bring your own dice cup." in mail.text  # the event's own words on what to bring


def test_an_alternate_is_told_their_number(hosted, inbox):
    event_update(event=hosted, expected_players=1)
    for name in ("One", "Two"):
        player_register(
            event=hosted,
            registration=Registration(
                first_name=name,
                last_name="Player",
                email=f"{name.lower()}@example.org",
                date_of_birth=datetime.date(1980, 1, 1),
                signature=name,
                eligibility_declared=True,
                citizenship_declared=True,
            ),
        )
    [second] = inbox.to("two@example.org")
    assert "alternate number 1" in second.text
    first = inbox.to("one@example.org")[0].text
    assert "You have a place." in first and "alternate number" not in first


CSV = (
    "first_name,last_name,email,date_of_birth,eligibility_declared,citizenship_declared\n"
    "Cy,One,cy@example.org,1980-01-01,yes,yes\n"
    "Di,Two,di@example.org,1981-01-01,yes,yes\n"
    "Ed,Three,,1982-01-01,yes,yes\n"
)


@pytest.mark.parametrize("send", [True, False])
def test_an_import_confirms_each_new_player_unless_told_not_to(organizer, hosted, inbox, send):
    form = {"text": CSV, **({"send_confirmations": "on"} if send else {})}
    response = organizer.post(reverse("players:player_import", kwargs={"pk": hosted.pk}), form)
    assert "3 imported" in response.content.decode()
    expected = [["cy@example.org"], ["di@example.org"]] if send else []  # Ed gave no address
    assert sorted(m.envelope_to for m in inbox.received) == expected


def test_a_second_import_into_a_filled_event_confirms_the_new_lines_only(organizer, hosted, inbox):
    url = reverse("players:player_import", kwargs={"pk": hosted.pk})
    organizer.post(url, {"text": CSV, "send_confirmations": "on"})
    more = CSV + "Fay,Four,fay@example.org,1983-01-01,yes,yes\n"
    organizer.post(url, {"text": more, "send_confirmations": "on"})
    assert sorted(r for m in inbox.received for r in m.envelope_to) == [
        "cy@example.org",
        "di@example.org",
        "fay@example.org",
    ]


def test_a_busy_server_is_tried_again_and_a_refusal_is_final(hosted, inbox):
    def register(email):
        return player_register(
            event=hosted,
            registration=Registration(
                first_name=email[:3],
                last_name="Retry",
                email=email,
                date_of_birth=datetime.date(1980, 1, 1),
                signature="x",
                eligibility_declared=True,
                citizenship_declared=True,
            ),
        )

    inbox.refuse_next(2)  # 451: try again later, twice
    register("busy@example.org")
    assert len(inbox.to("busy@example.org")) == 1
    assert Message.objects.get(to=["busy@example.org"]).attempts == 3

    inbox.refuse_next(1, reply="550 5.1.1 No such mailbox")
    register("gone@example.org")
    assert inbox.to("gone@example.org") == []
    refused = Message.objects.get(to=["gone@example.org"])
    assert (refused.status, refused.attempts) == ("failed", 1) and "550" in refused.error


def test_an_unreachable_server_is_given_up_after_five_tries(hosted, settings):
    from mail.sending import MAX_ATTEMPTS

    with smtp_server() as inbox:
        port = settings.EMAIL_PORT
    # The server is gone: nothing listens on its port any more.
    with smtp_server() as inbox:
        settings.EMAIL_PORT = port
        player_register(
            event=hosted,
            registration=Registration(
                first_name="No",
                last_name="Server",
                email="no@example.org",
                date_of_birth=datetime.date(1980, 1, 1),
                signature="x",
                eligibility_declared=True,
                citizenship_declared=True,
            ),
        )
        assert len(inbox) == 0
    message = Message.objects.get()
    assert (message.status, message.attempts) == ("failed", MAX_ATTEMPTS)
    assert message.text == ""


def test_a_retry_waits_in_the_database_queue(hosted, inbox, settings):
    """With the database queue (production's), the retry is a task to run a minute later."""
    from django_tasks_db.models import DBTaskResult

    from mail.sending import RETRY_DELAYS

    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    player_register(
        event=hosted,
        registration=Registration(
            first_name="Queued",
            last_name="Later",
            email="later@example.org",
            date_of_birth=datetime.date(1980, 1, 1),
            signature="x",
            eligibility_declared=True,
            citizenship_declared=True,
        ),
    )
    [task] = DBTaskResult.objects.filter(task_path="mail.tasks.send_message_task")
    assert len(inbox) == 0  # nothing is sent until a worker runs the task
    inbox.refuse_next(1)
    from mail.tasks import send_message_task

    send_message_task.call(**task.args_kwargs["kwargs"])
    message = Message.objects.get()
    retry = DBTaskResult.objects.exclude(pk=task.pk).get()
    assert retry.run_after == message.send_after
    assert message.send_after - message.claimed_at == RETRY_DELAYS[0]
    assert message.status == "queued" and len(inbox) == 0


def test_nothing_is_sent_without_a_mail_server_and_the_pages_say_so(
    organizer, client, hosted, settings
):
    settings.EMAIL_HOST = ""
    organizer.post(reverse("players:register", kwargs={"pk": hosted.pk}), FORM)
    assert Player.objects.count() == 1 and Message.objects.count() == 0
    for name in ("player_import", "player_add", "event_edit"):
        page = organizer.get(reverse(qualified(name), kwargs={"pk": hosted.pk}))
        assert "No mail server is set, so no email is sent" in page.content.decode(), name
