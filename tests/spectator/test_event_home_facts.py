"""The event home shows the venue, the date and the registration deadline."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format

from tournament.models import Event


@pytest.mark.django_db
def test_the_event_home_shows_venue_date_and_registration_deadline(client, event):
    closes = timezone.make_aware(datetime.datetime(2030, 4, 17, 18, 0))
    Event.objects.filter(pk=event.pk).update(registration_closes=closes)
    body = client.get(reverse("spectator:event_home", kwargs={"pk": event.pk})).content.decode()
    assert "Library Annex" in body
    assert date_format(event.date, "DATE_FORMAT") in body
    assert "Registration deadline" in body
    assert date_format(timezone.localtime(closes), "DATETIME_FORMAT") in body


@pytest.mark.django_db
def test_without_a_set_deadline_the_home_says_the_default_one(client, event):
    Event.objects.filter(pk=event.pk).update(registration_closes=None)
    body = client.get(reverse("spectator:event_home", kwargs={"pk": event.pk})).content.decode()
    # The model's help text: "Three days before the event unless you choose otherwise."
    closes = timezone.make_aware(
        datetime.datetime.combine(event.date, event.start_time)
    ) - datetime.timedelta(days=3)
    assert date_format(timezone.localtime(closes), "DATETIME_FORMAT") in body
