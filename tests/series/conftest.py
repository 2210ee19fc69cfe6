"""The series the series tests qualify for: a senior and a junior Finals in one season."""

import pytest

from series import services
from tests.series.series_helpers import regional


@pytest.fixture
def series():
    finals = regional("Finals", day=28)
    junior_finals = regional("Junior Finals", day=28, fmt="junior")
    return services.series_create(
        name="UK Championship", season="2030", finals=finals, junior_finals=junior_finals
    )
