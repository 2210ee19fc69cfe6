"""Who sees which language: officials their saved choice, the public their browser's,
the hall display its event's; times without "p.m.." at the end of a sentence."""

import datetime

import pytest
from django.conf import settings
from django.contrib.auth.models import Group, User
from django.template import Context, Template
from django.utils import translation

from tournament.models import OfficialProfile


def _organizer(username="orga"):
    user = User.objects.create_user(username, password="pw")
    user.groups.add(Group.objects.get(name="Organizer"))
    return user


def test_the_languages_are_the_issues_and_dutch_is_gone():
    codes = [code for code, _name in settings.LANGUAGES]
    assert codes == ["en", "en-gb", "fr", "de", "es", "hi"]


@pytest.mark.django_db
def test_a_visitor_follows_the_browser_and_the_page_links_to_the_switch(client, event):
    response = client.get(f"/events/{event.pk}/", HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9")
    assert response["Content-Language"] == "fr"
    body = response.content.decode()
    assert '<html lang="fr" dir="ltr">' in body
    assert 'href="/language/"' in body


@pytest.mark.django_db
def test_the_switch_page_holds_a_csrf_form_and_returns_to_the_page(client, event):
    page = client.get("/language/", HTTP_REFERER=f"http://testserver/events/{event.pk}/")
    body = page.content.decode()
    assert 'name="csrfmiddlewaretoken"' in body
    assert f'value="http://testserver/events/{event.pk}/"' in body
    assert "<script" not in body.split("</head>")[1]
    answer = client.post("/language/", {"language": "hi", "next": f"/events/{event.pk}/"})
    assert answer.status_code == 302 and answer["Location"] == f"/events/{event.pk}/"
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "hi"
    again = client.get(f"/events/{event.pk}/", HTTP_ACCEPT_LANGUAGE="fr")
    assert again["Content-Language"] == "hi"


@pytest.mark.django_db
def test_a_made_up_language_or_a_foreign_next_changes_nothing(client):
    answer = client.post("/language/", {"language": "xx", "next": "https://evil.example/"})
    assert answer.status_code == 302 and answer["Location"] == "/"
    assert settings.LANGUAGE_COOKIE_NAME not in client.cookies
    assert client.get("/language/?next=https://evil.example/").status_code == 200


@pytest.mark.django_db
def test_an_officials_choice_is_saved_and_follows_them_to_another_device(client):
    user = _organizer()
    client.force_login(user)
    page = client.get("/organizer/")
    assert 'class="language-switch"' in page.content.decode()
    client.post("/language/", {"language": "fr", "next": "/organizer/"})
    assert OfficialProfile.objects.get(user=user).language == "fr"
    tablet = type(client)()
    tablet.force_login(user)
    response = tablet.get("/organizer/", HTTP_ACCEPT_LANGUAGE="de")
    assert response["Content-Language"] == "fr"
    assert '<html lang="fr"' in response.content.decode()


@pytest.mark.django_db
def test_the_hall_display_speaks_the_events_language(client, event):
    event.language = "fr"
    event.save()
    response = client.get(f"/events/{event.pk}/hall/", HTTP_ACCEPT_LANGUAGE="en")
    assert '<html lang="fr" dir="ltr">' in response.content.decode()


@pytest.mark.parametrize(
    ("language", "expected"),
    [("en", "2:30 PM."), ("en-gb", "14:30."), ("fr", "14:30."), ("hi", "14:30.")],
)
def test_a_time_ends_a_sentence_with_one_full_stop(language, expected):
    at = datetime.time(14, 30)
    with translation.override(language):
        text = Template('{{ at|time:"TIME_FORMAT" }}.').render(Context({"at": at}))
    assert text == expected
    assert ".." not in text
