"""The undo of a re-seat of all rounds: the seating before comes back.

``round_tables.rounds_store_seating`` keeps, on each round it seats again, the tables it
replaced with their bankers and languages; this puts them back, republishing a round the
public had been shown, and forgets the undo so it cannot be applied twice.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction

from seating.reseat_selectors import reseat_undo_refusal, reseat_undo_rounds
from seating.round_tables import round_store_tables
from seating.services import round_publish
from tournament.models import Event, Round, Table


@transaction.atomic
def reseat_undo(*, event: Event) -> list[Round]:
    """Put back the seating the last re-seat replaced; the rounds it touched."""
    Event.objects.select_for_update().filter(pk=event.pk).first()
    refusal = reseat_undo_refusal(event=event)
    if refusal:
        raise ValidationError(refusal)
    rounds = reseat_undo_rounds(event=event)
    banker_ids = {b for r in rounds for b in r.seating_undo["before"]["bankers"] if b}
    # A banker whose account was removed since comes back as no banker, not as an error.
    still_there = set(
        get_user_model().objects.filter(pk__in=banker_ids).values_list("pk", flat=True)
    )
    for round_ in rounds:
        before = round_.seating_undo["before"]
        round_store_tables(round_=round_, tables=before["tables"], event=event)
        for number, (banker, language) in enumerate(
            zip(before["bankers"], before["languages"], strict=True), start=1
        ):
            Table.objects.filter(round=round_, number=number).update(
                banker_id=banker if banker in still_there else None, language=language
            )
        round_.seating_report = before["report"]
        round_.seating_undo = {}
        round_.save(update_fields=["seating_report", "seating_undo"])
        if before["published"]:
            round_publish(round_=round_, published=True)
    return rounds
