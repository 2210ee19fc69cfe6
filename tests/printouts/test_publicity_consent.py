"""The kit's publicity grant, online and on the printed form, for the same people.

Tournament Kit, PARTICIPANT REGISTRATION FORM: "I, the undersigned, wish to register for this
official MONOPOLY Game Tournament. I understand that Hasbro is not responsible for any prizes
promised by the organization running this tournament. I give Hasbro the right to use,
without compensation, my name and any photographs of me taken at the tournament for
publicity and promotional purposes." Online the grant is the kit's sentence, optional; a
player who left it unticked signs a sheet without it, never under it.
"""

from __future__ import annotations

import datetime

from django.urls import reverse
from django.utils import timezone

from tests.printouts.pdf_helpers import *  # noqa: F403 (the fixtures)
from tests.printouts.pdf_helpers import pdf_pages, squash
from tournament.models import Player

REGISTER = (
    "I, the undersigned, wish to register for this official MONOPOLY Game Tournament. I "
    "understand that Hasbro is not responsible for any prizes promised by the organization "
    "running this tournament."
)
GRANT = (
    "I give Hasbro the right to use, without compensation, my name and any photographs of me "
    "taken at the tournament for publicity and promotional purposes."
)


def test_the_online_form_asks_for_the_grant_in_the_kits_words(client, event):
    page = client.get(reverse("players:register", kwargs={"pk": event.pk}))
    assert page.status_code == 200
    assert GRANT in " ".join(page.content.decode().split())


def test_a_player_who_did_not_grant_it_signs_a_sheet_without_it(organizer_client, event):
    for index, consent in enumerate([True, False, True]):
        Player.objects.create(
            event=event,
            first_name=f"Given{index}",
            last_name="Granted" if consent else "Declined",
            date_of_birth=datetime.date(1990, 1, 1),
            signature="x",
            signed_at=timezone.now(),
            alias=f"Token {index}",
            publicity_consent=consent,
        )
    url = reverse("printouts:participant_registration", kwargs={"pk": event.pk})
    granted, declined = [squash(p) for p in pdf_pages(organizer_client.get(url).content)]
    assert REGISTER in granted and GRANT in granted
    assert "Given0 Granted" in granted and "Given2 Granted" in granted
    assert "Declined" not in granted
    assert REGISTER in declined and GRANT not in declined
    assert "Given1 Declined" in declined and "Granted" not in declined
    assert "did not give Hasbro the right to use their name or photographs" in declined
    # One list: the second sheet goes on numbering after the first's twelve lines.
    assert "13 Given1 Declined" in declined
