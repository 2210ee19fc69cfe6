"""The cockpit's step for a final includes choosing its banker.

Tournament Kit, BANKERS RESPONSIBILITIES: "The Banker in the Final Round must not be a player." The
organizer chooses that banker on the seating page; until every table of the final has
one, the cockpit's next action opens the page at the control itself.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from django.contrib.auth.models import Group, User
from django.urls import reverse

from cockpit.plan import DONE, cockpit_plan, next_action
from cockpit.selectors import event_facts
from demo.simulation import event_simulate
from tests.cockpit.test_cockpit import SEATED, a_round
from tournament.models import Round, Table

FINAL = a_round(4, final=True, tables=1, published=False, clock_started=False,
                clock_ended=False, sheets_in=0, sheets_signed=0, sheets_approved=0,
                posted=False, bankers_missing=1, first_without_banker=1)  # fmt: skip


def test_a_final_without_its_banker_asks_for_one_before_its_clock():
    facts = replace(SEATED, rounds=(a_round(1), a_round(2), a_round(3), FINAL))
    stage, act = next_action(facts)
    assert (stage, act.url_name, act.anchor) == ("round-4", "seating:seating", "round-4-table-1")
    assert act.label == "Assign the final's banker"
    assert "not playing" in act.why
    # Starting the clock stays beside it.
    assert [a.url_name for a in act.also] == ["clock:clock_control"]


def test_two_tables_without_a_banker_are_counted_and_the_first_one_opened():
    final = replace(FINAL, tables=2, bankers_missing=2, first_without_banker=1)
    _stage, act = next_action(replace(SEATED, rounds=(a_round(1), final)))
    assert act.label == "Assign the final's bankers: 2 tables without one"


def test_with_its_banker_the_final_starts_its_clock():
    final = replace(FINAL, bankers_missing=0, first_without_banker=None)
    _stage, act = next_action(replace(SEATED, rounds=(a_round(1), final)))
    assert act.url_name == "clock:clock_control"


def test_the_final_step_shows_its_banker_and_the_rounds_do_not():
    facts = replace(SEATED, rounds=(a_round(1), a_round(2), a_round(3), FINAL))
    steps = {step.key: step for step in cockpit_plan(facts).steps}
    banker = next(part for part in steps["final"].substeps if part.key == "banker")
    assert banker.state != DONE and banker.detail == "0/1"
    assert all(part.key != "banker" for part in steps["round-1"].substeps)
    done = replace(facts, rounds=(*facts.rounds[:3], replace(FINAL, bankers_missing=0)))
    steps = {step.key: step for step in cockpit_plan(done).steps}
    assert next(p for p in steps["final"].substeps if p.key == "banker").state == DONE


@pytest.mark.django_db
def test_the_cockpit_opens_the_seating_page_at_the_finals_banker_control(client):
    event = event_simulate(players=16, seed=5).event
    final = Round.objects.get(event=event, kind=Round.Kind.FINAL)
    table = Table.objects.filter(round=final).order_by("number").first()
    facts = event_facts(event=event)
    assert facts.rounds[-1].bankers_missing == Table.objects.filter(round=final).count()

    organizer = User.objects.create_user("olive")
    organizer.groups.add(Group.objects.get(name="Organizer"))
    client.force_login(organizer)
    cockpit = client.get(reverse("cockpit:cockpit", kwargs={"pk": event.pk})).content.decode()
    anchor = f"round-{final.number}-table-{table.number}"
    seating = reverse("seating:seating", kwargs={"pk": event.pk})
    assert f'id="next-action" href="{seating}#{anchor}"' in cockpit
    # The anchor is the control: the banker's form on the seating page.
    page = client.get(seating).content.decode()
    form = page[page.index(f'id="{anchor}"') :].split("</form>", 1)[0]
    assert 'name="banker"' in form

    banker = User.objects.create_user("bea")
    banker.groups.add(Group.objects.get(name="Banker"))
    action = reverse(
        "seating:seating_banker",
        kwargs={"pk": event.pk, "round_number": final.number, "table_number": table.number},
    )
    # Any other table of the final gets its banker too; the first one through the form.
    Table.objects.filter(round=final).exclude(pk=table.pk).update(banker=banker)
    assert client.post(action, {"banker": banker.pk}).status_code in (200, 302)
    cockpit = client.get(reverse("cockpit:cockpit", kwargs={"pk": event.pk})).content.decode()
    assert "Start the clock of the final" in cockpit and "Assign the final" not in cockpit
