"""The winner notification of a regional names the series and the qualifying place.

The series' forms: "The winner notification of a regional names the series and the
qualifying place." The Tournament Kit's Winner Notification Form, printed for the winner only.
"""

from __future__ import annotations

import pytest

from printouts.render import winner_notification_pdf
from scoring.selectors import event_winner
from series import services
from series.models import Entrant
from series.selectors import qualification_of
from tests.printouts.pdf_helpers import pdf_pages, squash
from tests.series.series_helpers import enter, play_round, regional, three_tables

pytestmark = pytest.mark.django_db


def test_the_regional_winners_form_names_the_series_and_the_qualifying_place():
    finals = regional("Finals", day=28)
    series = services.series_create(name="Albion Series", season="2030/31", finals=finals)
    north = regional("North", day=10)
    services.series_add_event(series=series, event=north)
    p = enter(north, "ABCDEFGHIJKL")
    play_round(north, three_tables(p))
    # No same-day final: the posted standings name the winner (I: 19 points, 4200).
    winner = event_winner(event=north)
    assert winner is not None and winner.player == p["I"]
    text = squash(" ".join(pdf_pages(winner_notification_pdf(event=north, player=p["I"]))))
    assert "Albion Series (2030/31)" in text
    assert "qualifying place 1" in text


def test_a_stand_alone_winners_form_names_no_series():
    event = regional("Open", day=10)
    p = enter(event, "ABCDEFGHIJKL")
    play_round(event, three_tables(p))
    # A stand-alone championship keeps its same-day final: the standings name nobody yet.
    assert event_winner(event=event) is None


def test_only_a_registration_holding_a_place_has_a_qualification():
    """The winner's form names the place the registration holds: B declines North's fourth
    place and holds none (F, 5th, takes it); a player who did not qualify holds none."""
    finals = regional("Finals", day=28)
    series = services.series_create(name="Albion Series", season="2030/31", finals=finals)
    north = regional("North", day=10)
    services.series_add_event(series=series, event=north)
    p = enter(north, "ABCDEFGHIJKL")
    play_round(north, three_tables(p))
    services.entrant_respond(entrant=Entrant.objects.get(player=p["B"]), accept=False, by=None)
    held = qualification_of(player=p["F"])
    assert (held.series, held.source.event, held.rank) == (series, north, 5)
    assert qualification_of(player=p["B"]) is None
    assert qualification_of(player=p["J"]) is None
