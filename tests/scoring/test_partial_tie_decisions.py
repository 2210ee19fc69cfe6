"""A head judge's old tie decision that covers only part of a later tie.

A decision orders the group that was level when it was made. When more players join the
tie later (a later round in the standings, a correction at a table), the old order says
nothing about the newcomer: the whole group is shown tied and waits for a new decision,
instead of the old order being applied to players it never named (which raised in
``order.index``, or in ``tie_outcome``'s strict zip).
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User
from django.core.exceptions import ValidationError
from django.urls import reverse

from scoring.models import ResultLine, TableSheet
from scoring.selectors import sheet_open_ties, standings
from scoring.services.posting import round_post
from scoring.services.sheets import sheet_correct
from scoring.services.ties import standings_tie_decide, tie_decide
from spectator import selectors as public
from spectator.services import release_set
from tests.builders import players_with_aliases
from tests.scoring.scoring_helpers import make_round, play, sheet_data, table_of
from tournament.roles import ORGANIZER


@pytest.fixture
def six(event):
    return players_with_aliases(event, aliases=["Boot", "Hat", "Car", "X", "Y", "Z"])


def ranks(event) -> list[tuple[str, str]]:
    return [
        (f"{r.rank}=" if r.tied else str(r.rank), r.alias)
        for r in standings(event=event, only_posted=True)
    ]


def test_an_old_standings_decision_does_not_order_a_larger_tie(client, event, six):
    p = six
    # Round 1: Boot and Hat each win a table of two, 3000 to 1000 (Championship Rules: "2 Players
    # 25  14"), so both have 25 points, one win, 3000 net worth and a best game of 3000.
    round1 = make_round(event, 1, [[p["Boot"], p["X"]], [p["Hat"], p["Y"]]])
    play(table_of(round1, 1), {p["Boot"]: 3000, p["X"]: 1000})
    play(table_of(round1, 2), {p["Hat"]: 3000, p["Y"]: 1000})
    round_post(round_=round1, by=None)
    standings_tie_decide(event=event, order=[p["Hat"].pk, p["Boot"].pk], by=None, reason="Dice")
    assert ranks(event)[:2] == [("1", "Hat"), ("2", "Boot")]

    # Round 2: Car, who sat out round 1, wins the same way: one win, 3000, like the other two.
    round2 = make_round(event, 2, [[p["Car"], p["Z"]]])
    play(table_of(round2, 1), {p["Car"]: 3000, p["Z"]: 1000})
    round_post(round_=round2, by=None)
    # The dice decided Hat before Boot, not where Car stands: all three are level again.
    assert ranks(event)[:3] == [("1=", "Boot"), ("1=", "Car"), ("1=", "Hat")]

    # Every page that ranks says so, and offers the head judge the three to order.
    release_set(event=event, pages={"standings": True}, by=None)
    shown = public.standings(event_pk=event.pk, release=public.Release(standings=True))
    assert [(r.place, r.alias) for r in shown.rows][:3] == ranks(event)[:3]
    assert client.get(reverse("spectator:standings", kwargs={"pk": event.pk})).status_code == 200
    organizer = User.objects.create_user("org", password="pw")
    organizer.groups.add(Group.objects.get(name=ORGANIZER))
    client.force_login(organizer)
    page = client.get(reverse("scoring:standings", kwargs={"pk": event.pk}))
    assert page.status_code == 200
    trio = sorted(str(p[a].pk) for a in ("Boot", "Hat", "Car"))
    tie_groups = [sorted(t["players"].split(",")) for t in page.context["tie_forms"]]
    assert trio in tie_groups

    standings_tie_decide(
        event=event, order=[p["Car"].pk, p["Hat"].pk, p["Boot"].pk], by=None, reason="Dice"
    )
    assert ranks(event)[:3] == [("1", "Car"), ("2", "Hat"), ("3", "Boot")]


def test_an_old_table_decision_does_not_order_a_larger_tie_after_a_correction(event, six):
    p = six
    boot, car, hat, x = p["Boot"], p["Car"], p["Hat"], p["X"]
    table = table_of(make_round(event, 1, [[boot, car, hat, x]]), 1)
    play(table, {boot: 2000, car: 2000, hat: 1500, x: 1000})
    tie_decide(table=table, order=[car.pk, boot.pk], by=None, reason="Roll-off")
    sheet = TableSheet.objects.get(table=table)

    # Hat's cash was miscounted: 2000, not 1500. Now three are level for first place.
    sheet = sheet_correct(
        sheet=sheet,
        data=sheet_data({boot: 2000, car: 2000, hat: 2000, x: 1000}),
        reason="Hat's 500 counted as 0",
        by=None,
        expected_version=sheet.version,
    )
    trio = tuple(sorted(str(x.pk) for x in (boot, car, hat)))
    assert sheet_open_ties(sheet=sheet) == [trio]
    lines = {line.player.alias: (line.place, line.points) for line in ResultLine.objects.all()}
    # Level for first, no points until the head judge decides; X is fourth of 4: 3 points.
    assert lines["Boot"] == lines["Car"] == lines["Hat"] == (1, None)
    assert lines["X"][0] == 4 and int(lines["X"][1]) == 3
    with pytest.raises(ValidationError, match="tie waits"):
        round_post(round_=table.round, by=None)

    tie_decide(table=table, order=[hat.pk, car.pk, boot.pk], by=None, reason="Roll-off again")
    # Championship Rules, RANKING BY POINTS, "4 Players  19  10  5  3": first, second and third.
    places = {
        line.player.alias: (line.place, int(line.points)) for line in ResultLine.objects.all()
    }
    assert (places["Hat"], places["Car"], places["Boot"]) == ((1, 19), (2, 10), (3, 5))
