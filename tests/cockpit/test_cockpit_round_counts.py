"""The cockpit's numbers of a round, counted by the database: tables, sheets by progress,
tables without a banker, and the ties left on signed sheets that no decision settles."""

from __future__ import annotations

from django.utils import timezone

from cockpit.selectors import event_facts
from scoring.models import TableSheet, TieDecision
from tests.builders import registered_players
from tests.scoring.scoring_helpers import make_round, table_of
from tournament.models import Table


def test_a_rounds_counts(event):
    people = registered_players(event, count=16)
    round_ = make_round(event, 1, [people[i : i + 4] for i in range(0, 16, 4)], tables_per_wave=2)
    one, two, three, four = (table_of(round_, n) for n in (1, 2, 3, 4))
    # Table 1: signed, two ties left by the engine, one decided by the head judge.
    TableSheet.objects.create(
        table=one,
        status=TableSheet.Status.SIGNED,
        report={"unresolved_ties": [[str(people[1].pk), str(people[0].pk)], ["7", "8"]]},
    )
    TieDecision.objects.create(
        table=one, players=[str(people[0].pk), str(people[1].pk)], at=timezone.now()
    )
    # Table 2: approved, one tie left. Table 3: submitted (its tie is not the judges' yet).
    TableSheet.objects.create(
        table=two, status=TableSheet.Status.APPROVED, report={"unresolved_ties": [["5", "6"]]}
    )
    TableSheet.objects.create(
        table=three, status=TableSheet.Status.SUBMITTED, report={"unresolved_ties": [["1", "2"]]}
    )
    TableSheet.objects.create(table=four, status=TableSheet.Status.DRAFT)
    Table.objects.filter(pk=four.pk).update(status=Table.Status.PLAYING, banker_player=people[12])
    Table.objects.filter(pk__in=[one.pk, two.pk]).update(banker_player=people[0])

    [facts] = event_facts(event=event).rounds
    assert (facts.tables, facts.tables_playing) == (4, 1)
    assert (facts.sheets_in, facts.sheets_signed, facts.sheets_approved) == (3, 2, 1)
    assert facts.open_ties == 2  # table 1's undecided tie and table 2's
    assert (facts.bankers_missing, facts.first_without_banker) == (1, 3)
    assert facts.clock_started and not facts.clock_ended
