"""/health/: what load balancers poll, so it must stay cheap and never touch the database."""

import pytest
from django.urls import reverse


def test_health_answers_ok_as_plain_text_without_the_database(client):
    # No django_db mark: pytest-django refuses any query here, so one would fail the test.
    response = client.get(reverse("health"))
    assert response.status_code == 200
    assert response.content == b"ok"
    assert response["Content-Type"] == "text/plain; charset=utf-8"


def test_health_is_never_cached_by_a_proxy(client):
    response = client.get("/health/")
    assert "no-cache" in response["Cache-Control"]
    assert "no-store" in response["Cache-Control"]


def test_health_answers_head_and_refuses_writes(client):
    assert client.head("/health/").status_code == 200
    assert client.post("/health/").status_code == 405


@pytest.mark.django_db
def test_health_works_with_an_empty_database(client):
    # A fresh deployment is healthy before its first event exists.
    assert client.get("/health/").status_code == 200


def test_health_answers_plain_http_even_where_everything_else_redirects(client, settings):
    # Production turns on the HTTPS redirect; a balancer's plain-HTTP check must still pass.
    settings.SECURE_SSL_REDIRECT = True
    assert client.get("/events/").status_code == 301
    assert client.get("/health/").status_code == 200
