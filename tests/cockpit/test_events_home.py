"""The officials' start pages at the size of a season: one row per event, grouped by day.

An organizer's home once carried eleven buttons per event (2,279 px and 115 links for nine
events; 6,000 px and 295 buttons after a day's use). Each event is now one row saying
where its day stands and what comes next, with one link, to its cockpit.
"""

from __future__ import annotations

import datetime
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from cockpit.events_home import PAST_SHOWN, events_by_day
from demo.simulation import event_simulate
from tests.builders import an_event, registered_players, user_with
from tournament.models import Event
from tournament.roles import JUDGE, ORGANIZER

DAY = datetime.timedelta(days=1)


@pytest.fixture
def season(db) -> dict[str, list]:
    """Two events today, three to come, fifteen past (more than a page of them)."""
    today = timezone.localdate()
    made = {
        "today": [an_event(name=f"Today {n}", date=today) for n in (2, 1)],
        "upcoming": [an_event(name=f"Soon {n}", date=today + n * 7 * DAY) for n in (3, 1, 2)],
        "past": [an_event(name=f"Past {n}", date=today - n * DAY) for n in range(1, 16)],
    }
    return made


def names(rows) -> list[str]:
    return [row.event.name for row in rows]


def test_events_are_grouped_today_upcoming_past_in_the_order_each_is_read(season):
    days = events_by_day()
    assert names(days.today) == ["Today 1", "Today 2"]
    assert names(days.upcoming) == ["Soon 1", "Soon 2", "Soon 3"]  # soonest first
    # The latest past first, a page of them; the rest counted, not read.
    assert names(days.past) == [f"Past {n}" for n in range(1, PAST_SHOWN + 1)]
    assert days.past_hidden == 15 - PAST_SHOWN
    everything = events_by_day(all_past=True)
    assert len(everything.past) == 15 and everything.past_hidden == 0


def test_a_row_says_where_the_day_stands_and_what_comes_next(db):
    waiting = an_event(name="Waiting Cup", date=timezone.localdate() + 30 * DAY)
    registered_players(waiting, count=2)
    (row,) = events_by_day().upcoming
    assert row.stage == "Registration"
    # The cockpit's own next step, with the count of players registered so far.
    assert row.next_step.startswith("Register players") and "2" in row.next_step


def test_a_finished_day_names_its_winner(db):
    played = event_simulate(players=16, seed=5, play_final=True).event
    (row,) = [
        r
        for days in vars(events_by_day(all_past=True)).values()
        if isinstance(days, tuple)
        for r in days
    ]
    assert row.event == played
    assert row.stage.startswith("Winner: ") and len(row.stage) > len("Winner: ")


def _links_in_main(body: str) -> list[str]:
    main = body[body.index("<main") : body.index("</main>")]
    return re.findall(r'<a [^>]*href="([^"]+)"', main)


def test_the_organizers_home_has_one_link_per_event_and_folds_the_past(client, season):
    client.force_login(user_with(ORGANIZER, "olga"))
    body = client.get(reverse("cockpit:events_home")).content.decode()
    cockpits = [url for url in _links_in_main(body) if re.fullmatch(r"/organizer/events/\d+/", url)]
    shown = 2 + 3 + PAST_SHOWN
    assert len(cockpits) == shown and len(set(cockpits)) == shown
    # Besides the cockpits: the new-event choices (two per format), the series, "older".
    others = [url for url in _links_in_main(body) if url not in cockpits]
    assert len(others) <= 2 * 3 + 2, others
    assert "<details" in body and "Show 3 older events" in body
    order = [body.index(title) for title in ("Today 1", "Soon 1", "Past 1")]
    assert order == sorted(order)
    everything = client.get(reverse("cockpit:events_home") + "?past=all").content.decode()
    assert "Past 15" in everything and "older event" not in everything


def test_the_judges_desk_lists_todays_events_first_and_folds_the_past(client, season):
    client.force_login(user_with(JUDGE, "jules"))
    response = client.get(reverse("cockpit:judges_desk"))
    assert response.status_code == 200
    body = response.content.decode()
    today = season["today"][0]
    assert reverse("players:check_in", kwargs={"pk": today.pk}) in body
    assert body.index("Today 1") < body.index("Soon 1") < body.index("<details")
    past = season["past"][0]
    # A past event is a row to its cockpit, not a desk of buttons.
    assert reverse("players:check_in", kwargs={"pk": past.pk}) not in body


def test_a_judge_cannot_open_the_organizers_home(client, db):
    client.force_login(user_with(JUDGE, "jules"))
    assert client.get(reverse("cockpit:events_home")).status_code == 403


def test_an_event_under_way_stays_on_the_judges_desk_whatever_its_date(client, db):
    under_way = event_simulate(players=16, seed=5, final=False).event
    Event.objects.filter(pk=under_way.pk).update(date=timezone.localdate() + 3 * DAY)
    client.force_login(user_with(JUDGE, "jules"))
    body = client.get(reverse("cockpit:judges_desk")).content.decode()
    desk = body[
        body.index('class="event-list"') : body.index("</ul>", body.index('class="event-list"'))
    ]
    assert reverse("players:check_in", kwargs={"pk": under_way.pk}) in desk
    assert "Results, round 1" in desk


def test_an_event_begun_yesterday_and_still_under_way_is_todays_on_the_organizers_home(client, db):
    """A day that began in the evening and runs past midnight is dated yesterday: the
    organizer still finds it under Today, not folded away with the past."""
    late = event_simulate(players=16, seed=5, final=False).event
    Event.objects.filter(pk=late.pk).update(date=timezone.localdate() - DAY)
    finished = an_event(name="Last Evening Cup", date=timezone.localdate() - DAY)
    client.force_login(user_with(ORGANIZER, "olga"))
    body = client.get(reverse("cockpit:events_home")).content.decode()
    today = body[body.index('id="today-heading"') : body.index('id="upcoming-heading"')]
    assert late.name in today
    assert finished.name not in today
    assert finished.name in body[body.index('id="past-heading"') :]


def test_a_knockout_cockpit_shows_only_the_rounds_its_bracket_will_play(db):
    # Tournament Kit: 24 players at six tables of four; the six table winners play the final. One
    # preliminary round, not the two a championship's form would have shown.
    from cockpit.plan import day_steps, next_action
    from cockpit.selectors import event_facts

    club = an_event(fmt="club", expected_players=24)
    registered_players(club, count=24)
    facts = event_facts(event=club)
    keys = [step.key for step in day_steps(facts, next_action(facts)[0])]
    assert "round-1" in keys and "round-2" not in keys and "final" in keys
