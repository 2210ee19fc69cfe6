"""Posting waits for a judge's approval of every sheet, unless the event turns it off.

Championship Rules, BANKERS: the banker will "count up all assets at the end of each game and sign
of the score sheet to confirm the final adjudicated scores"; JUDGES: "there will be roaming Judges
to adjudicate over the tournament": a championship's judge approves each sheet before the
round is posted. Tournament Kit (the club kit's end of round): "Sign the score sheet: The player
signs, the Banker or the referee counter-signs": a club event posts from the signed sheets.
"""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from scoring.models import RoundPosting
from scoring.services.posting import round_post
from scoring.services.sheets import sheet_approve
from tests.builders import an_event, players_with_aliases
from tests.scoring.scoring_helpers import make_round, play, table_of
from tests.seating.test_seating_pages import log_in
from tournament.roles import ORGANIZER
from tournament.services import event_update

pytestmark = pytest.mark.django_db


def signed_round(event):
    p = list(players_with_aliases(event, aliases=["Boot", "Car", "Hat", "Dog"]).values())
    round_ = make_round(event, 1, [p])
    sheet = play(
        table_of(round_, 1), dict(zip(p, (3000, 2000, 1500, 1000), strict=True)), approve=False
    )
    return round_, sheet


def test_a_championship_posts_only_once_a_judge_approved_every_sheet():
    event = an_event(name="Regional")
    assert event.judge_approves_sheets
    round_, sheet = signed_round(event)
    with pytest.raises(ValidationError) as caught:
        round_post(round_=round_, by=None)
    assert caught.value.messages == ["Table 1: a judge has not approved the score sheet yet."]
    sheet_approve(sheet=sheet, by=None)
    assert round_post(round_=round_, by=None)


def test_a_club_event_posts_from_the_counter_signed_sheets():
    event = an_event(name="Charity Day", fmt="club")
    assert not event.judge_approves_sheets
    round_, sheet = signed_round(event)
    assert sheet.status == "signed"
    assert round_post(round_=round_, by=None)


def test_the_organizer_turns_the_approval_off_and_the_posting_page_follows(client):
    event = an_event(name="Club Night")
    event_update(event=event, judge_approves_sheets=False)
    round_, _sheet = signed_round(event)
    client = log_in(client, ORGANIZER)
    answer = client.post(
        reverse("scoring:results_post", kwargs={"pk": event.pk, "round_number": 1}), follow=True
    )
    assert answer.status_code == 200
    assert RoundPosting.objects.filter(round=round_).exists()
