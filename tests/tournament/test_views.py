"""Public pages render through the real URL routing and templates."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone


def test_home_lists_events(client, event):
    response = client.get(reverse("tournament:home"))
    assert response.status_code == 200
    assert list(response.context["events"]) == [event]
    assert "Spring Championship" in response.content.decode()
    assert event.get_absolute_url() in response.content.decode()


@pytest.mark.django_db
def test_home_without_events_says_so(client):
    response = client.get("/")
    assert response.status_code == 200
    assert "No events yet" in response.content.decode()


def test_event_detail_shows_event(client, event):
    response = client.get(f"/events/{event.pk}/")
    assert response.status_code == 200
    body = response.content.decode()
    assert "Spring Championship" in body
    assert "Library Annex" in body
    assert "3 preliminary rounds of 90 minutes" in body


@pytest.mark.django_db
def test_event_detail_missing_is_404(client):
    response = client.get(reverse("spectator:event_home", kwargs={"pk": 999999}))
    assert response.status_code == 404


@pytest.mark.django_db
def test_pages_load_htmx(client):
    response = client.get("/")
    assert "django_htmx/htmx" in response.content.decode()


@pytest.mark.django_db
def test_admin_login_page_answers(client):
    response = client.get("/admin/login/")
    assert response.status_code == 200


@pytest.mark.django_db
def test_event_page_links_to_registration_only_while_it_is_open(client, event):
    register = reverse("players:register", kwargs={"pk": event.pk})
    assert register in client.get(event.get_absolute_url()).content.decode()
    event.registration_closes = timezone.now() - datetime.timedelta(minutes=1)
    event.save()
    assert register not in client.get(event.get_absolute_url()).content.decode()


@pytest.mark.django_db
def test_every_admin_list_opens(admin_client):
    from django.contrib import admin

    for model in admin.site._registry:
        meta = model._meta
        url = reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist")
        assert admin_client.get(url).status_code == 200, url
