"""The head judge's choice at a round's start, and the start time they call.

Championship Rules, ALTERNATES: "Use of alternates is at the discretion of the Head Judge." The
seats of those who left wait (``vacancy_selectors``) until the head judge chooses one of:

- ``fill``: the alternates take the seats in their order (a knockout's later rounds: the
  table's next player by assets, ``services.knockout_stand_in``); a seat nobody is left
  for stays to decide;
- ``leave``: the empty seats go and the tables play short, refused when a table would
  fall below its format's minimum;
- ``rebalance``: the empty seats go and players move between tables to even them
  (``services._rebalance``).
"""

from __future__ import annotations

import datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from seating.services import (
    VacancyResult,
    _editable,
    _rebalance,
    _renumber_seats,
    round_fill_vacancies,
)
from seating.vacancy_selectors import leave_refusal, round_vacancies
from tournament.locks import event_lock
from tournament.models import Clock, Round, Table, Wave

CHOICES = ("fill", "leave", "rebalance")


@transaction.atomic
def round_vacancies_decide(*, round_: Round, choice: str) -> VacancyResult:
    """Apply the head judge's ``choice`` to every empty seat of ``round_`` before it starts."""
    if choice not in CHOICES:
        raise ValidationError(_("Choose to fill, leave or rebalance."), code="invalid")
    # The event first, as every seating write; then read again: a second tap finds the
    # seats the first one left, and is told there is nothing to decide.
    event_lock(event_id=round_.event_id)
    round_ = Round.objects.select_related("event").get(pk=round_.pk)
    _editable(round_)
    if Clock.objects.filter(wave__round=round_).exists():
        raise ValidationError(_("This round has started; seats can no longer change."))
    vacancies = round_vacancies(round_=round_)
    if not vacancies:
        raise ValidationError(
            _("No seat is empty in round %(number)s: nothing to decide.")
            % {"number": round_.number},
            code="already",
        )
    if choice == "fill":
        return round_fill_vacancies(round_=round_, rest="keep")
    if choice == "leave":
        refusal = leave_refusal(round_=round_)
        if refusal is not None:
            raise ValidationError(refusal, code="short")
    tables = {seat_.table_id for seat_ in vacancies}
    removed = tuple(seat_.player for seat_ in vacancies)
    for seat_ in vacancies:
        seat_.delete()
    for table in Table.objects.filter(pk__in=tables):
        _renumber_seats(table)
    moved = _rebalance(round_=round_, even=True) if choice == "rebalance" else []
    return VacancyResult((), removed, tuple(moved))


@transaction.atomic
def wave_call_start(*, wave: Wave, now: datetime.datetime | None = None) -> datetime.datetime:
    """The head judge calls the official start of ``wave`` now (Championship Rules, TIME KEEPING:
    "The Head Judge holds the official timepiece"), so that no-shows can be marked before the clock
    starts and the empty seats decided. A start already set stands (a second tap)."""
    event_id = Wave.objects.filter(pk=wave.pk).values_list("round__event_id", flat=True).first()
    if event_id is None:
        raise ValidationError(_("This wave was seated again; open the round's start anew."))
    event_lock(event_id=event_id)
    wave = Wave.objects.select_for_update().get(pk=wave.pk)
    if wave.scheduled_start is not None:
        raise ValidationError(
            _("The start of this wave is already set."),
            code="already",
        )
    wave.scheduled_start = now or timezone.now()
    wave.save(update_fields=["scheduled_start"])
    return wave.scheduled_start
