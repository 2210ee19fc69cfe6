"""One event belongs to one series: another series' Finals or regionals are not its own.

A second series that took the first one's Finals as its own (or as a regional) would seat
players in, or qualify them into, a Finals that is not its own.
"""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from series import services
from series.forms import AddEventForm, SeriesForm
from tests.series.series_helpers import regional


@pytest.fixture
def first(db):
    finals = regional("Finals", day=20)
    junior = regional("Junior Finals", day=20, fmt="junior")
    series = services.series_create(
        name="National", season="2030", finals=finals, junior_finals=junior
    )
    services.series_add_event(series=series, event=regional("North", day=10))
    return series


def test_another_series_cannot_take_the_first_ones_finals_or_regionals(first):
    north = first.regionals.get().event
    for finals in (first.finals, north):
        with pytest.raises(ValidationError, match="already belongs to another series"):
            services.series_create(name="Rival", season="2030", finals=finals)
    with pytest.raises(ValidationError, match="already belongs to another series"):
        services.series_create(name="Rival", season="2030", junior_finals=first.junior_finals)


def test_another_series_cannot_make_the_first_ones_finals_a_regional(first):
    rival = services.series_create(name="Rival", season="2030")
    for finals in (first.finals, first.junior_finals):
        with pytest.raises(ValidationError, match="another series’ Finals"):
            services.series_add_event(series=rival, event=finals)
    # An event of no series still joins.
    services.series_add_event(series=rival, event=regional("South", day=11))
    assert rival.regionals.count() == 1


def test_the_forms_do_not_offer_another_series_events(first):
    rival = services.series_create(name="Rival", season="2030")
    free = regional("Free", day=12)
    offered = set(AddEventForm(series=rival).fields["event"].queryset)
    assert free in offered
    assert not offered & {first.finals, first.junior_finals, first.regionals.get().event}
    form = SeriesForm()
    assert first.finals not in set(form.fields["finals"].queryset)
    assert first.junior_finals not in set(form.fields["junior_finals"].queryset)
    assert free in set(form.fields["finals"].queryset)
