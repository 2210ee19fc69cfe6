"""The head judge's tie decisions, worked by hand from the rule book.

Championship Rules, SCORING: "Points are awarded based on the number of players remaining" at the
end, so a tie the head judge decides at a table where someone went bankrupt is scored from the row
for the players remaining, not the players seated. And the head judge may decide a tie
again: the latest decision is the one in force, at a table and in the standings.
"""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.utils import timezone

from scoring.models import ResultLine, StandingsTieDecision, TieDecision
from scoring.selectors import standings, tie_decision_for
from scoring.services.posting import round_post
from scoring.services.ties import standings_tie_decide, tie_decide
from tests.builders import players_with_aliases
from tests.scoring.scoring_helpers import make_round, play, table_of


def lines(table) -> dict[str, tuple[int | None, Decimal | None]]:
    return {
        line.player.alias: (line.place, line.points)
        for line in ResultLine.objects.filter(table=table).select_related("player")
    }


@pytest.fixture
def bankrupt_table(event):
    """Four seated; Dog went bankrupt; Boot and Hat level on 3000 net worth (cash only, so
    level on unmortgaged property too), Car third on 1000: three players remaining."""
    p = players_with_aliases(event, aliases=["Boot", "Hat", "Car", "Dog"])
    round_ = make_round(event, 1, [[p["Boot"], p["Hat"], p["Car"], p["Dog"]]])
    table = table_of(round_, 1)
    play(table, {p["Boot"]: 3000, p["Hat"]: 3000, p["Car"]: 1000}, bankrupt=[p["Dog"]])
    return p, table


@pytest.mark.django_db
def test_a_decided_tie_at_a_table_with_a_bankruptcy_scores_by_the_players_remaining(
    bankrupt_table,
):
    p, table = bankrupt_table
    # The engine leaves first place open between Boot and Hat.
    assert lines(table)["Boot"][0] == lines(table)["Hat"][0] == 1
    # Championship Rules, "3 Players: 22 12 6": Hat first takes 22, Boot second 12 (the 4-player row
    # would give 19 and 10).
    tie_decide(table=table, order=[p["Hat"].pk, p["Boot"].pk], by=None, reason="Dice")
    got = lines(table)
    assert got["Hat"] == (1, Decimal("22"))
    assert got["Boot"] == (2, Decimal("12"))
    assert got["Car"] == (3, Decimal("6"))


@pytest.mark.django_db
def test_shared_points_at_a_table_with_a_bankruptcy_average_the_remaining_row(bankrupt_table):
    p, table = bankrupt_table
    tie_decide(table=table, share_points=True, by=None, reason="Agreed")
    got = lines(table)
    # (22 + 12) / 2 = 17.00 from the 3-player row; the 4-player row would give 14.50.
    assert got["Hat"] == got["Boot"] == (1, Decimal("17.00"))


@pytest.mark.django_db
@pytest.mark.parametrize("moment", ["one after the other", "in the same instant"])
def test_the_latest_table_decision_is_applied(bankrupt_table, moment, request):
    if moment == "in the same instant":
        request.getfixturevalue("one_instant")
    p, table = bankrupt_table
    tie_decide(table=table, order=[p["Hat"].pk, p["Boot"].pk], by=None, reason="Dice")
    tie_decide(table=table, order=[p["Boot"].pk, p["Hat"].pk], by=None, reason="Re-rolled")
    got = lines(table)
    assert (got["Boot"], got["Hat"]) == ((1, Decimal("22")), (2, Decimal("12")))


@pytest.fixture
def level_winners(event):
    """Boot and Hat each win a table of two 3000 to 1000 (Championship Rules, "2 Players: 25
    14"): level on points, wins, net worth and best game, so only the head judge can order
    them. Round 1 posted."""
    p = players_with_aliases(event, aliases=["Boot", "Hat", "X", "Y"])
    round_ = make_round(event, 1, [[p["Boot"], p["X"]], [p["Hat"], p["Y"]]])
    play(table_of(round_, 1), {p["Boot"]: 3000, p["X"]: 1000})
    play(table_of(round_, 2), {p["Hat"]: 3000, p["Y"]: 1000})
    round_post(round_=round_, by=None)
    return p


@pytest.mark.django_db
def test_the_latest_standings_decision_is_applied(event, level_winners):
    p = level_winners

    def top_two():
        return [(r.rank, r.tied, r.alias) for r in standings(event=event, only_posted=True)[:2]]

    assert top_two() == [(1, True, "Boot"), (1, True, "Hat")]
    standings_tie_decide(event=event, order=[p["Boot"].pk, p["Hat"].pk], by=None, reason="Dice")
    assert top_two() == [(1, False, "Boot"), (2, False, "Hat")]
    # Decided again (a recount of the dice): the second decision stands, not the first.
    standings_tie_decide(event=event, order=[p["Hat"].pk, p["Boot"].pk], by=None, reason="Again")
    assert top_two() == [(1, False, "Hat"), (2, False, "Boot")]


@pytest.fixture
def one_instant(monkeypatch):
    """Every decision stamped with the same instant (two taps within the clock's resolution)."""
    instant = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: instant)
    return instant


@pytest.mark.django_db
def test_the_table_decision_in_force_is_the_latest_in_time_not_in_filing(bankrupt_table):
    # A decision filed late (typed in after the next one, say) but dated earlier does not
    # overrule the one the head judge made after it.
    p, table = bankrupt_table
    tie_decide(table=table, order=[p["Hat"].pk, p["Boot"].pk], by=None, reason="Dice")
    tie_decide(table=table, order=[p["Boot"].pk, p["Hat"].pk], by=None, reason="Earlier roll")
    earlier = timezone.now() - datetime.timedelta(minutes=5)
    TieDecision.objects.filter(reason="Earlier roll").update(at=earlier)
    decision = tie_decision_for(table=table, tie=(str(p["Hat"].pk), str(p["Boot"].pk)))
    assert decision.reason == "Dice"


@pytest.mark.django_db
def test_of_two_standings_decisions_in_the_same_instant_the_one_made_last_is_applied(
    event, level_winners, one_instant
):
    p = level_winners
    standings_tie_decide(event=event, order=[p["Boot"].pk, p["Hat"].pk], by=None, reason="Dice")
    standings_tie_decide(event=event, order=[p["Hat"].pk, p["Boot"].pk], by=None, reason="Again")
    top = [(r.rank, r.alias) for r in standings(event=event, only_posted=True)[:2]]
    assert top == [(1, "Hat"), (2, "Boot")]


@pytest.mark.django_db
def test_the_standings_decision_in_force_is_the_latest_in_time_not_in_filing(event, level_winners):
    p = level_winners
    standings_tie_decide(event=event, order=[p["Hat"].pk, p["Boot"].pk], by=None, reason="Dice")
    standings_tie_decide(event=event, order=[p["Boot"].pk, p["Hat"].pk], by=None, reason="Old")
    earlier = timezone.now() - datetime.timedelta(minutes=5)
    StandingsTieDecision.objects.filter(reason="Old").update(at=earlier)
    top = [(r.rank, r.alias) for r in standings(event=event, only_posted=True)[:2]]
    assert top == [(1, "Hat"), (2, "Boot")]
