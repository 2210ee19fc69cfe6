"""Public pages render through the real URL routing and templates."""

import pytest
from django.urls import reverse


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
    response = client.get(reverse("tournament:event_detail", kwargs={"pk": 999999}))
    assert response.status_code == 404


@pytest.mark.django_db
def test_pages_load_htmx(client):
    response = client.get("/")
    assert "django_htmx/htmx" in response.content.decode()


@pytest.mark.django_db
def test_admin_login_page_answers(client):
    response = client.get("/admin/login/")
    assert response.status_code == 200
