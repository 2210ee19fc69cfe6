"""The cockpit's step before round 1: open the public site and the hall display.

Its state comes from the facts (written out by hand); its block on the page carries both
addresses and the spectators' QR code, and for the organizer one tap that opens the event
home, which the phone then shows.
"""

from __future__ import annotations

from dataclasses import replace

import segno
from django.contrib.auth.models import Group, User
from django.test import Client
from django.urls import reverse

from cockpit.plan import CURRENT, DONE, TODO, EventFacts, RoundFacts, cockpit_plan
from cockpit.selectors import event_facts
from spectator.services import release_set
from tests.builders import players_with_aliases
from tests.scoring.scoring_helpers import make_round
from tournament.roles import JUDGE, ORGANIZER

SEATED = EventFacts(
    knockout=False,
    has_final=True,
    planned_rounds=3,
    minimum_players=8,
    players=8,
    checked_in=8,
    alternates=0,
    started=True,
    bracket_confirmed=False,
    rounds=(
        RoundFacts(
            number=1,
            final=False,
            tables=2,
            published=False,
            clock_started=False,
            clock_ended=False,
            tables_playing=0,
            sheets_in=0,
            sheets_signed=0,
            sheets_approved=0,
            open_ties=0,
            posted=False,
        ),
    ),
)


def public_step(facts: EventFacts):
    steps = cockpit_plan(facts).steps
    keys = [step.key for step in steps]
    # Between seating and round 1.
    assert keys.index("seating") + 1 == keys.index("public") == keys.index("round-1") - 1
    return next(step for step in steps if step.key == "public")


def test_the_step_comes_before_round_1_and_says_when_the_site_opens():
    before_seating = replace(SEATED, rounds=())
    assert next(s for s in cockpit_plan(before_seating).steps if s.key == "public").state == TODO
    step = public_step(SEATED)
    assert step.label == "Open the public site and the hall display"
    assert (step.state, step.detail) == (
        CURRENT,
        "the event home opens when round 1's tables are published",
    )
    held = public_step(replace(SEATED, public_held=True))
    assert (held.state, held.detail) == (
        CURRENT,
        "the public site is held: release the event home when you are ready",
    )
    done = public_step(replace(SEATED, public_home=True, public_held=True))
    assert (done.state, done.detail) == (DONE, "the event home is public")
    # The next action stays the day's: publishing round 1 opens the site by itself.
    assert cockpit_plan(SEATED).next_action.label == "Publish the tables of round 1"


def official(role: str) -> Client:
    """Signed in, and held to CSRF like a browser: the step's form must carry its token."""
    person = User.objects.create_user(role.lower(), password="pw")
    person.groups.add(Group.objects.get(name=role))
    client = Client(enforce_csrf_checks=True)
    client.force_login(person)
    return client


def public_block(html: str) -> str:
    start = html.index('data-step="public"')
    return html[start : html.index("</li>", start)]


def test_the_step_shows_both_addresses_the_qr_code_and_opens_the_home_in_one_tap(event):
    people = players_with_aliases(event, aliases=["Boot", "Car", "Hat", "Dog"])
    make_round(event, 1, [list(people.values())], finished=False)
    cockpit = reverse("cockpit:cockpit", kwargs={"pk": event.pk})
    home = f"http://testserver/events/{event.pk}/"
    organizer = official(ORGANIZER)
    block = public_block(organizer.get(cockpit).content.decode())
    assert f'href="{home}"' in block
    assert f'href="http://testserver/events/{event.pk}/hall/"' in block
    # The QR code is the event home's address, as segno draws it.
    assert segno.make(home, error="m").svg_inline(scale=5, border=2) in block
    assert "Open the event home now" in block
    assert reverse("spectator:release", kwargs={"pk": event.pk}) in block

    # A judge sees the addresses, and no button or link that would answer 403.
    judge_block = public_block(official(JUDGE).get(cockpit).content.decode())
    assert f'href="{home}"' in judge_block and "<form" not in judge_block
    assert reverse("spectator:release", kwargs={"pk": event.pk}) not in judge_block

    phone = Client()
    assert "Nothing is posted here yet." in phone.get(home).content.decode()
    start = block.index("<form")
    form = block[start : block.index("</form>", start)]
    token = form.split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
    response = organizer.post(
        reverse("spectator:release_pages", kwargs={"pk": event.pk}),
        {"csrfmiddlewaretoken": token, "pages": "home", "released": "1", "back": cockpit},
        follow=True,
    )
    assert response.redirect_chain[-1][0] == cockpit
    page = response.content.decode()
    assert "Released to the public: event home." in page
    assert 'data-step="public"' in page and "the event home is public" in public_block(page)
    assert "Nothing is posted here yet." not in phone.get(home).content.decode()
    assert event_facts(event=event).public_home


def test_the_facts_read_the_hold(event):
    assert not event_facts(event=event).public_held
    release_set(event=event, pages={}, by=None, held=True)
    assert event_facts(event=event).public_held
