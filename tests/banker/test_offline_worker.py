"""The banker tablet's service worker and manifest, as served."""

from __future__ import annotations

import json

import pytest
from django.templatetags.static import static
from django.urls import reverse


@pytest.mark.django_db
def test_the_service_worker_is_served_for_the_banker_pages_with_its_settings(client):
    response = client.get(reverse("banker:tablet_service_worker"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/bank/"
    assert response["Cache-Control"] == "no-cache"
    assert "Content-Security-Policy" in response
    head, _, body = response.content.decode().partition(";\n")
    settings = json.loads(head.removeprefix("self.BOARDWALK = "))
    assert settings["scope"] == "/bank/"
    assert static("js/tablet.js") in settings["precache"]
    assert static("js/sheet.js") in settings["precache"]
    assert 'addEventListener("fetch"' in body


@pytest.mark.django_db
def test_the_manifest_offers_the_banker_pages_as_an_app(client):
    response = client.get(reverse("banker:tablet_manifest"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = response.json()
    assert manifest["scope"] == "/bank/"
    assert manifest["start_url"] == "/bank/"
    assert manifest["display"] == "standalone"
    assert manifest["icons"][0]["src"] == static("img/tablet-icon.svg")


@pytest.mark.django_db
def test_the_service_worker_and_manifest_answer_get_only(client):
    assert client.post(reverse("banker:tablet_service_worker")).status_code == 405
    assert client.post(reverse("banker:tablet_manifest")).status_code == 405
