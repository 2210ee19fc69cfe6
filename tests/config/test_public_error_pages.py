"""The favicon and the branded error pages: each leads back to the event or home."""

import pytest
from django.contrib.auth.models import User
from django.template import loader
from django.test import Client, RequestFactory, override_settings
from django.urls import path, reverse

from config import views


@pytest.mark.django_db
def test_favicon_ico_redirects_to_the_static_icon(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 302
    assert response.url.endswith("/favicon.ico") and "static" in response.url


@pytest.mark.django_db
def test_every_page_frame_names_the_icon(client, event):
    for url in ("/", reverse("spectator:event_home", kwargs={"pk": event.pk})):
        html = client.get(url).content.decode()
        assert 'rel="icon"' in html and "favicon.svg" in html, url
    hall = client.get(reverse("spectator:hall_display", kwargs={"pk": event.pk}))
    assert "favicon.ico" in hall.content.decode()


@pytest.mark.django_db
def test_404_is_branded_and_leads_home(client):
    response = client.get("/no-such-page/")
    html = response.content.decode()
    assert response.status_code == 404
    assert "Page not found" in html and 'class="site-header"' in html
    assert 'href="/"' in html


@pytest.mark.django_db
def test_404_under_an_event_leads_back_to_that_event(client, event):
    response = client.get(f"/events/{event.pk}/rounds/99/tables/")
    html = response.content.decode()
    assert response.status_code == 404
    assert reverse("spectator:event_home", kwargs={"pk": event.pk}) in html
    assert f"Back to {event.name}" in html


@pytest.mark.django_db
def test_404_for_an_event_that_does_not_exist_leads_home_only(client):
    html = client.get("/events/999999/").content.decode()
    assert "Back to" not in html and 'href="/"' in html


@pytest.mark.django_db
def test_403_is_branded_says_who_is_signed_in_and_leads_back(event):
    client = Client()
    client.force_login(User.objects.create_user("visitor", password="pw"))
    response = client.get(reverse("spectator:release", kwargs={"pk": event.pk}))
    html = response.content.decode()
    assert response.status_code == 403
    assert "Not allowed" in html and "signed in as visitor" in html
    assert f"Back to {event.name}" in html


def test_500_renders_without_a_request_context_or_database():
    """Rendered as Django renders it, with a bare context: no user, no perms, no request."""
    html = loader.get_template("500.html").render({})
    assert "Something went wrong" in html and 'href="/"' in html
    request = RequestFactory().get("/events/12/standings/")
    response = views.server_error(request)
    assert response.status_code == 500
    assert 'href="/events/12/"' in response.content.decode()


def _boom(request):
    raise RuntimeError("boom")


# This module is the URL conf of the next test: one view that fails, the site's 500 handler.
urlpatterns = [path("events/7/boom/", _boom)]
handler500 = "config.views.server_error"


@pytest.mark.django_db
@override_settings(ROOT_URLCONF=__name__)
def test_an_exception_in_a_view_answers_the_branded_500():
    response = Client(raise_request_exception=False).get("/events/7/boom/")
    assert response.status_code == 500
    html = response.content.decode()
    assert "Something went wrong" in html and 'href="/events/7/"' in html


@pytest.mark.django_db
def test_a_refused_form_gets_the_branded_page_and_saves_nothing():
    """A post without its CSRF token (a page open across a log-out) is refused with the
    site's page, which says to reload and leads home."""
    client = Client(enforce_csrf_checks=True)
    response = client.post(reverse("login"), {"username": "x", "password": "y"})
    html = response.content.decode()
    assert response.status_code == 403
    assert "Please try again" in html and 'href="/"' in html
